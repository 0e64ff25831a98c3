import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useRelay } from '../../relay/test-utils/use-relay.js';
import { helloWs, openSse } from '../../relay/test-utils/testing.js';
import { validateEvent } from '../../core/envelope.js';
import { validateStream } from '../../core/stream.js';
import { command } from '../../adapter-kit/test-utils/daemon-harness.js';
import { createEmitter } from '../../bridge-kit/emitter.js';
import { sseEvents, useTempHome } from '../../bridge-kit/test-utils/bridge-tests.js';
import { startOpenHandsBridge, type RunningOpenHands } from './receiver.js';
import { CONTROL_ACCEPTS, OpenHandsControlGate, refusal } from './control.js';
import { startStubAgentServer, type StubAgentServer } from './stub-server.js';

const KEY = 'oh-ctl-key';
const TOKEN = 'oh-relay-token';
const CONV = 'conv_ctl';

/** The agent server: socket and discovery are the ws stub (auth frame first); the five REST writes are msw handlers. */
const writes: { path: string; key: string | null; body: string }[] = [];
let status = 200;
const msw = setupServer(
  http.post(/\/api\/conversations\/[^/]+\/(pause|run|interrupt|events\/respond_to_confirmation|events)$/, async ({ request }) => {
    writes.push({ path: new URL(request.url).pathname, key: request.headers.get('x-session-api-key'), body: await request.text() });
    return status === 200 ? HttpResponse.json({ success: true }) : HttpResponse.json({ detail: 'conflict' }, { status });
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
  status = 200;
});

let n = 0;
const stateEvent = (value: string) => ({ kind: 'ConversationStateUpdateEvent', id: `st-${++n}`, timestamp: `2026-12-01T11:00:${String(n % 60).padStart(2, '0')}.000001`, source: 'environment', key: 'execution_status', value });

async function start(): Promise<{ stub: StubAgentServer; sse: Awaited<ReturnType<typeof openSse>>; consumer: Awaited<ReturnType<typeof helloWs>>; bridge: RunningOpenHands }> {
  const relay = await harness.start({ token: TOKEN });
  const stub = await startStubAgentServer([CONV], KEY);
  running.push(stub);
  let gate: OpenHandsControlGate | undefined;
  let bridge: RunningOpenHands | undefined;
  const emitter = createEmitter({ agent: 'openhands', stateKey: 'bridge-openhands', home: home(), relay, token: TOKEN, emits: ['run'], accepts: CONTROL_ACCEPTS, onCommand: (raw, v) => gate?.onCommand(raw, v), log: () => undefined });
  running.push(emitter);
  gate = new OpenHandsControlGate({ server: stub.url, apiKey: KEY, emitter, statusOf: (c) => bridge?.statusOf(c) ?? null, guardMs: 2000, log: () => undefined });
  bridge = await startOpenHandsBridge({ server: stub.url, apiKey: KEY, emitter, control: gate, pollMs: 60_000, port: 0, log: () => undefined });
  running.push(bridge);
  for (let i = 0; i < 300 && !(bridge.attached().includes(CONV) && emitter.relayReady()); i++) await new Promise((r) => setTimeout(r, 10));
  const sse = await openSse(`${relay}/stream?from=all`, { authorization: `Bearer ${TOKEN}` });
  const consumer = await helloWs(relay, {}, { authorization: `Bearer ${TOKEN}` });
  harness.clients.push(consumer);
  await sse.waitFor((t) => t.includes('session.started'));
  return { stub, sse, consumer, bridge };
}

const ours = (sse: Awaited<ReturnType<typeof openSse>>) => sseEvents(sse).filter((e) => e.agent === 'openhands');
const count = (sse: Awaited<ReturnType<typeof openSse>>, type: string) => ours(sse).filter((e) => e.type === type).length;

describe('OpenHands control gate (AEP_OPENHANDS_CONTROL=1) against a stub agent server', () => {
  it('the confirmation request is answerable; a deny posts the reason and the flip out of waiting closes it cause-linked', async () => {
    const { stub, sse, consumer } = await start();
    stub.push(CONV, stateEvent('running'));
    stub.push(CONV, stateEvent('waiting_for_confirmation'));
    await sse.waitFor((t) => t.includes('attention.requested'));
    const ask = ours(sse).find((e) => e.type === 'attention.requested')!;
    expect(ask.data).toEqual({ kind: 'permission', prompt: 'Awaiting confirmation for a pending action', options: [{ id: 'approve', label: 'Approve' }, { id: 'deny', label: 'Deny' }], respond_via: ['control'] });
    consumer.send(command('control.attention.respond', CONV, { answer: { option: 'deny', text: 'not on main' } }, { subject: 'not-the-request', id: 'cmd-wrong' }));
    await sse.waitFor((t) => t.includes('control.rejected'));
    consumer.send(command('control.attention.respond', CONV, { answer: { option: 'deny', text: 'not on main' } }, { subject: ask.id, id: 'cmd-deny' }));
    await sse.waitFor((t) => t.includes('control.accepted'));
    expect(writes).toEqual([{ path: `/api/conversations/${CONV}/events/respond_to_confirmation`, key: KEY, body: '{"accept":false,"reason":"not on main"}' }]);
    expect(count(sse, 'attention.answered')).toBe(0); // the REST 200 is not the outcome
    stub.push(CONV, { kind: 'UserRejectObservation', id: 'rej-1', timestamp: '2026-12-01T11:01:00.000001', source: 'user', tool_name: 'execute_bash', tool_call_id: 'c1', rejection_reason: 'not on main', rejection_source: 'user' });
    stub.push(CONV, stateEvent('running'));
    await sse.waitFor((t) => t.includes('attention.resolved'));
    const events = ours(sse);
    const answered = events.find((e) => e.type === 'attention.answered')!;
    const resolved = events.find((e) => e.type === 'attention.resolved')!;
    expect([answered.subject, answered.cause, answered.data]).toEqual([ask.id, 'cmd-deny', { answer: { option: 'deny', text: 'not on main' }, via: 'control' }]);
    expect([resolved.subject, resolved.cause, resolved.data]).toEqual([ask.id, 'cmd-deny', { resolution: 'answered' }]);
    expect(events.filter((e) => e.type === 'control.rejected').map((e) => [e.cause, (e.data as { reason: string }).reason])).toEqual([['cmd-wrong', 'refused']]);
    for (const e of events) expect(validateEvent(e), String(e.type)).toEqual([]);
    expect(validateStream(events)).toEqual([]);
    sse.close();
  });

  it('an approve without text posts accept:true; a deny without text carries the vendor default reason', async () => {
    const { stub, sse, consumer } = await start();
    stub.push(CONV, stateEvent('waiting_for_confirmation'));
    await sse.waitFor((t) => t.includes('attention.requested'));
    let ask = ours(sse).find((e) => e.type === 'attention.requested')!;
    consumer.send(command('control.attention.respond', CONV, { answer: { option: 'approve' } }, { subject: ask.id, id: 'cmd-ok' }));
    await sse.waitFor((t) => t.includes('control.accepted'));
    stub.push(CONV, stateEvent('running'));
    stub.push(CONV, stateEvent('waiting_for_confirmation'));
    await sse.waitFor(() => count(sse, 'attention.requested') === 2);
    ask = ours(sse).filter((e) => e.type === 'attention.requested')[1]!;
    consumer.send(command('control.attention.respond', CONV, { answer: { option: 'deny' } }, { subject: ask.id, id: 'cmd-no' }));
    consumer.send(command('control.attention.respond', CONV, { answer: { option: 'maybe' } }, { subject: ask.id, id: 'cmd-maybe' }));
    await sse.waitFor(() => count(sse, 'control.accepted') === 2 && count(sse, 'control.rejected') === 1);
    expect(writes.map((w) => w.body)).toEqual(['{"accept":true}', '{"accept":false,"reason":"User rejected the action."}']);
    expect(ours(sse).find((e) => e.type === 'control.rejected')!.data).toMatchObject({ reason: 'invalid' });
    sse.close();
  });

  it('pause, interrupt and resume follow the status guards; the flips they asked for are cause-linked', async () => {
    const { stub, sse, consumer } = await start();
    consumer.send(command('control.pause', CONV, {}, { id: 'cmd-pause-early' })); // no status yet
    stub.push(CONV, stateEvent('idle'));
    await sse.waitFor(() => count(sse, 'state.delta') === 1 && count(sse, 'control.rejected') === 1);
    consumer.send(command('control.pause', CONV, {}, { id: 'cmd-pause-idle' }));
    consumer.send(command('control.resume', CONV, {}, { id: 'cmd-resume-idle' }));
    await sse.waitFor(() => count(sse, 'control.rejected') === 3);
    stub.push(CONV, stateEvent('running'));
    await sse.waitFor(() => count(sse, 'run.started') === 1);
    consumer.send(command('control.pause', CONV, {}, { id: 'cmd-pause' }));
    await sse.waitFor(() => count(sse, 'control.accepted') === 1);
    stub.push(CONV, stateEvent('paused'));
    await sse.waitFor(() => count(sse, 'state.delta') === 3);
    consumer.send(command('control.resume', CONV, {}, { id: 'cmd-resume' }));
    await sse.waitFor(() => count(sse, 'control.accepted') === 2);
    stub.push(CONV, stateEvent('running'));
    await sse.waitFor(() => count(sse, 'state.delta') === 4);
    consumer.send(command('x.openhands.control.interrupt', CONV, {}, { id: 'cmd-int' }));
    await sse.waitFor(() => count(sse, 'control.accepted') === 3);
    stub.push(CONV, stateEvent('paused'));
    stub.push(CONV, stateEvent('waiting_for_confirmation'));
    await sse.waitFor(() => count(sse, 'state.delta') === 6);
    consumer.send(command('control.resume', CONV, {}, { id: 'cmd-resume-wait' }));
    await sse.waitFor(() => count(sse, 'control.rejected') === 4);
    expect(writes.map((w) => [w.path, w.body, w.key])).toEqual([[`/api/conversations/${CONV}/pause`, '', KEY], [`/api/conversations/${CONV}/run`, '', KEY], [`/api/conversations/${CONV}/interrupt`, '', KEY]]);
    const events = ours(sse);
    expect(events.filter((e) => e.type === 'state.delta').map((e) => e.cause ?? null)).toEqual([null, null, 'cmd-pause', 'cmd-resume', 'cmd-int', null]);
    expect(events.filter((e) => e.type === 'control.rejected').map((e) => e.cause)).toEqual(['cmd-pause-early', 'cmd-pause-idle', 'cmd-resume-idle', 'cmd-resume-wait']);
    // Pause and resume never close or reopen the run.
    expect(events.filter((e) => String(e.type).startsWith('run.')).map((e) => e.type)).toEqual(['run.started']);
    for (const e of events) expect(validateEvent(e), String(e.type)).toEqual([]);
    sse.close();
  });

  it('send_input appends a user message with run pinned false and emits input.sent without the text; a 409 nacks refused', async () => {
    const { sse, consumer, bridge } = await start();
    expect(await (await fetch(`${bridge.url}/healthz`)).json()).toEqual({ ok: true, relay: true, source: true, control: true });
    consumer.send(command('x.openhands.control.send_input', CONV, { text: 'also run the linter' }, { id: 'cmd-in' }));
    await sse.waitFor((t) => t.includes('x.openhands.input.sent'));
    consumer.send(command('x.openhands.control.send_input', CONV, { text: 'x'.repeat(4001) }, { id: 'cmd-long' }));
    await sse.waitFor(() => count(sse, 'control.rejected') === 1);
    status = 409;
    consumer.send(command('x.openhands.control.send_input', CONV, { text: 'again' }, { id: 'cmd-409' }));
    await sse.waitFor(() => count(sse, 'control.rejected') === 2);
    expect(writes.map((w) => w.body)).toEqual(['{"role":"user","content":[{"type":"text","text":"also run the linter"}],"run":false}', '{"role":"user","content":[{"type":"text","text":"again"}],"run":false}']);
    const events = ours(sse);
    const sent = events.find((e) => e.type === 'x.openhands.input.sent')!;
    expect([sent.cause, sent.data]).toEqual(['cmd-in', {}]);
    expect(events.map((e) => e.type).indexOf('control.accepted')).toBeLessThan(events.indexOf(sent));
    expect(events.filter((e) => e.type === 'control.rejected').map((e) => [e.cause, (e.data as { reason: string }).reason])).toEqual([['cmd-long', 'invalid'], ['cmd-409', 'refused']]);
    expect(count(sse, 'x.openhands.input.sent')).toBe(1);
    sse.close();
  });
});

describe('refusal', () => {
  it('names why each guarded verb is refused from each status', () => {
    expect(refusal('resume', 'waiting_for_confirmation')).toBe('the conversation is waiting_for_confirmation: run() there silently accepts the pending actions; answer with control.attention.respond instead');
    expect(refusal('resume', 'idle')).toBe('the conversation is idle: run() there starts new work, which is operating, not resuming');
    expect(refusal('resume', 'running')).toBe('control.resume is forwarded only from paused; the last-observed status is running');
    expect(refusal('pause', 'idle')).toBe('control.pause is forwarded only from running: the conversation is idle (no run to suspend)');
    expect(refusal('interrupt', 'paused')).toBe('x.openhands.control.interrupt is forwarded only from running; the last-observed status is paused (the vendor would silently ignore it)');
    expect(refusal('pause', null)).toBe('control.pause is forwarded only from running; the last-observed status is unknown (no status observed yet) (the vendor would silently ignore it)');
  });
});
