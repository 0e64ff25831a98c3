/**
 * The Cline hub tap and hub control against a stub hub (a `ws` server speaking the hub's
 * transport frames): subprotocol auth, registration with no capabilities, the approval loop as
 * attention events (answered over control, out of band, cancelled, lost race, disconnect),
 * `run.abort` with the cause-linked hook outcome, `session.send_input`, and the busy nack.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { validateStream } from '../../core/stream.js';
import { startAdapter, type RunningAdapter } from '../../adapter-kit/daemon.js';
import { command, configuredForTest, postHook, startStubRelay, tempHome, type StubRelay } from '../../adapter-kit/test-utils/daemon-harness.js';
import { adapter, clineAdapter } from './adapter.js';
import { startStubHub, type StubHub } from './test-utils/hub.js';

const TOKEN = 'hubtok-5';
const S = 'task_kite_3';
let hub: StubHub | null = null;
let relay: StubRelay | null = null;
let running: RunningAdapter | null = null;
afterEach(async () => {
  await running?.close();
  await relay?.close();
  await hub?.close();
  running = relay = hub = null;
});

async function setup(control: boolean, guardMs = 2000): Promise<{ a: RunningAdapter; r: StubRelay; h: StubHub }> {
  hub = await startStubHub(TOKEN);
  relay = await startStubRelay();
  const def = clineAdapter({ hub: { url: hub.url, token: TOKEN, ackGuardMs: guardMs, reconnectMs: 100 }, control });
  running = await startAdapter(def, { port: 0, relay: relay.url, home: tempHome(), hostname: 'kite' });
  const deadline = Date.now() + 3000;
  while ((!running.relayReady() || !hub.frames.some((f) => f.kind === 'stream.subscribe')) && Date.now() < deadline) await new Promise((res) => setTimeout(res, 10));
  return { a: running, r: relay, h: hub };
}

const hookIn = (hookName: string, extra: Record<string, unknown> = {}) => ({ clineVersion: '3.0.65', hookName, timestamp: '1764583200000', taskId: S, workspaceRoots: ['/w'], userId: 'u', agent_id: 'ag_root', parent_agent_id: null, ...extra });
const ofType = (es: Record<string, any>[], t: string) => es.filter((e) => e.type === t);
const approvalRequested = (h: StubHub, approvalId: string) => h.event('approval.requested', S, { approvalId, sessionId: S, status: 'pending', payload: { toolName: 'execute_command', toolCallId: 'call_9', input: { command: 'rm -rf dist' } } });

describe('cline hub tap', () => {
  it('authenticates by subprotocol, registers with no capabilities, subscribes; hello adds attention, accepts nothing', async () => {
    const { r, h } = await setup(false);
    expect(h.protocols).toContain(`cline-hub-auth.${TOKEN}`);
    expect(h.frames[0]).toMatchObject({ kind: 'command', envelope: { version: 'v1', command: 'client.register', payload: { clientType: 'aep-adapter-cline', capabilities: [] } } });
    expect(h.frames[1]).toEqual({ kind: 'stream.subscribe', clientId: 'cl_tap_1' });
    const hello = JSON.parse(r.frames[0]!);
    expect(hello.capabilities.emits).toContain('attention');
    expect(hello.capabilities.control.accepts).toEqual([]);
  });

  it('tap only: the approval loop mirrored; answered out of band, cancelled → dismissed', async () => {
    const { a, r, h } = await setup(false);
    await postHook(a.url, 'agent_start', hookIn('agent_start'));
    approvalRequested(h, 'ap_1');
    const [req] = ofType(await r.waitFor((es) => ofType(es, 'attention.requested').length === 1), 'attention.requested');
    expect(req).toMatchObject({ session: S, subject: 'execute_command', data: { kind: 'permission', prompt: 'cline requests approval: execute_command', options: [{ id: 'approve', label: 'Approve' }, { id: 'deny', label: 'Deny' }], respond_via: ['oob'] } });
    h.event('approval.resolved', S, { approvalId: 'ap_1', status: 'approved', response: { approved: true } });
    const events = await r.waitFor((es) => ofType(es, 'attention.resolved').length === 1);
    expect(ofType(events, 'attention.answered')[0]).toMatchObject({ subject: req!.id, data: { answer: { option: 'approve' }, via: 'oob' } });
    approvalRequested(h, 'ap_2');
    await r.waitFor((es) => ofType(es, 'attention.requested').length === 2);
    h.event('approval.resolved', S, { approvalId: 'ap_2', status: 'cancelled' });
    const after = await r.waitFor((es) => ofType(es, 'attention.resolved').length === 2);
    expect(ofType(after, 'attention.resolved')[1]!.data.resolution).toBe('dismissed');
    expect(validateStream(after)).toEqual([]);
  });

  it('a session end with an approval pending dismisses it before session.ended', async () => {
    const { a, r, h } = await setup(false);
    await postHook(a.url, 'agent_start', hookIn('agent_start'));
    approvalRequested(h, 'ap_9');
    const [req] = ofType(await r.waitFor((es) => ofType(es, 'attention.requested').length === 1), 'attention.requested');
    await postHook(a.url, 'session_shutdown', hookIn('session_shutdown'));
    const events = await r.waitFor((es) => ofType(es, 'session.ended').length === 1);
    expect(events.slice(-2).map((e) => [e.type, e.subject ?? null, e.data.resolution ?? null])).toEqual([['attention.resolved', req!.id, 'dismissed'], ['session.ended', null, null]]);
    expect(validateStream(events)).toEqual([]);
  });

  it('control: respond → approval.respond; ok → accepted, answered via control, resolved', async () => {
    const { a, r, h } = await setup(true);
    expect(JSON.parse(r.frames[0]!).capabilities.control.accepts).toEqual(['control.attention.respond', 'control.cancel', 'x.cline.control.send_input']);
    await postHook(a.url, 'agent_start', hookIn('agent_start'));
    approvalRequested(h, 'ap_3');
    const [req] = ofType(await r.waitFor((es) => ofType(es, 'attention.requested').length === 1), 'attention.requested');
    expect(req!.data.respond_via).toEqual(['control', 'oob']);
    const cmd = command('control.attention.respond', S, { answer: { option: 'deny', text: 'not the dist folder' } }, { subject: req!.id });
    r.send(cmd);
    const events = await r.waitFor((es) => ofType(es, 'attention.resolved').length === 1);
    expect(h.frames.find((f) => f.envelope?.command === 'approval.respond')!.envelope.payload).toEqual({ approvalId: 'ap_3', approved: false, reason: 'not the dist folder', payload: { reason: 'not the dist folder' } });
    expect(events.slice(-3).map((e) => [e.type, e.cause])).toEqual([
      ['control.accepted', cmd.id],
      ['attention.answered', cmd.id],
      ['attention.resolved', events.at(-2)!.id],
    ]);
    expect(events.at(-2)!.data).toEqual({ answer: { option: 'deny', text: 'not the dist folder' }, via: 'control' });
    // The hub's broadcast of our own answer is not mirrored a second time.
    h.event('approval.resolved', S, { approvalId: 'ap_3', status: 'rejected' });
    await new Promise((res) => setTimeout(res, 50));
    expect(ofType(r.events(), 'attention.answered')).toHaveLength(1);
    r.send(cmd);
    await r.waitFor((es) => ofType(es, 'control.accepted').length === 2);
    expect(r.frames.filter((f) => f.includes('"control.accepted"'))[0]).toBe(r.frames.filter((f) => f.includes('"control.accepted"'))[1]);
    expect(validateStream(r.events())).toEqual([]);
  });

  it('control: a lost race is refused; a text-only answer is invalid; hub down is busy', async () => {
    const { a, r, h } = await setup(true);
    await postHook(a.url, 'agent_start', hookIn('agent_start'));
    approvalRequested(h, 'ap_4');
    const [req] = ofType(await r.waitFor((es) => ofType(es, 'attention.requested').length === 1), 'attention.requested');
    r.send(command('control.attention.respond', S, { answer: { text: 'approve' } }, { subject: req!.id }));
    await r.waitFor((es) => ofType(es, 'control.rejected').length === 1);
    h.answer['approval.respond'] = { ok: false, error: { code: 'approval_not_found', message: 'already resolved' } };
    r.send(command('control.attention.respond', S, { answer: { option: 'approve' } }, { subject: req!.id }));
    const rejected = ofType(await r.waitFor((es) => ofType(es, 'control.rejected').length === 2), 'control.rejected');
    expect(rejected.map((e) => e.data.reason)).toEqual(['invalid', 'refused']);
    h.drop();
    const dismissed = ofType(await r.waitFor((es) => ofType(es, 'attention.resolved').length === 1), 'attention.resolved');
    expect(dismissed[0]).toMatchObject({ subject: req!.id, data: { resolution: 'dismissed' } });
    await hub!.close();
    r.send(command('x.cline.control.send_input', S, { text: 'continue' }));
    const busy = ofType(await r.waitFor((es) => ofType(es, 'control.rejected').length === 3), 'control.rejected');
    expect(busy[2]!.data.reason).toBe('busy');
  });

  it('control.cancel (run scope) → run.abort; the hook-reported abort is cause-linked to the command', async () => {
    const { a, r, h } = await setup(true);
    await postHook(a.url, 'agent_start', hookIn('agent_start'));
    const [started] = ofType(await r.waitFor((es) => ofType(es, 'run.started').length === 1), 'run.started');
    const wrong = command('control.cancel', S, {}, { run: 'not-the-run' });
    r.send(wrong);
    await r.waitFor((es) => ofType(es, 'control.rejected').length === 1);
    const cancel = command('control.cancel', S, {}, { run: started!.run });
    r.send(cancel);
    await r.waitFor((es) => ofType(es, 'control.accepted').length === 1);
    expect(h.frames.find((f) => f.envelope?.command === 'run.abort')!.envelope).toMatchObject({ sessionId: S, payload: { sessionId: S } });
    await postHook(a.url, 'agent_abort', hookIn('agent_abort', { reason: 'aborted via hub' }));
    const [cancelled] = ofType(await r.waitFor((es) => ofType(es, 'run.cancelled').length === 1), 'run.cancelled');
    expect(cancelled).toMatchObject({ run: started!.run, cause: cancel.id, data: { by: 'user' } });
    expect(ofType(r.events(), 'control.rejected')[0]).toMatchObject({ cause: wrong.id, data: { reason: 'refused' } });
  });

  it('send_input → session.send_input, reported as x.cline.input.sent; the guard expiry still accepts', async () => {
    const { a, r, h } = await setup(true, 150);
    await postHook(a.url, 'agent_start', hookIn('agent_start'));
    const cmd = command('x.cline.control.send_input', S, { text: 'also update the docs', delivery: 'steer' });
    r.send(cmd);
    const [sent] = ofType(await r.waitFor((es) => ofType(es, 'x.cline.input.sent').length === 1), 'x.cline.input.sent');
    expect(sent).toMatchObject({ cause: cmd.id, data: { delivery: 'steer' } });
    expect(h.frames.find((f) => f.envelope?.command === 'session.send_input')!.envelope.payload).toEqual({ sessionId: S, input: 'also update the docs', delivery: 'steer' });
    h.answer['session.send_input'] = 'silent';
    const slow = command('x.cline.control.send_input', S, { text: 'and the changelog' });
    r.send(slow);
    await r.waitFor((es) => ofType(es, 'control.accepted').filter((e) => e.cause === slow.id).length === 1);
    r.send(command('x.cline.control.send_input', S, { text: 'x', delivery: 'immediate' }));
    await r.waitFor((es) => ofType(es, 'control.rejected').length === 1);
  });

  it('configure: the gates and the endpoint variables', () => {
    expect(configuredForTest(adapter, {}).accepts).toEqual([]);
    expect(adapter.configure!({ AEP_CLINE_HUB: '1' })).toMatch(/AEP_CLINE_HUB_TOKEN/);
    const tap = configuredForTest(adapter, { AEP_CLINE_HUB: '1', AEP_CLINE_HUB_TOKEN: 't' });
    expect([tap.accepts, tap.emits.includes('attention')]).toEqual([[], true]);
    expect(configuredForTest(adapter, { AEP_CLINE_HUB_CONTROL: '1', AEP_CLINE_HUB_TOKEN: 't' }).accepts).toHaveLength(3);
    expect(adapter.configure!({ AEP_CLINE_HUB: '1', AEP_CLINE_HUB_TOKEN: 't', AEP_CLINE_HUB_URL: 'http://x' })).toBe("AEP_CLINE_HUB_URL must be a ws:// or wss:// URL, got 'http://x'");
    expect(configuredForTest(tap, {}).emits.includes('attention')).toBe(false);
  });
});
