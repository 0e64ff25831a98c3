import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useRelay } from '../../relay/test-utils/use-relay.js';
import { helloWs, openSse } from '../../relay/test-utils/testing.js';
import { validateEvent } from '../../core/envelope.js';
import { validateStream } from '../../core/stream.js';
import { command } from '../../adapter-kit/test-utils/daemon-harness.js';
import { createEmitter, type Emitter } from '../../bridge-kit/emitter.js';
import { sseEvents, useTempHome } from '../../bridge-kit/test-utils/bridge-tests.js';
import { startKimiWeb, type RunningKimiWeb } from './attach.js';
import { CONTROL_ACCEPTS, KimiControlGate, judgeEnvelope } from './control.js';
import { startStubKap, type StubKap } from './stub-server.js';

const KAP_TOKEN = 'kap-ctl-token';
const TOKEN = 'relay-token';

/** The kap-server: its WS stream and listing are the ws stub; its two REST writes are msw handlers. */
const writes: { path: string; auth: string | null; body: string }[] = [];
let kap: StubKap | undefined;
let seq = 0;
const env = (type: string, payload: Record<string, unknown>) => ({ type, seq: ++seq, session_id: 'sess_k', epoch: 'e1', timestamp: '2026-12-01T10:00:00.000Z', payload: { type, sessionId: 'sess_k', ...payload } });
let answer: { status: number; body: unknown } = { status: 200, body: { code: 0, msg: 'ok', data: null } };
const msw = setupServer(
  http.post(/\/api\/v1\/sessions\/[^/]+\/approvals\/[^/]+$/, async ({ request }) => {
    const params = { aid: decodeURIComponent(new URL(request.url).pathname.split('/').at(-1)!) };
    const body = await request.text();
    writes.push({ path: new URL(request.url).pathname, auth: request.headers.get('authorization'), body });
    if (answer.status === 200 && (answer.body as { code: number }).code === 0) {
      const decision = (JSON.parse(body) as { decision: string; feedback?: string });
      setTimeout(() => kap!.push(env('event.approval.resolved', { approval_id: params.aid, decision: decision.decision, ...(decision.feedback ? { feedback: decision.feedback } : {}) })), 20);
    }
    return HttpResponse.json(answer.body as never, { status: answer.status });
  }),
  http.post(/\/api\/v1\/sessions\/[^/]+\/abort$/, ({ request }) => {
    writes.push({ path: new URL(request.url).pathname, auth: request.headers.get('authorization'), body: '' });
    setTimeout(() => kap!.push(env('turn.ended', { turnId: 0, reason: 'cancelled' })), 20);
    return HttpResponse.json({ code: 0, msg: 'ok', data: null });
  }),
);
beforeAll(() => msw.listen({ onUnhandledRequest: 'bypass' }));
afterAll(() => msw.close());

const harness = useRelay();
const home = useTempHome();
const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await r.close();
  for (const c of harness.clients.splice(0)) c.ws.terminate();
  writes.splice(0);
  answer = { status: 200, body: { code: 0, msg: 'ok', data: null } };
  kap = undefined;
});

async function start() {
  const relay = await harness.start({ token: TOKEN });
  kap = await startStubKap(KAP_TOKEN, ['sess_k']);
  running.push(kap);
  let gate: KimiControlGate | undefined;
  let bridge: RunningKimiWeb | undefined;
  const emitter: Emitter = createEmitter({ agent: 'kimi-code', stateKey: 'bridge-kimi-code-web', home: home(), relay, token: TOKEN, emits: ['run', 'attention'], accepts: CONTROL_ACCEPTS, onCommand: (raw, v) => gate?.onCommand(raw, v), log: () => undefined });
  running.push(emitter);
  gate = new KimiControlGate({ server: kap.url, token: KAP_TOKEN, emitter, runOf: (s) => bridge?.runOf(s), guardMs: 2000, log: () => undefined });
  bridge = await startKimiWeb({ server: kap.url, token: KAP_TOKEN, mode: 'primary', emitter, control: gate, port: 0, log: () => undefined });
  running.push(bridge);
  const sse = await openSse(`${relay}/stream?from=all`, { authorization: `Bearer ${TOKEN}` });
  const consumer = await helloWs(relay, {}, { authorization: `Bearer ${TOKEN}` });
  harness.clients.push(consumer);
  await sse.waitFor((t) => t.includes('x.kimi-code.web.event.session.work_changed'));
  kap.push(env('turn.started', { turnId: 0, origin: { kind: 'user' } }));
  kap.push(env('event.approval.requested', { approval_id: 'ap_1', tool_name: 'Shell', action: 'rm -rf build' }));
  await sse.waitFor((t) => t.includes('attention.requested'));
  return { sse, consumer, bridge };
}

