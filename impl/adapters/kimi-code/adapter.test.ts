/**
 * The Kimi Code CLI adapter end to end: a whole realistic session through the hook shim exactly as
 * config.example.toml registers it (the sixteen events, with the base fields Kimi Code 2.x sends),
 * the observed permission pair, the opt-in gate denying over a stub relay, steering, and a session
 * log that passes `aep validate`.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { command, daemonHarness, postHook, type Linked } from '../../adapter-kit/test-utils/daemon-harness.js';
import type { AdapterDef } from '../../adapter-kit/types.js';
import { runHookCommand, sessionLog } from '../../test-utils/hook-command.js';
import { adapter, HOOKS } from './adapter.js';

const toml = readFileSync(new URL('./config.example.toml', import.meta.url), 'utf8');
/** event → the command its `[[hooks]]` table registers. */
const COMMANDS = new Map([...toml.matchAll(/event = "([^"]+)"\ncommand = "([^"]+)"/g)].map((m) => [m[1]!, m[2]!]));
const S = 'ks-bo-33';
const base = { session_id: S, session_title: 'rollout', client_type: 'kimi_code_cli', cwd: '/home/bo/infra' };
const DENY = '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"wait for the freeze to end"}}';

const daemon = daemonHarness();
afterEach(() => daemon.close());

function setup(env: Record<string, string>, instruct = false): Promise<Linked> {
  return daemon.start(adapter.configure!(env) as AdapterDef, { hostname: 'bo', instruct });
}

