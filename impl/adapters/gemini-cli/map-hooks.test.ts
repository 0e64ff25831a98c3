import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../core/canonical.js';
import { validatePayload } from '../../core/payload.js';
import { pinShape } from '../../../runners/conformance/families/mappings.js';
import { describeWhenPresent } from '../../test-utils/suites.js';
import { mapHook } from './map-hooks.js';
import { standardPath } from '../../test-utils/standard.js';

const S = 'gm-heron-2';
const FULL = { ceiling: 'full', attention: 'full' } as const;
const REDACTED = { ceiling: 'redacted', attention: 'redacted' } as const;

describe('gemini-cli mapHook', () => {
  it('has the reference signature mapHook(input)', () => {
    expect(mapHook.length).toBe(1);
  });

  it('gates content by the ceiling: prompt, args, cwd and error text only where allowed', () => {
    const before = { hook_event_name: 'BeforeAgent', session_id: S, prompt: 'mail me at ivo@example.org' };
    expect(mapHook(before)!.data).toEqual({ trigger: 'user' });
    expect(mapHook(before, REDACTED)!.data.prompt).not.toContain('ivo@example.org');
    expect(mapHook(before, FULL)!.data.prompt).toBe('mail me at ivo@example.org');
    const failed = { hook_event_name: 'AfterTool', session_id: S, tool_name: 'read_file', tool_response: { error: { type: 'ENOENT', message: 'no /home/ivo/x' } } };
    expect(mapHook(failed)!.data.error).toEqual({ type: 'ENOENT' });
    expect(mapHook(failed, FULL)!.data.error).toEqual({ type: 'ENOENT', message: 'no /home/ivo/x' });
    const start = { hook_event_name: 'SessionStart', session_id: S, source: 'clear', cwd: '/home/ivo/p' };
    expect(mapHook(start, FULL)!.data).toEqual({ client: { name: 'gemini-cli' }, trigger: 'clear', cwd: '/home/ivo/p' });
  });

  it('an AfterTool without an error (null, empty or absent) is a completion, never a failure', () => {
    for (const error of [undefined, null, '']) {
      const input = { hook_event_name: 'AfterTool', session_id: S, tool_name: 'ls', tool_response: { llmContent: 'a b', ...(error === undefined ? {} : { error }) } };
      expect(mapHook(input)!.type).toBe('tool.completed');
    }
  });

  it("a shell command exiting non-zero is a failure (Gemini 0.61.0 sets no error, only an 'Exit Code: N' line)", () => {
    const shell = (llmContent: unknown, tool_name = 'run_shell_command') => ({ hook_event_name: 'AfterTool', session_id: S, tool_name, tool_response: { llmContent, returnDisplay: 'x' } });
    expect(mapHook(shell('<untrusted_context>\nOutput: nope\nExit Code: 1\nProcess Group PGID: 935\n</untrusted_context>'))).toEqual({ type: 'tool.failed', data: { tool: { name: 'run_shell_command' }, error: { type: 'exit_code' } }, subject: 'run_shell_command' });
    expect(mapHook(shell('Output: ok\nExit Code: 1\nExit Code: 0'), )!.type).toBe('tool.completed');
    expect(mapHook(shell('Output: fine\nExit Code: 0'))!.type).toBe('tool.completed');
    expect(mapHook(shell('Output: Exit Code: 7 inline'))!.type).toBe('tool.completed');
    expect(mapHook(shell('Exit Code: 2', 'read_file'))!.type).toBe('tool.completed');
    expect(mapHook(shell(['Exit Code: 2']))!.type).toBe('tool.completed');
    expect(mapHook({ ...shell('Exit Code: 127'), hook_event_name: 'AfterTool' }, FULL)!.data.error).toEqual({ type: 'exit_code', message: 'exit code 127' });
  });

  it('Notification is progress, never attention; the model plane stays in the vendor namespace', () => {
    expect(mapHook({ hook_event_name: 'Notification', session_id: S, notification_type: 'ToolPermission', message: 'm' })).toEqual({ type: 'progress.status', data: {}, subject: 'ToolPermission' });
    expect(mapHook({ hook_event_name: 'Notification', session_id: S })).toEqual({ type: 'progress.status', data: {} });
    expect(mapHook({ hook_event_name: 'AfterModel', session_id: S, llm_request: 'not an object' })).toEqual({ type: 'x.gemini-cli.session.after_model', data: {} });
  });

  it('every mapped payload is valid for its type, at full', () => {
    const hooks = ['SessionStart', 'SessionEnd', 'BeforeAgent', 'AfterAgent', 'BeforeTool', 'AfterTool', 'BeforeModel', 'AfterModel', 'BeforeToolSelection', 'PreCompress', 'Notification', 'Whatever'];
    for (const hook of hooks) {
      const mapped = mapHook({ hook_event_name: hook, session_id: S, tool_name: 't', tool_input: { a: 1 }, tool_response: { error: 'x' }, prompt: 'p', source: 'startup', reason: 'other', trigger: 'auto', llm_request: { model: 'm' }, notification_type: 'ToolPermission', message: 'm' }, FULL)!;
      expect(validatePayload(mapped.type, mapped.data), hook).toEqual([]);
    }
  });

  it('a hook without a name lands in the vendor namespace', () => {
    expect(mapHook({ session_id: S })).toEqual({ type: 'x.gemini-cli.session.unknown', data: {} });
  });
});

const STANDARD = standardPath('conformance', 'fixtures', 'mappings', 'gemini-cli.json');
describeWhenPresent(STANDARD, "the standard's gemini-cli.json (read at test time, never copied)", () => {
  const fixture = JSON.parse(readFileSync(STANDARD, 'utf8')) as { hooks: Record<string, { input: Record<string, unknown>; expected: unknown }>; fallback: { input: Record<string, unknown>; expected: unknown } };
  it.each([...Object.entries(fixture.hooks), ['fallback', fixture.fallback] as const])('%s', (_name, entry) => {
    expect(canonicalJson(pinShape(mapHook(entry.input)))).toBe(canonicalJson(pinShape(entry.expected)));
  });
});

describe("Gemini CLI 0.61.0's own payloads, captured by the real-vendors lane (conformance/fixtures/vendors)", () => {
  const capture = (scenario: string, file: string) => JSON.parse(readFileSync(new URL(`../../../conformance/fixtures/vendors/gemini-cli-0.61.0/${scenario}/${file}`, import.meta.url), 'utf8')) as Record<string, unknown>;
  it('a failed shell command is tool.failed, a successful one tool.completed', () => {
    expect(mapHook(capture('observe-tool-fails', '07-AfterTool.json'))).toMatchObject({ type: 'tool.failed', data: { error: { type: 'exit_code' } } });
    expect(mapHook(capture('observe-tool', '07-AfterTool.json'))!.type).toBe('tool.completed');
  });
});
