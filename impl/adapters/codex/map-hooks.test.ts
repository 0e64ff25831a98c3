import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../core/canonical.js';
import { validatePayload } from '../../core/payload.js';
import { mapHook, mapPermissionRequest } from './map-hooks.js';
import { standardPath } from '../../test-utils/standard.js';
import { skipped, WHY } from '../../test-utils/skip.js';

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

/** The twelve hooks of Codex 0.171.0, plus StopFailure (mapped for builds that send it). */
const HOOKS = ['SessionStart', 'SessionEnd', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'SubagentStart', 'SubagentStop', 'PreCompact', 'PostCompact', 'Stop', 'Interrupt', 'StopFailure'];

/** Fields no mapping reads, new ones Codex (or Claude Code) may add at any release. */
const EXTRA = {
  prompt_id: 'p_77',
  effort: { level: 'high' },
  duration_ms: 41,
  permission_mode: 'bypassPermissions',
  transcript_path: null,
  stop_hook_active: true,
  last_assistant_message: 'done',
  sandbox: { mode: 'workspace-write', writable_roots: ['/w'] },
  future_field_v9: [1, { nested: true }],
};

describe('codex mapHook: the 0.171.0 hook surface', () => {
  const own = JSON.parse(readFileSync('conformance/fixtures/mappings/codex.json', 'utf8')) as { hooks: Record<string, { input: Record<string, unknown>; expected: unknown }> };

  it('our pins cover every hook, and both the shell/argv and the Bash/string payload generations', () => {
    const hooks = new Set(Object.values(own.hooks).map((e) => e.input.hook_event_name));
    for (const hook of HOOKS) expect(hooks, hook).toContain(hook);
    const tools = Object.values(own.hooks).filter((e) => e.input.hook_event_name === 'PreToolUse').map((e) => [e.input.tool_name, Array.isArray((e.input.tool_input as { command?: unknown }).command) ? 'argv' : 'string']);
    expect(tools).toEqual(expect.arrayContaining([['shell', 'argv'], ['Bash', 'string']]));
  });

  it.each(Object.entries(own.hooks))('extra input fields never change the mapping: %s', (_label, entry) => {
    for (const posture of [undefined, { ceiling: 'full', attention: 'full' } as const, { ceiling: 'none', attention: 'none' } as const]) {
      expect(mapHook({ ...EXTRA, ...entry.input }, posture)).toEqual(mapHook(entry.input, posture));
      expect(mapHook({ ...entry.input, ...EXTRA, hook_event_name: entry.input.hook_event_name }, posture)).toEqual(mapHook(entry.input, posture));
    }
  });

  it('SessionEnd → session.ended, Interrupt → run.cancelled{by:user}, StopFailure → run.failed with the error (never the x.codex fallback)', () => {
    expect(mapHook({ hook_event_name: 'SessionEnd', session_id: S, reason: 'other' })).toEqual({ type: 'session.ended', data: { reason: 'normal' } });
    expect(mapHook({ hook_event_name: 'SessionEnd', session_id: S })).toEqual({ type: 'session.ended', data: { reason: 'normal' } });
    expect(mapHook({ hook_event_name: 'Interrupt', session_id: S, turn_id: 't' })).toEqual({ type: 'run.cancelled', data: { by: 'user' } });
    const failure = { hook_event_name: 'StopFailure', session_id: S, turn_id: 't', error: 'overloaded', error_details: 'upstream 529 for /home/wren/x' };
    expect(mapHook(failure)).toEqual({ type: 'run.failed', data: { reason: 'error', error: { type: 'overloaded' } } });
    expect(mapHook(failure, { ceiling: 'redacted', attention: 'redacted' })).toEqual({ type: 'run.failed', data: { reason: 'error', error: { type: 'overloaded', message: 'upstream 529 for ~/x' } } });
    expect(mapHook({ hook_event_name: 'StopFailure', session_id: S })).toEqual({ type: 'run.failed', data: { reason: 'error' } });
    for (const hook of HOOKS) expect(mapHook({ hook_event_name: hook, session_id: S })?.type ?? 'none', hook).not.toMatch(/^x\./);
  });

  it('a subagent prompt (agent_id set) maps to nothing; the parent turn is not touched', () => {
    expect(mapHook({ hook_event_name: 'UserPromptSubmit', session_id: S, turn_id: 't2', agent_id: 'a1', agent_type: 'explorer', prompt: 'x' })).toBeNull();
    expect(mapHook({ hook_event_name: 'UserPromptSubmit', session_id: S, turn_id: 't2', agent_id: '', prompt: 'x' })).toEqual({ type: 'run.started', data: { trigger: 'user' } });
  });

  it('Bash with a string command and shell with an argv array give the same permission prompt', () => {
    const bash = mapPermissionRequest({ hook_event_name: 'PermissionRequest', session_id: S, tool_name: 'Bash', tool_input: { command: 'make release', description: 'cut it' } });
    const shell = mapPermissionRequest({ hook_event_name: 'PermissionRequest', session_id: S, tool_name: 'shell', tool_input: { command: ['make', 'release'], justification: 'cut it' } });
    expect(bash.data.prompt).toBe('Permission requested: Bash — make release (cut it)');
    expect(shell.data.prompt).toBe('Permission requested: shell — make release (cut it)');
  });

  it('every hook, with extra fields, maps to a payload valid for its type', () => {
    for (const hook of HOOKS) {
      const mapped = mapHook({ ...EXTRA, hook_event_name: hook, session_id: S, turn_id: 't', tool_name: 'Bash', tool_use_id: 'c', tool_input: { command: 'ls' }, tool_response: '', error: 'rate_limit', agent_id: 'a', agent_type: 'worker', source: 'resume', trigger: 'auto', reason: 'other' }, { ceiling: 'full', attention: 'full' });
      if (mapped) expect(validatePayload(mapped.type, mapped.data), hook).toEqual([]);
    }
  });
});

const STANDARD = standardPath('conformance', 'fixtures', 'mappings', 'codex.json');

describe.skipIf(!existsSync(STANDARD))(`the standard's codex.json (read at test time, never copied)${skipped(!existsSync(STANDARD), WHY.standard)}`, () => {
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