describe('kimi-code adapter daemon', () => {
  it('config.example.toml registers every one of the sixteen hooks with `aep hook kimi-code <Event>`', () => {
    expect([...COMMANDS.keys()]).toEqual([...HOOKS]);
    for (const [event, cmd] of COMMANDS) expect(cmd).toBe(`aep hook kimi-code ${event}`);
    expect((adapter.configure!({ AEP_KIMI_CONTROL: '1' }) as AdapterDef).holdMs).toBe(50000);
    expect(adapter.configure!({ AEP_KIMI_GATE_TOOLS: '[' })).toMatch(/AEP_KIMI_GATE_TOOLS/);
  });

  it('a whole session through the configured shim: the observed pair, the gate, steering, a valid log', async () => {
    const { a, r, home } = await setup({ AEP_KIMI_CONTROL: '1', AEP_KIMI_GATE_TOOLS: 'Bash' }, true);
    expect(JSON.parse(r.frames[0]!).capabilities.control.accepts).toEqual(['control.attention.respond', 'x.kimi-code.control.instruct']);
    const env = { AEP_KIMI_CODE_PORT: String(a.port) };
    const hook = (event: string, extra: Record<string, unknown>, b: Record<string, unknown> = base) =>
      runHookCommand(COMMANDS.get(event)!, JSON.stringify({ ...b, hook_event_name: event, ...extra }), env);
    const ok = { code: 0, out: '{}', err: '' };
    expect(await hook('SessionStart', { source: 'startup', model: 'kimi-k3', profile: 'default' })).toEqual(ok);
    r.send(command('x.kimi-code.control.instruct', S, { text: 'Prefer the canary script.' }));
    await r.waitFor((es) => es.some((e) => e.type === 'control.accepted'));
    expect(await hook('UserPromptSubmit', { prompt: [{ type: 'text', text: 'roll out v7' }] })).toEqual({ code: 0, out: '{"message":"Prefer the canary script."}', err: '' });
    expect(await hook('UserPromptSubmit', { prompt: [{ type: 'text', text: 'canary first' }], is_steer: true })).toEqual(ok);
    const edit = { tool_name: 'Edit', tool_call_id: 'tc_1', tool_input: { path: 'deploy.yaml' } };
    expect(await hook('PreToolUse', edit)).toEqual(ok);
    expect(await hook('PermissionRequest', { ...edit, action: 'edit', display: 'Edit deploy.yaml?', turn_id: 'turn_1', agent_id: 'main' })).toEqual(ok);
    expect(await hook('PermissionResult', { ...edit, turn_id: 'turn_1', agent_id: 'main', decision: 'approved', selected_label: 'Approve once' })).toEqual(ok);
    expect(await hook('PostToolUse', { ...edit, tool_output: 'ok' })).toEqual(ok);
    const bash = { tool_name: 'Bash', tool_call_id: 'tc_2', tool_input: { command: 'kubectl apply -f deploy.yaml' } };
    const held = hook('PreToolUse', bash);
    const gate = (await r.waitFor((es) => es.some((e) => e.type === 'attention.requested' && e.data.respond_via[0] === 'control'))).find((e) => e.type === 'attention.requested' && e.data.respond_via[0] === 'control')!;
    expect(gate.data.options).toEqual([{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }]);
    r.send(command('control.attention.respond', S, { answer: { text: 'wait for the freeze to end' } }, { subject: gate.id }));
    expect(await held).toEqual({ code: 0, out: DENY, err: '' });
    const rm = { tool_name: 'Write', tool_call_id: 'tc_3', tool_input: { path: '/etc/hosts' } };
    expect(await hook('PreToolUse', rm)).toEqual(ok);
    expect(await hook('PermissionRequest', { ...rm, action: 'write', display: 'Write /etc/hosts?' })).toEqual(ok);
    expect(await hook('PermissionResult', { ...rm, decision: 'rejected', feedback: 'never system files' })).toEqual(ok);
    expect(await hook('PostToolUseFailure', { ...rm, error: { name: 'PermissionDenied', message: 'rejected' } })).toEqual(ok);
    expect(await hook('SubagentStart', { agent_name: 'explore', prompt: 'find configs' }, {})).toEqual(ok);
    expect(await hook('SubagentStop', { agent_name: 'explore', response: 'three' }, {})).toEqual(ok);
    expect(await hook('Notification', { sink: 'context', notification_type: 'task.completed', title: 'lint done', body: 'ok', severity: 'info', source_kind: 'task', source_id: 't1' })).toEqual(ok);
    expect(await hook('PreCompact', { trigger: 'auto', token_count: 200000 })).toEqual(ok);
    expect(await hook('PostCompact', { trigger: 'auto', estimated_token_count: 40000 })).toEqual(ok);
    expect(await hook('Stop', { stop_hook_active: false })).toEqual(ok);
    expect(await hook('UserPromptSubmit', { prompt: 'next' })).toEqual(ok);
    expect(await hook('Interrupt', { turn_id: 'turn_2', reason: 'cancelled' })).toEqual(ok);
    expect(await hook('UserPromptSubmit', { prompt: 'again' })).toEqual(ok);
    expect(await hook('StopFailure', { error_type: 'ProviderError', error_message: '500' })).toEqual(ok);
    // A 2.x event the example does not register (an older Kimi Code would refuse the config): POSTed directly.
    expect((await postHook(a.url, 'SessionHeartbeat', { ...base, hook_event_name: 'SessionHeartbeat', uptime_ms: 60000 })).body).toBe('{}');
    expect(await hook('SessionEnd', { reason: 'exit' })).toEqual(ok);
    const events = (await r.waitFor((es) => es.some((e) => e.type === 'session.ended'))).filter((e) => e.session === S);
    expect(events.map((e) => e.type)).toEqual([
      'session.started', 'control.accepted', 'run.started', 'x.kimi-code.instruction.delivered', 'x.kimi-code.run.steer_submitted',
      'tool.requested', 'attention.requested', 'attention.answered', 'attention.resolved', 'tool.completed',
      'tool.requested', 'attention.requested', 'control.accepted', 'attention.answered', 'attention.resolved', 'tool.denied',
      'tool.requested', 'attention.requested', 'attention.answered', 'attention.resolved', 'tool.denied',
      'progress.status', 'x.kimi-code.session.pre_compact', 'session.compacted', 'run.finished',
      'run.started', 'run.cancelled', 'run.started', 'run.failed', 'x.kimi-code.session.session_heartbeat', 'session.ended',
    ]);
    const denials = events.filter((e) => e.type === 'tool.denied');
    expect(denials.map((e) => [e.data.by, e.data.tool.call_id])).toEqual([['policy', 'tc_2'], ['runtime', 'tc_3']]);
    const card = events[6]!;
    expect(card).toMatchObject({ cause: events[5]!.id, subject: 'Edit', data: { kind: 'permission', prompt: 'Edit deploy.yaml?', respond_via: ['oob'] } });
    expect(events[7]).toMatchObject({ subject: card.id, data: { answer: { option: 'approved' }, via: 'oob', label: 'Approve once' } });
    const sub = r.events().filter((e) => e.type.startsWith('delegation.'));
    expect(sub.map((e) => [e.session, e.subject])).toEqual([['unknown', 'explore'], ['unknown', 'explore']]);
    const log = await sessionLog(home, 'kimi-code', S);
    expect(log.validate).toEqual({ code: 0, out: expect.stringMatching(/: \d+ events, valid\n$/) });
  });

  it('read-only by default: accepts [], the PreToolUse of any tool answers at once', async () => {
    const { a, r } = await setup({});
    expect(JSON.parse(r.frames[0]!).capabilities.control.accepts).toEqual([]);
    expect((await postHook(a.url, 'PreToolUse', { ...base, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } })).body).toBe('{}');
  });
});
