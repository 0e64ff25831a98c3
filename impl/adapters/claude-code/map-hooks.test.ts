/** The pure Claude Code mapping: our own Annex A pins, every capture posture, and no content leaks. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../core/canonical.js';
import { validatePayload } from '../../core/payload.js';
import { mapHook } from './map-hooks.js';
import { mapAskUserQuestion } from './map-ask-user-question.js';
import { mapElicitation } from './map-elicitation.js';
import { NEWER_HOOKS } from './map-newer-hooks.js';

const DEFAULT = { ceiling: 'metadata' as const, attention: 'redacted' as const };
const fixture = JSON.parse(readFileSync(new URL('../../../conformance/fixtures/mappings/claude-code.json', import.meta.url), 'utf8'));
const strip = (expected: Record<string, unknown> | null) => {
  if (expected === null) return null;
  const { $comment: _c, ...rest } = expected;
  return rest;
};

/** Every hook of the Annex A.1 table (adapters.md / the reference inventory), plus the silent ones. */
const ANNEX_A_HOOKS = [
  'SessionStart', 'SessionEnd', 'UserPromptSubmit', 'Stop', 'StopFailure', 'PreToolUse', 'PostToolUse',
  'PostToolUseFailure', 'PermissionDenied', 'PermissionRequest', 'Elicitation', 'ElicitationResult',
  'SubagentStart', 'SubagentStop', 'PreCompact', 'PostCompact', 'TaskCreated', 'TaskCompleted', 'Notification', 'TeammateIdle',
];

describe('our mappings/claude-code.json', () => {
  it('covers every Annex A hook', () => {
    const covered = new Set(Object.values(fixture.hooks).map((h: any) => h.input.hook_event_name));
    expect(ANNEX_A_HOOKS.filter((h) => !covered.has(h))).toEqual([]);
  });
  for (const [name, entry] of Object.entries<any>(fixture.hooks)) {
    it(`${name} → ${entry.expected?.type ?? 'nothing'}`, () => {
      expect(canonicalJson(mapHook(entry.input, DEFAULT))).toBe(canonicalJson(strip(entry.expected)));
      if (entry.expected) expect(validatePayload(entry.expected.type, strip(entry.expected)!.data)).toEqual([]);
    });
  }
  it('fallback → x.claude-code.session.*', () => {
    expect(canonicalJson(mapHook(fixture.fallback.input, DEFAULT))).toBe(canonicalJson(strip(fixture.fallback.expected)));
  });
  it('forms at both postures', () => {
    const form = (m: object) => ({ kind: 'form', ...m, respond_via: ['control'] });
    const q = fixture.ask_user_question;
    expect(canonicalJson(form(mapAskUserQuestion(q.input.questions, { agent: 'claude-code', contentOk: true })))).toBe(canonicalJson(q.expected_data));
    expect(canonicalJson(form(mapAskUserQuestion(q.input.questions, { agent: 'claude-code', contentOk: false })))).toBe(canonicalJson(q.expected_data_metadata));
    const e = fixture.elicitation;
    expect(canonicalJson(form(mapElicitation(e.input.message, e.input.requestedSchema, { agent: 'claude-code', contentOk: true })))).toBe(canonicalJson(e.expected_data));
    expect(canonicalJson(form(mapElicitation(e.input.message, e.input.requestedSchema, { agent: 'claude-code', contentOk: false })))).toBe(canonicalJson(e.expected_data_metadata));
    for (const data of [q.expected_data, q.expected_data_metadata, e.expected_data, e.expected_data_metadata]) expect(validatePayload('attention.requested', data)).toEqual([]);
  });
});

