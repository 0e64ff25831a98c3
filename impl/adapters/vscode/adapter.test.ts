/**
 * The VS Code agent adapter end to end: a whole realistic session through the hook shim exactly as
 * hooks.example.json invokes it (the eight events, Local-harness casing and extra fields), with the
 * opt-in gate on: a deny, an ask and an allow answered over a stub relay; and the session log
 * passes `aep validate`. Read-only by default: `control.accepts: []`, nothing held.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { command, daemonHarness, postHook, type Linked } from '../../adapter-kit/test-utils/daemon-harness.js';
import type { AdapterDef } from '../../adapter-kit/types.js';
import { runHookCommand, sessionLog } from '../../test-utils/hook-command.js';
import { adapter, HOOKS } from './adapter.js';

const config = JSON.parse(readFileSync(new URL('./hooks.example.json', import.meta.url), 'utf8')) as { hooks: Record<string, { type: string; command: string; timeout: number }[]> };
const S = 'vs-lea-77';
const common = { sessionId: S, timestamp: '2026-11-04T10:00:00.000Z', cwd: '/w/app', transcript_path: '/home/lea/.vscode/transcripts/vs-lea-77.md' };
const DENY = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"not on main"}}';
const ASK = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}';

const daemon = daemonHarness();
afterEach(() => daemon.close());

function setup(env: Record<string, string>, instruct = false): Promise<Linked> {
  return daemon.start(adapter.configure!(env) as AdapterDef, { hostname: 'lea', instruct });
}

describe('hooks.example.json and configuration', () => {
  it('registers the eight events with `aep hook vscode <Event>`; PreToolUse gets the 30 s the gate window fits in', () => {
    expect(Object.keys(config.hooks).sort()).toEqual([...HOOKS].sort());
    for (const [event, [h]] of Object.entries(config.hooks)) expect(h).toMatchObject({ type: 'command', command: `aep hook vscode ${event}` });
    expect(config.hooks.PreToolUse![0]!.timeout * 1000).toBeGreaterThanOrEqual((adapter.configure!({ AEP_VSCODE_CONTROL: '1' }) as AdapterDef).holdMs! + 5000);
  });

  it('reads its variables: a bad value is an error naming the variable; the hold never outgrows the hook timeout', () => {
    expect(adapter.configure!({ AEP_VSCODE_CONTROL: 'yes' })).toMatch(/AEP_VSCODE_CONTROL must be 1/);
    expect(adapter.configure!({ AEP_VSCODE_GATE_TOOLS: '(' })).toMatch(/AEP_VSCODE_GATE_TOOLS must be a regular expression/);
    expect((adapter.configure!({ AEP_VSCODE_CONTROL: '1', AEP_ATTENTION_TIMEOUT_MS: '55000' }) as AdapterDef).holdMs).toBe(25000);
    expect((adapter.configure!({ AEP_VSCODE_CONTROL: '1', AEP_ATTENTION_TIMEOUT_MS: '9000' }) as AdapterDef).holdMs).toBe(9000);
    expect((adapter.configure!({}) as AdapterDef).accepts).toEqual([]);
  });
});

describe('vscode adapter daemon', () => {
  it('a whole session through the configured shim with the gate on: deny, ask, allow; a valid log', async () => {
    const { a, r, home } = await setup({ AEP_VSCODE_CONTROL: '1', AEP_VSCODE_GATE_TOOLS: 'run_in_terminal' });
    expect(JSON.parse(r.frames[0]!).capabilities.control).toEqual({ accepts: ['control.attention.respond'], ack_window_ms: 10000 });
    const env = { AEP_VSCODE_PORT: String(a.port) };
    const hook = (event: string, extra: Record<string, unknown>) =>
      runHookCommand(config.hooks[event]![0]!.command, JSON.stringify({ ...common, hookEventName: event, ...extra }), env);
    const ok = { code: 0, out: '{}', err: '' };
    const term = (n: number, command: string) => ({ tool_name: 'run_in_terminal', tool_use_id: `call_${n}`, tool_input: { command, explanation: 'x', isBackground: false } });
    const answer = async (n: number, ans: Record<string, unknown>) => {
      const reqs = (await r.waitFor((es) => es.filter((e) => e.type === 'attention.requested').length === n)).filter((e) => e.type === 'attention.requested');
      r.send(command('control.attention.respond', S, { answer: ans }, { subject: reqs[n - 1]!.id }));
    };
    expect(await hook('SessionStart', { source: 'new', model: 'claude-sonnet-4-6', agent_type: 'Agent' })).toEqual(ok);
    expect(await hook('UserPromptSubmit', { prompt: 'release it' })).toEqual(ok);
    expect(await hook('PreToolUse', { tool_name: 'read_file', tool_use_id: 'call_0', tool_input: { filePath: '/w/app/package.json' } })).toEqual(ok);
    expect(await hook('PostToolUse', { tool_name: 'read_file', tool_use_id: 'call_0', tool_input: { filePath: '/w/app/package.json' }, tool_response: '{"name":"app"}' })).toEqual(ok);
    let held = hook('PreToolUse', term(1, 'git push origin main'));
    await answer(1, { text: 'not on main' });
    expect(await held).toEqual({ code: 0, out: DENY, err: '' });
    held = hook('PreToolUse', term(2, 'git push origin release'));
    await answer(2, { option: 'ask' });
    expect(await held).toEqual({ code: 0, out: ASK, err: '' });
    expect(await hook('PostToolUse', { ...term(2, 'git push origin release'), tool_response: 'pushed' })).toEqual(ok);
    held = hook('PreToolUse', term(3, 'git tag v2'));
    await answer(3, { option: 'allow' });
    expect(await held).toEqual(ok);
    expect(await hook('SubagentStart', { agent_id: 'sa', agent_type: 'Plan' })).toEqual(ok);
    expect(await hook('SubagentStop', { agent_id: 'sa', agent_type: 'Plan', stop_hook_active: false })).toEqual(ok);
    expect(await hook('PreCompact', { trigger: 'auto' })).toEqual(ok);
    expect(await hook('Stop', { stop_hook_active: false })).toEqual(ok);
    const events = await r.waitFor((es) => es.some((e) => e.type === 'run.finished'));
    expect(events.map((e) => e.type)).toEqual([
      'session.started', 'run.started', 'tool.requested', 'tool.completed',
      'tool.requested', 'attention.requested', 'control.accepted', 'attention.answered', 'attention.resolved', 'tool.denied',
      'tool.requested', 'attention.requested', 'control.accepted', 'attention.answered', 'attention.resolved', 'tool.completed',
      'tool.requested', 'attention.requested', 'control.accepted', 'attention.answered', 'attention.resolved',
      'delegation.subagent.started', 'delegation.subagent.stopped', 'session.compacted', 'run.finished',
    ]);
    expect(events.every((e) => e.session === S)).toBe(true);
    const denied = events.find((e) => e.type === 'tool.denied')!;
    expect(denied).toMatchObject({ cause: events[7]!.id, data: { tool: { name: 'run_in_terminal', call_id: 'call_1' }, by: 'policy' } });
    expect(events[7]!.data).toEqual({ answer: { option: 'deny', text: 'not on main' }, via: 'control' });
    const log = await sessionLog(home, 'vscode', S);
    expect(log.validate).toEqual({ code: 0, out: expect.stringMatching(/: \d+ events, valid\n$/) });
  });

  it('read-only by default: accepts [] and PreToolUse answers at once; steering rides UserPromptSubmit of the unknown lane', async () => {
    const { a, r } = await setup({}, true);
    expect(JSON.parse(r.frames[0]!).capabilities.control.accepts).toEqual(['x.vscode.control.instruct']);
    expect((await postHook(a.url, 'PreToolUse', { hookEventName: 'PreToolUse', tool_name: 'run_in_terminal', tool_input: { command: 'rm -rf /' } })).body).toBe('{}');
    r.send(command('x.vscode.control.instruct', 'unknown', { text: 'Stop and summarize.' }));
    await r.waitFor((es) => es.some((e) => e.type === 'control.accepted'));
    expect((await postHook(a.url, 'UserPromptSubmit', { hookEventName: 'UserPromptSubmit', prompt: 'go' })).body).toBe('{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"Stop and summarize."}}');
    const events = await r.waitFor((es) => es.some((e) => e.type === 'x.vscode.instruction.delivered'));
    expect(events.map((e) => [e.type, e.session])).toEqual([
      ['tool.requested', 'unknown'], ['control.accepted', 'unknown'], ['run.started', 'unknown'], ['x.vscode.instruction.delivered', 'unknown'],
    ]);
  });

  it('a gated call left unanswered fails open with {} and attention.timeout', async () => {
    const { a: running, r: relay } = await daemon.start(adapter.configure!({ AEP_VSCODE_CONTROL: '1' }) as AdapterDef, { attentionTimeoutMs: 60 });
    expect((await postHook(running.url, 'PreToolUse', { ...common, hookEventName: 'PreToolUse', tool_name: 'create_file', tool_input: {} })).body).toBe('{}');
    const events = await relay.waitFor((es) => es.some((e) => e.type === 'attention.timeout'));
    expect(events.map((e) => e.type)).toEqual(['tool.requested', 'attention.requested', 'attention.timeout']);
  });
});
