/**
 * The Hermes adapter end to end: a whole realistic session driven through the shim (every one of
 * the twelve registered hooks, with the extra fields the vendor's dispatcher sends), replies
 * asserted byte for byte, the session log validated; then the opt-in gate and steering.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { validateStream } from '../../core/stream.js';
import type { AdapterOptions } from '../../adapter-kit/daemon.js';
import { command, configuredForTest, daemonHarness, type Linked } from '../../adapter-kit/test-utils/daemon-harness.js';
import { sessionLog, shimHook } from '../../test-utils/hook-command.js';
import { adapter, hermesAdapter } from './adapter.js';
import type { AdapterDef } from '../../adapter-kit/types.js';

const S = 'hs_egret_1';
const T1 = `${S}:t1:9a9a9a9a`;
const T2 = `${S}:t2:8b8b8b8b`;

const daemon = daemonHarness();
afterEach(() => daemon.close());

function setup(def: AdapterDef, opts: Partial<AdapterOptions> = {}): Promise<Linked> {
  return daemon.start(def, { hostname: 'egret-host', attentionTimeoutMs: 4000, ...opts });
}

/** A dispatcher envelope with the fields Hermes really sends (profile, the sentinel, api ids). */
const env = (hook: string, extra: Record<string, unknown> = {}, top: Record<string, unknown> = {}) => ({
  hook_event_name: hook, tool_name: null, tool_input: null, session_id: S, cwd: '/home/rin/egret', profile: 'default',
  extra: { telemetry_schema_version: 'hermes.observer.v1', platform: 'cli', ...extra }, ...top,
});
const ofType = (es: Record<string, any>[], t: string) => es.filter((e) => e.type === t);

