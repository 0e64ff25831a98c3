/** The hook-body guard: depth bound and lone surrogates, and nothing else changes. */
import { describe, expect, it } from 'vitest';
import { MAX_HOOK_DEPTH, TOO_DEEP, guardHookInput } from './hook-input.js';
import { MAX_DEPTH, scanJsonText } from '../core/json-shape.js';

function nested(depth: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

describe('guardHookInput', () => {
  it('keeps an ordinary payload equal, including a "__proto__" key as an own property', () => {
    const input = JSON.parse('{"session_id":"s","tool_input":{"command":"ls","args":[1,true,null,"é😀"]},"__proto__":{"x":1}}');
    const out = guardHookInput(input);
    expect(out).toEqual({ value: input, truncated: 0, repaired: 0 });
    expect(Object.hasOwn(out.value as object, '__proto__')).toBe(true);
  });

  it('cuts at the depth bound, keeping everything above it', () => {
    const out = guardHookInput({ tool_input: nested(5000) });
    expect(out.truncated).toBe(1);
    let v = (out.value as { tool_input: unknown }).tool_input;
    let levels = 1;
    while (typeof v === 'object' && v !== null) {
      v = (v as { a: unknown }).a;
      levels++;
    }
    expect(v).toBe(TOO_DEEP);
    expect(levels).toBe(MAX_HOOK_DEPTH); // the top-level object and 63 levels of tool_input
    expect(guardHookInput(nested(MAX_HOOK_DEPTH - 1)).truncated).toBe(0);
    expect(guardHookInput([[[[1]]]], 3)).toEqual({ value: [[['[nested deeper than 3 levels: not kept]']]], truncated: 1, repaired: 0 });
  });

  it('repairs lone surrogates in strings and keys, leaves pairs alone', () => {
    const out = guardHookInput(JSON.parse('{"session_id":"lone\\ud800","k\\udc00":"ok","pair":"\\ud83d\\ude00"}'));
    expect(out.value).toEqual({ session_id: 'lone\ufffd', 'k\ufffd': 'ok', pair: '😀' });
    expect(out.repaired).toBe(2);
  });
});

describe('the depth bound and the relay', () => {
  it('a hook value cut at MAX_HOOK_DEPTH still fits an event the relay accepts (envelope.depth, MAX_DEPTH)', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 500; i++) deep = { a: deep };
    const guarded = guardHookInput({ session_id: 's', tool_input: deep });
    expect(guarded.truncated).toBe(1);
    const input = (guarded.value as Record<string, unknown>).tool_input;
    // The deepest place an adapter carries a hook value: event.data.tool.input.
    const event = { id: 'x', data: { tool: { name: 'Bash', input } } };
    expect(scanJsonText(JSON.stringify(event))).toBeNull();
    let over: unknown = 'leaf';
    for (let i = 0; i < MAX_DEPTH; i++) over = { a: over };
    expect(scanJsonText(JSON.stringify({ data: over }))?.kind).toBe('depth');
  });
});