describe('Kimi web control gate (primary, AEP_KIMI_WEB_CONTROL=1) against a stubbed kap-server', () => {
  it('decorates the approval, posts the decision with the bearer token, and the broadcast closes the ask cause-linked to the command', async () => {
    const { sse, consumer } = await start();
    const ask = sseEvents(sse).find((e) => e.type === 'attention.requested')!;
    expect(ask.data).toEqual({ kind: 'permission', prompt: 'rm -rf build', options: [{ id: 'approved', label: 'Approve' }, { id: 'rejected', label: 'Reject' }], respond_via: ['control'] });
    const cmd = command('control.attention.respond', 'sess_k', { answer: { option: 'rejected', text: 'not the build dir' } }, { subject: ask.id, id: 'cmd-deny-1' });
    consumer.send(cmd);
    await sse.waitFor((t) => t.includes('control.accepted') && t.includes('attention.resolved'));
    expect(writes).toEqual([{ path: '/api/v1/sessions/sess_k/approvals/ap_1', auth: `Bearer ${KAP_TOKEN}`, body: '{"decision":"rejected","feedback":"not the build dir"}' }]);
    consumer.send(cmd); // redelivery: the recorded ack, no second write
    await new Promise((r) => setTimeout(r, 100));
    expect(writes.length).toBe(1);
    const events = sseEvents(sse).filter((e) => e.session === 'sess_k' && e.agent === 'kimi-code');
    expect(events.map((e) => e.type)).toEqual(['x.kimi-code.web.event.session.work_changed', 'run.started', 'attention.requested', 'control.accepted', 'attention.answered', 'attention.resolved', 'control.accepted']);
    const [acc, answered, resolved, again] = events.slice(3);
    expect(again).toEqual(acc); // byte-identical re-emission
    expect([acc!.cause, answered!.subject, answered!.cause, resolved!.subject, resolved!.cause]).toEqual(['cmd-deny-1', ask.id, 'cmd-deny-1', ask.id, 'cmd-deny-1']);
    // Default posture: attention redacted, so the feedback text rides (redacted), via control.
    expect(answered!.data).toMatchObject({ answer: { option: 'rejected' }, via: 'control' });
    expect(resolved!.data).toEqual({ resolution: 'answered' });
    for (const e of events) expect(validateEvent(e), String(e.type)).toEqual([]);
    expect(validateStream(events)).toEqual([]);
    // The ask is settled: a second answer names no pending request.
    consumer.send(command('control.attention.respond', 'sess_k', { answer: { option: 'approved' } }, { subject: ask.id, id: 'cmd-late' }));
    await sse.waitFor((t) => t.includes('control.rejected'));
    expect(sseEvents(sse).find((e) => e.type === 'control.rejected')!.data).toMatchObject({ reason: 'invalid' });
    sse.close();
  });

  it('refuses a text-only answer, an error envelope and scope session; a run-scope abort closes the run as cancelled by control', async () => {
    const { sse, consumer } = await start();
    const ask = sseEvents(sse).find((e) => e.type === 'attention.requested')!;
    consumer.send(command('control.attention.respond', 'sess_k', { answer: { text: 'sure' } }, { subject: ask.id, id: 'cmd-text' }));
    await sse.waitFor((t) => (t.match(/"control\.rejected"/g) ?? []).length === 1);
    answer = { status: 200, body: { code: 40400, msg: 'approval not found', data: null } };
    consumer.send(command('control.attention.respond', 'sess_k', { answer: { option: 'approved' } }, { subject: ask.id, id: 'cmd-env' }));
    await sse.waitFor((t) => (t.match(/"control\.rejected"/g) ?? []).length === 2);
    consumer.send(command('control.cancel', 'sess_k', { scope: 'session' }, { id: 'cmd-sess' }));
    await sse.waitFor((t) => (t.match(/"control\.rejected"/g) ?? []).length === 3);
    const run = sseEvents(sse).find((e) => e.type === 'run.started')!.run as string;
    consumer.send(command('control.cancel', 'sess_k', { scope: 'run' }, { id: 'cmd-abort', run }));
    await sse.waitFor((t) => t.includes('run.cancelled'));
    expect(writes.map((w) => [w.path, w.body])).toEqual([['/api/v1/sessions/sess_k/approvals/ap_1', '{"decision":"approved"}'], ['/api/v1/sessions/sess_k/abort', '']]);
    const events = sseEvents(sse).filter((e) => e.session === 'sess_k' && e.agent === 'kimi-code');
    expect(events.filter((e) => e.type === 'control.rejected').map((e) => [e.cause, (e.data as { reason: string }).reason])).toEqual([['cmd-text', 'invalid'], ['cmd-env', 'refused'], ['cmd-sess', 'refused']]);
    const cancelled = events.find((e) => e.type === 'run.cancelled')!;
    expect([cancelled.run, cancelled.cause, cancelled.data]).toEqual([run, 'cmd-abort', { by: 'control' }]);
    for (const e of events) expect(validateEvent(e), String(e.type)).toEqual([]);
    // No run is open now: another abort is refused without a write.
    consumer.send(command('control.cancel', 'sess_k', { scope: 'run' }, { id: 'cmd-abort-2' }));
    await sse.waitFor((t) => (t.match(/"control\.rejected"/g) ?? []).length === 4);
    expect(writes.length).toBe(2);
    sse.close();
  });

  it('an unreachable kap-server nacks busy; healthz reports the gate', async () => {
    const { sse, consumer, bridge } = await start();
    expect(await (await fetch(`${bridge.url}/healthz`)).json()).toEqual({ ok: true, relay: true, source: true, control: true });
    const ask = sseEvents(sse).find((e) => e.type === 'attention.requested')!;
    answer = { status: 503, body: { code: 50300, msg: 'down', data: null } };
    consumer.send(command('control.attention.respond', 'sess_k', { answer: { option: 'approved' } }, { subject: ask.id, id: 'cmd-busy' }));
    await sse.waitFor((t) => t.includes('control.rejected'));
    expect(sseEvents(sse).find((e) => e.type === 'control.rejected')!.data).toMatchObject({ reason: 'busy' });
    sse.close();
  });
});

describe('judgeEnvelope', () => {
  it('accepts code 0, an empty body and non-envelope JSON; refuses a non-zero code with its message', () => {
    expect(judgeEnvelope('{"code":0,"msg":"ok","data":null}')).toBeUndefined();
    expect(judgeEnvelope('')).toBeUndefined();
    expect(judgeEnvelope('true')).toBeUndefined();
    expect(judgeEnvelope('{"code":40900,"msg":"already resolved"}')).toEqual({ reason: 'refused', detail: 'kap-server answered code 40900: already resolved' });
  });
});
