import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../core/canonical.js';
import { validatePayload } from '../core/payload.js';
import { mapHook, mapPermissionRequest } from './map-hooks.js';

const S = 'thr_wren_5';

describe('codex mapHook', () => {
  it('has a function length of 1, the reference signature mapHook(input)', () => {
    expect(mapHook.length).toBe(1);
  });

  it('never produces content above the ceiling; at full it carries args and prompt', () => {
    const pre = { hook_event_name: 'PreToolUse', session_id: S, tool_name: 'shell', tool_input: { command: ['cat', '/home/wren/.netrc'] } };
    expect(mapHook(pre)!.data).toEqual({ tool: { name: 'shell' }, args_digest: expect.any(String) });
    expect(mapHook(pre, { ceiling: 'redacted', attention: 'redacted' })!.data.args_redacted).toEqual({ command: ['cat', expect.not.stringContaining('/home/wren')] });
    expect(mapHook(pre, { ceiling: 'full', attention: 'full' })!.data.args).toEqual(pre.tool_input);
    const prompt = { hook_event_name: 'UserPromptSubmit', session_id: S, prompt: 'hello' };
    expect(mapHook(prompt)!.data).toEqual({ trigger: 'user' });
    expect(mapHook(prompt, { ceiling: 'full', attention: 'full' })!.data).toEqual({ trigger: 'user', prompt: 'hello' });
  });

  it('synthesizes the permission prompt from structure at a metadata attention ceiling', () => {
    const input = { hook_event_name: 'PermissionRequest', session_id: S, tool_name: 'shell', tool_input: { command: 'rm -rf ~/secrets' } };
    expect(mapPermissionRequest(input, { ceiling: 'metadata', attention: 'metadata' }).data.prompt).toBe('codex requests permission: shell');
    expect(mapPermissionRequest(input).data.prompt).toBe('Permission requested: shell — rm -rf ~/secrets');
  });

  it('every mapped payload is valid for its type', () => {
    const inputs = [
      { hook_event_name: 'SessionStart', session_id: S, source: 'clear', cwd: '/w' },
      { hook_event_name: 'PostToolUse', session_id: S, tool_name: 'shell', tool_response: 'x' },
      { hook_event_name: 'PermissionRequest', session_id: S },
      { hook_event_name: 'SubagentStop', session_id: S },
      { hook_event_name: 'PostCompact', session_id: S },
    ];
    for (const input of inputs) {
      const mapped = mapHook(input, { ceiling: 'full', attention: 'full' })!;
      expect(validatePayload(mapped.type, mapped.data)).toEqual([]);
    }
  });

  it('a hook without a name lands in the vendor namespace, never a core type', () => {
    expect(mapHook({ session_id: S })).toEqual({ type: 'x.codex.session.unknown', data: {} });
    expect(mapHook({ hook_event_name: 'PreCompact', session_id: S })).toBeNull();
  });
});

const STANDARD = '../shared/aep-standard/conformance/fixtures/mappings/codex.json';

describe.skipIf(!existsSync(STANDARD))("the standard's codex.json (read at test time, never copied)", () => {
  const fixture = existsSync(STANDARD) ? (JSON.parse(readFileSync(STANDARD, 'utf8')) as { hooks: Record<string, { input: Record<string, unknown>; expected: unknown }>; fallback: { input: Record<string, unknown>; expected: unknown } }) : null;
  const entries = fixture ? [...Object.entries(fixture.hooks), ['fallback', fixture.fallback] as const] : [];
  it.each(entries)('%s', (_name, entry) => {
    const pick = (v: unknown) => {
      if (v === null) return null;
      const { type, data, subject, step } = v as Record<string, unknown>;
      return { type, data, ...(subject === undefined ? {} : { subject }), ...(step === undefined ? {} : { step }) };
    };
    expect(canonicalJson(pick(mapHook(entry.input)))).toBe(canonicalJson(pick(entry.expected)));
  });
});