describe('hermes adapter daemon', () => {
  it('a whole session through the shim: every hook answered {}, identity as designed, the log valid', async () => {
    const { a, r, home } = await setup(adapter);
    const hello = JSON.parse(r.frames[0]!);
    expect(hello.capabilities.control).toEqual({ accepts: [], ack_window_ms: 10000 });
    const calls: Array<[string, unknown]> = [
      ['on_session_start', env('on_session_start', { model: 'hermes-4' })],
      ['pre_llm_call', env('pre_llm_call', { turn_id: T1, task_id: 't1', user_message: 'tidy the egret docs', is_first_turn: true, conversation_history: [], model: 'hermes-4' })],
      ['pre_tool_call', env('pre_tool_call', { tool_call_id: 'tc1', turn_id: T1, task_id: 't1', api_request_id: 'r1' }, { tool_name: 'terminal', tool_input: { command: 'sudo make docs' } })],
      ['pre_approval_request', env('pre_approval_request', { command: 'sudo make docs', pattern_key: 'terminal:sudo', session_key: S, surface: 'cli', turn_id: T1 }, { session_id: '' })],
      ['post_approval_response', env('post_approval_response', { command: 'sudo make docs', pattern_key: 'terminal:sudo', session_key: S, surface: 'cli', choice: 'once', turn_id: T1 }, { session_id: '' })],
      ['post_tool_call', env('post_tool_call', { tool_call_id: 'tc1', turn_id: T1, result: 'built', duration_ms: 900, status: 'ok' }, { tool_name: 'terminal' })],
      ['pre_tool_call', env('pre_tool_call', { tool_call_id: 'tc2', turn_id: T1 }, { tool_name: 'clarify', tool_input: { question: 'Publish where?', choices: ['site', { label: 'wiki' }] } })],
      ['post_tool_call', env('post_tool_call', { tool_call_id: 'tc2', turn_id: T1, duration_ms: 3000, status: 'ok', result: JSON.stringify({ question: 'Publish where?', choices_offered: ['site', 'wiki'], user_response: 'wiki' }) }, { tool_name: 'clarify' })],
      ['subagent_start', env('subagent_start', { parent_session_id: S, parent_turn_id: T1, child_session_id: `${S}_sub`, child_role: 'linter', child_goal: 'lint' })],
      ['subagent_stop', env('subagent_stop', { parent_session_id: S, parent_turn_id: T1, child_session_id: `${S}_sub`, child_role: 'linter', child_status: 'ok', child_summary: 'clean', duration_ms: 400 })],
      ['on_session_end', env('on_session_end', { turn_id: T1, task_id: 't1', completed: true, interrupted: false })],
      ['pre_llm_call', env('pre_llm_call', { turn_id: T2, task_id: 't2', user_message: 'again', is_first_turn: false })],
      ['api_request_error', env('api_request_error', { turn_id: T2, status_code: 429, retry_count: 2, reason: 'rate_limited', error: { type: 'RateLimit', message: 'slow' } })],
      ['pre_tool_call', env('pre_tool_call', { tool_call_id: 'tc3', turn_id: T2 }, { tool_name: 'clarify', tool_input: { question: 'Still there?' } })],
      ['pre_approval_request', env('pre_approval_request', { command: 'rm -rf out', pattern_key: 'terminal:rm', session_key: 'gw:telegram:dm:42', surface: 'gateway' }, { session_id: '' })],
      ['on_session_end', env('on_session_end', { turn_id: T2, task_id: 't2', completed: false, interrupted: true })],
      ['on_session_finalize', env('on_session_finalize', { reason: 'shutdown' })],
      ['on_session_reset', env('on_session_reset', { reason: 'new_session' }, { session_id: `${S}_next` })],
    ];
    for (const [hook, input] of calls) expect(await shimHook('hermes', hook, input, a.port)).toEqual({ code: 0, out: '{}' });
    const events = await r.waitFor((es) => es.some((e) => e.type === 'x.hermes.session.reset'));
    const mine = events.filter((e) => e.session === S);
    expect(mine.map((e) => [e.type, e.run ?? null])).toEqual([
      ['session.started', null],
      ['run.started', T1],
      ['tool.requested', T1],
      ['attention.requested', T1],
      ['attention.answered', T1],
      ['attention.resolved', T1],
      ['tool.completed', T1],
      ['tool.requested', T1],
      ['attention.requested', T1],
      ['tool.completed', T1],
      ['attention.answered', T1],
      ['attention.resolved', T1],
      ['delegation.subagent.started', T1],
      ['delegation.subagent.stopped', T1],
      ['run.finished', T1],
      ['run.started', T2],
      ['x.hermes.api.error', T2],
      ['tool.requested', T2],
      ['attention.requested', T2],
      ['run.cancelled', T2],
      ['attention.resolved', T2],
      ['session.ended', null],
    ]);
    const [approval] = ofType(mine, 'attention.requested');
    expect(approval).toMatchObject({ subject: 'terminal:sudo', data: { respond_via: ['oob'] } });
    expect(ofType(mine, 'attention.answered')[0]).toMatchObject({ subject: approval!.id, cause: approval!.id, data: { answer: { option: 'once' }, via: 'oob' } });
    expect(ofType(mine, 'attention.answered')[1]!.data).toEqual({ answer: { values: { '1': '2' } }, via: 'oob' });
    expect(ofType(mine, 'x.hermes.api.error')[0]).toMatchObject({ severity: 'error' });
    // The gateway-keyed approval never minted a lane: it rides `unknown`.
    expect(events.filter((e) => e.session === 'unknown').map((e) => e.type)).toEqual(['attention.requested']);
    expect(validateStream((await sessionLog(home, 'hermes', S)).events)).toEqual([]);
    expect(validateStream(events)).toEqual([]);
  });

  it('gate on: hello declares respond; allow is {}, deny is the block shape; ungated tools pass at once', async () => {
    const { a, r } = await setup(hermesAdapter({ control: true, gateTools: /^terminal$/ }));
    expect(JSON.parse(r.frames[0]!).capabilities.control.accepts).toEqual(['control.attention.respond']);
    const pre = (call: string, tool: string) => env('pre_tool_call', { tool_call_id: call, turn_id: T1 }, { tool_name: tool, tool_input: { command: 'make ship' } });
    expect(await shimHook('hermes', 'pre_tool_call', pre('t0', 'read_file'), a.port)).toEqual({ code: 0, out: '{}' });
    for (const [answer, bytes] of [
      [{ option: 'allow' }, '{}'],
      [{ option: 'deny' }, '{"action":"block","message":"Blocked by an operator via the AEP attention loop"}'],
      [{ text: 'not on a Friday' }, '{"action":"block","message":"not on a Friday"}'],
    ] as const) {
      const before = ofType(r.events(), 'attention.requested').length;
      const reply = shimHook('hermes', 'pre_tool_call', pre(`t${before + 1}`, 'terminal'), a.port);
      const [req] = ofType(await r.waitFor((es) => ofType(es, 'attention.requested').length === before + 1), 'attention.requested').slice(-1);
      expect(req).toMatchObject({ run: T1, subject: 'terminal', data: { kind: 'permission', respond_via: ['control'], prompt: 'Permission requested: terminal — make ship' } });
      const expiresIn = Date.parse(req!.data.expires_at) - Date.parse(req!.time);
      expect(expiresIn).toBeGreaterThanOrEqual(3950);
      expect(expiresIn).toBeLessThanOrEqual(4050);
      r.send(command('control.attention.respond', S, { answer }, { subject: req!.id }));
      expect(await reply).toEqual({ code: 0, out: bytes });
    }
    expect(validateStream(r.events())).toEqual([]);
  });

  it('gate timeout fails open with {} and records attention.timeout', async () => {
    const { a, r } = await setup(hermesAdapter({ control: true }), { attentionTimeoutMs: 80 });
    const reply = await shimHook('hermes', 'pre_tool_call', env('pre_tool_call', { tool_call_id: 'tx', turn_id: T1 }, { tool_name: 'write_file', tool_input: {} }), a.port);
    expect(reply).toEqual({ code: 0, out: '{}' });
    const [timeout] = ofType(await r.waitFor((es) => ofType(es, 'attention.timeout').length === 1), 'attention.timeout');
    expect(timeout).toMatchObject({ data: { after_ms: 80 } });
  });

  it('steering: {"context"} on pre_llm_call only, capped at 4000 characters', async () => {
    const { a, r } = await setup(adapter, { instruct: true });
    expect(JSON.parse(r.frames[0]!).capabilities.control.accepts).toEqual(['x.hermes.control.instruct']);
    const long = command('x.hermes.control.instruct', S, { text: 'x'.repeat(4001) });
    r.send(long);
    const [nack] = ofType(await r.waitFor((es) => ofType(es, 'control.rejected').length === 1), 'control.rejected');
    expect(nack).toMatchObject({ cause: long.id, data: { reason: 'invalid' } });
    r.send(command('x.hermes.control.instruct', S, { text: 'Prefer small commits.' }));
    await r.waitFor((es) => ofType(es, 'control.accepted').length === 1);
    expect((await shimHook('hermes', 'on_session_start', env('on_session_start'), a.port)).out).toBe('{}');
    expect((await shimHook('hermes', 'pre_llm_call', env('pre_llm_call', { turn_id: T1 }), a.port)).out).toBe('{"context":"Prefer small commits."}');
  });

  it('logs the schema drift sentinel once and keeps mapping', async () => {
    const lines: string[] = [];
    const { a, r } = await setup(adapter, { log: (l) => lines.push(l) });
    const drifted = { ...env('on_session_start'), extra: { telemetry_schema_version: 'hermes.observer.v2' } };
    expect((await shimHook('hermes', 'on_session_start', drifted, a.port)).out).toBe('{}');
    expect((await shimHook('hermes', 'on_session_finalize', { ...drifted, hook_event_name: 'on_session_finalize' }, a.port)).out).toBe('{}');
    await r.waitFor((es) => es.length === 2);
    expect(lines.filter((l) => l.includes('hermes.observer.v2'))).toHaveLength(1);
  });

  it('configure: the gate variables, and a clear error for a bad regex', () => {
    expect(configuredForTest(adapter, {}).accepts).toEqual([]);
    expect(configuredForTest(adapter, { AEP_HERMES_CONTROL: '1', AEP_HERMES_GATE_TOOLS: '^(terminal|write_file)$' }).accepts).toEqual(['control.attention.respond']);
    expect(adapter.configure!({ AEP_HERMES_CONTROL: '1', AEP_HERMES_GATE_TOOLS: '(' })).toMatch(/^AEP_HERMES_GATE_TOOLS must be a regular expression over tool names: /);
    // a configured instance configures afresh: the gate goes off again without the variable
    expect(configuredForTest(configuredForTest(adapter, { AEP_HERMES_CONTROL: '1' }), {}).accepts).toEqual([]);
  });
});
