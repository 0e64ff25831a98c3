import { describe, expect, it } from 'vitest';
import { MAX_INPUT_DEPTH, sanitizeInput } from './sanitize.js';

const nested = (depth: number): Record<string, unknown> => {
  const root: Record<string, unknown> = {};
  let at = root;
  for (let i = 0; i < depth; i++) at = (at.a = {}) as Record<string, unknown>;
  return root;
};

describe('sanitizeInput', () => {
  it('returns an ordinary input unchanged, the same object, with no problems', () => {
    const input = { session_id: 's', tool_input: { command: 'ls', list: [1, 'é', { ok: true }] }, emoji: '\ud83d\ude00' };
    const out = sanitizeInput(input);
    expect(out.value).toBe(input);
    expect(out.problems).toEqual([]);
  });

  it('replaces lone surrogates (in values and keys) by U+FFFD and says so', () => {
    const out = sanitizeInput({ session_id: 'lone\ud800', tool_input: { ['k\udc00']: ['x\ud800y'] } });
    expect(out.value).toEqual({ session_id: 'lone\ufffd', tool_input: { 'k\ufffd': ['x\ufffdy'] } });
    expect(out.problems).toEqual(['3 string(s) held a lone UTF-16 surrogate, which no UTF-8 text can carry; replaced by U+FFFD']);
  });

  it('truncates nesting past the bound, so 5000 levels never reach a recursive digest', () => {
    const out = sanitizeInput({ tool_input: nested(5000) });
    let at: any = out.value;
    let depth = 0;
    while (typeof at === 'object') {
      at = at.tool_input ?? at.a;
      depth++;
    }
    expect(depth).toBe(MAX_INPUT_DEPTH);
    expect(at).toBe(`[truncated: nested deeper than ${MAX_INPUT_DEPTH}]`);
    expect(out.problems).toEqual([`1 value(s) nested deeper than ${MAX_INPUT_DEPTH} levels were replaced by a truncation marker`]);
    expect(sanitizeInput({ tool_input: nested(MAX_INPUT_DEPTH - 2) }).problems).toEqual([]);
  });
});

describe('encodeSegment', () => {
  it('percent-encodes like encodeURIComponent, and never throws on a lone surrogate', async () => {
    const { encodeSegment } = await import('./envelope.js');
    expect(encodeSegment('a b/c')).toBe('a%20b%2Fc');
    expect(encodeSegment('\ud83d\ude00')).toBe(encodeURIComponent('\ud83d\ude00'));
    expect(encodeSegment('lone\ud800')).toBe('lone%EF%BF%BD');
  });
});