describe('capture postures', () => {
  const secret = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
  const base = { session_id: 's', cwd: '/home/ana/proj' };
  const pre = { ...base, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: 't', tool_input: { command: `curl -H "token: ${secret}" x` } };
  const prompt = { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'mail ana@example.org the plan' };
  const perm = { ...base, hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: `echo ${secret}` } };

  it('metadata carries no content, only structure and digests', () => {
    const everything = { ceiling: 'metadata' as const, attention: 'metadata' as const };
    const text = JSON.stringify([mapHook(pre, everything), mapHook(prompt, everything), mapHook(perm, everything), mapHook({ ...base, hook_event_name: 'SessionStart' }, everything)]);
    expect(text).not.toContain('curl');
    expect(text).not.toContain('ana');
    expect(text).not.toContain('echo');
    expect(mapHook(perm, everything)!.data.prompt).toBe('claude-code requests permission: Bash');
  });

  it('redacted carries content through the §9.4 pipeline', () => {
    const red = { ceiling: 'redacted' as const, attention: 'redacted' as const };
    const tool = mapHook(pre, red)!;
    expect(tool.data.args).toBeUndefined();
    expect(JSON.stringify(tool.data.args_redacted)).toContain('curl');
    expect(JSON.stringify(tool.data.args_redacted)).not.toContain(secret);
    expect(mapHook(prompt, red)!.data.prompt).not.toContain('ana@example.org');
    expect(String(mapHook(perm, red)!.data.prompt)).not.toContain(secret);
    const cwd = String(mapHook({ ...base, hook_event_name: 'SessionStart' }, red)!.data.cwd);
    expect(cwd).toContain('proj');
    expect(cwd).not.toContain('/home/ana');
  });

  it('full carries content verbatim', () => {
    const full = { ceiling: 'full' as const, attention: 'full' as const };
    const tool = mapHook(pre, full)!;
    expect(tool.data.args).toEqual(pre.tool_input);
    expect(tool.data.args_redacted).toBeUndefined();
    expect(tool.data.args_digest).toBe(mapHook(pre, DEFAULT)!.data.args_digest);
  });
});

describe('drift: what newer Claude Code payloads carry never breaks a mapping', () => {
  /** Members real payloads carry (2.1.196+) or may carry tomorrow, none of which a mapping reads. */
  const IGNORED = {
    prompt_id: 'pr_extra_1',
    effort: { level: 'high' },
    permission_mode: 'acceptEdits',
    session_title: 'Ledger retries',
    mcp_server: { name: 'deployer', source: 'project' },
    a_field_from_the_future: { nested: [1, 2, { deep: true }] },
  };
  const entries = Object.entries<any>(fixture.hooks);

  for (const [name, entry] of entries) {
    it(`${name}: the same event with extra input fields`, () => {
      const input = { ...entry.input, ...IGNORED };
      expect(canonicalJson(mapHook(input, DEFAULT))).toBe(canonicalJson(strip(entry.expected)));
    });
  }

  it('duration_ms lands on the tool terminals only, and changes nothing else', () => {
    for (const [, entry] of entries) {
      const hook = entry.input.hook_event_name as string;
      const withDuration = mapHook({ ...entry.input, duration_ms: 77 }, DEFAULT);
      const expected = strip(entry.expected) as Record<string, any> | null;
      if (hook === 'PostToolUse' || hook === 'PostToolUseFailure') {
        expect(withDuration!.data).toEqual({ ...expected!.data, duration_ms: 77 });
      } else {
        expect(canonicalJson(withDuration)).toBe(canonicalJson(expected));
      }
    }
  });

  it('every newer hook has its own pin, and the pins cover the whole mapped set', () => {
    const pinned = new Set(entries.map(([, e]) => e.input.hook_event_name));
    expect(NEWER_HOOKS.filter((h) => !pinned.has(h))).toEqual([]);
  });

  it('a newer hook carries its content only at redacted+, through the redaction pipeline', () => {
    const red = { ceiling: 'redacted' as const, attention: 'redacted' as const };
    const cwd = { hook_event_name: 'CwdChanged', session_id: 's', old_cwd: '/home/ana/a', new_cwd: '/home/ana/b' };
    expect(mapHook(cwd, DEFAULT)!.data).toEqual({});
    const moved = mapHook(cwd, red)!.data as Record<string, string>;
    expect(moved.new_cwd).toContain('b');
    expect(moved.new_cwd).not.toContain('/home/ana');
    const shown = { hook_event_name: 'MessageDisplay', session_id: 's', message_id: 'm', index: 2, final: false, delta: 'mail ana@example.org' };
    expect(mapHook(shown, DEFAULT)!.data).toEqual({ message_id: 'm', index: 2, final: false });
    expect(mapHook(shown, red)!.data.delta).not.toContain('ana@example.org');
    expect(mapHook({ hook_event_name: 'Stop', session_id: 's', last_assistant_message: 'all done' }, red)!.data).toEqual({ summary: 'all done' });
  });
});
