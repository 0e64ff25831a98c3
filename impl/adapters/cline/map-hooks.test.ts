import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { digest } from '../../core/digest.js';
import { hookNameOf, mapHook } from './map-hooks.js';

const FULL = { ceiling: 'full', attention: 'full' } as const;
const REDACTED = { ceiling: 'redacted', attention: 'redacted' } as const;
const base = (hookName: string, extra: Record<string, unknown> = {}) => ({ hookName, taskId: 't_1', agent_id: 'a_1', parent_agent_id: null, ...extra });

describe('cline mapHook', () => {
  it('a parented start opens the delegation pair before the run; its terminal closes it after', () => {
    const child = { agent_id: 'a_2', parent_agent_id: 'a_1' };
    expect(mapHook(base('agent_start', child)).map((m) => m.type)).toEqual(['delegation.subagent.started', 'run.started']);
    expect(mapHook(base('agent_error', { ...child, iteration: 2, error: { name: 'E' } })).map((m) => [m.type, m.step ?? null, m.subject ?? null])).toEqual([
      ['run.failed', '2', null],
      ['delegation.subagent.stopped', null, 'a_2'],
    ]);
    expect(mapHook(base('agent_resume', child)).map((m) => m.type)).toEqual(['run.started']);
  });

  it('free text is gated: absent at metadata, redacted at redacted, verbatim at full', () => {
    const abort = base('agent_abort', { reason: 'ask ana@example.com' });
    expect(mapHook(abort)[0]!.data).toEqual({ by: 'user' });
    expect(mapHook(abort, REDACTED)[0]!.data.reason).not.toContain('ana@example.com');
    expect(mapHook(abort, FULL)[0]!.data.reason).toBe('ask ana@example.com');
    const failed = base('tool_result', { tool_result: { id: 'c', name: 'n', output: null, error: 'bad', durationMs: 1 } });
    expect(mapHook(failed, FULL)[0]!.data.error).toEqual({ type: 'tool_error', message: 'bad' });
    const compact = base('pre_compact', { preCompact: { contextJsonPath: '/p.json', tokensIn: 1 } });
    expect(mapHook(compact)[0]!.data).toEqual({ 'gen_ai.usage.input_tokens': 1 });
    expect(mapHook(compact, FULL)[0]!.data.context_json_path).toBe('/p.json');
  });

  it("a batch whose command failed is tool.failed (Cline 3.0.65 run_commands: no record error, the legacy mirror says success)", () => {
    const result = (output: unknown) => base('tool_result', { tool_result: { id: 'c', name: 'run_commands', input: {}, output, durationMs: 3 }, postToolUse: { toolName: 'run_commands', success: true } });
    const failing = [{ query: 'make', result: '[Command exited with code 1]', error: 'Command exited with code 1', success: false }];
    expect(mapHook(result(failing))[0]).toEqual({ type: 'tool.failed', data: { tool: { name: 'run_commands', call_id: 'c' }, duration_ms: 3, error: { type: 'tool_error' } }, subject: 'run_commands' });
    expect(mapHook(result(failing), FULL)[0]!.data.error).toEqual({ type: 'tool_error', message: 'Command exited with code 1' });
    expect(mapHook(result([{ query: 'ls', success: true }, { query: 'x', success: false }]), FULL)[0]!.data.error).toEqual({ type: 'tool_error', message: 'failed' });
    expect(mapHook(result([{ query: 'ls', result: '', success: true }]))[0]!.type).toBe('tool.completed');
    expect(mapHook(result(['not an entry', null]))[0]!.type).toBe('tool.completed');
  });

  it('workspaceInfo on run.started: the commit hash at metadata, the branch name only at redacted+', () => {
    const start = base('agent_start', { workspaceInfo: { rootPath: '/w', latestGitCommitHash: 'abc123', latestGitBranchName: 'ana/secret-plan' } });
    expect(mapHook(start)[0]!.data).toEqual({ trigger: 'user', git_commit: 'abc123' });
    expect(mapHook(start, FULL)[0]!.data).toEqual({ trigger: 'user', git_commit: 'abc123', git_branch: 'ana/secret-plan' });
  });

  it('tool content: digest at metadata, the value itself only at full', () => {
    const call = base('tool_call', { tool_call: { id: 'c1', name: 'write', input: { path: 'a' } } });
    expect(mapHook(call)[0]!.data).toEqual({ tool: { name: 'write', call_id: 'c1' }, args_digest: digest({ path: 'a' }) });
    expect(mapHook(call, FULL)[0]!.data.args).toEqual({ path: 'a' });
  });

  it('both generations: legacy hook names translate, the typed name wins, the path name is the last resort', () => {
    expect(hookNameOf({ hookName: 'TaskCancel' })).toBe('agent_abort');
    expect(hookNameOf({}, 'PostToolUse')).toBe('tool_result');
    expect(hookNameOf({ hookName: 'tool_call' }, 'PostToolUse')).toBe('tool_call');
    expect(mapHook({ hookName: 'PreToolUse', taskId: 't', preToolUse: { tool: 'grep', parameters: { q: 'x' } } })[0]).toMatchObject({ type: 'tool.requested', subject: 'grep' });
    expect(mapHook({ hookName: 'PostToolUse', taskId: 't', postToolUse: { toolName: 'grep', result: 'hit', success: true, executionTimeMs: 4 } })[0]).toMatchObject({ type: 'tool.completed', data: { duration_ms: 4, result_digest: digest('hit') } });
  });

  it('a prompt\'s digest is message_digest (the name the standard\'s pins give a message text\'s digest), the text at redacted+', () => {
    const input = { hookName: 'UserPromptSubmit', taskId: 't', userPromptSubmit: { prompt: 'fix it' } };
    expect(mapHook(input)).toEqual([{ type: 'x.cline.prompt.submitted', data: { message_digest: digest('fix it') } }]);
    expect(mapHook(input, { ceiling: 'full', attention: 'full' })[0]!.data).toEqual({ message_digest: digest('fix it'), prompt: 'fix it' });
  });

  it('unknown hooks fall back mechanically; malformed members never throw', () => {
    expect(mapHook(base('Notification'))).toEqual([{ type: 'x.cline.hook.notification', data: {} }]);
    expect(mapHook(base('tool_call', { tool_call: 'nonsense', iteration: -3 }))).toEqual([{ type: 'tool.requested', data: { tool: { name: 'unknown' } }, subject: 'unknown' }]);
    expect(mapHook({})).toEqual([{ type: 'x.cline.hook.unknown', data: {} }]);
  });
});

describe("Cline 3.0.65's own payloads, captured by the real-vendors lane (conformance/fixtures/vendors)", () => {
  const capture = (scenario: string, file: string) => JSON.parse(readFileSync(new URL(`../../../conformance/fixtures/vendors/cline-3.0.65/${scenario}/${file}`, import.meta.url), 'utf8')) as Record<string, unknown>;
  it('a failed run_commands is tool.failed, a successful one tool.completed', () => {
    expect(mapHook(capture('record-tool-fails', '03-PostToolUse.json')).map((m) => m.type)).toEqual(['tool.failed']);
    expect(mapHook(capture('record-session', '03-PostToolUse.json')).map((m) => m.type)).toEqual(['tool.completed']);
  });
});
