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
import { startSseBridge, type RunningSseBridge } from './attach.js';
import { CONTROL_ACCEPTS, ControlGate } from './control.js';

/** The stubbed OpenCode server: the bus stream plus the two REST routes the gate may write. */
const SERVER = 'http://opencode-ctl.aep.test';
const enc = new TextEncoder();
let push: ((frame: unknown) => void) | null = null;
const writes: { path: string; body: string }[] = [];
const msw = setupServer(
  http.get(`${SERVER}/event`, () => new HttpResponse(new ReadableStream<Uint8Array>({ start(c) { push = (f) => c.enqueue(enc.encode(`data: ${JSON.stringify(f)}\n\n`)); } }), { headers: { 'content-type': 'text/event-stream' } })),
  http.post(`${SERVER}/session/:id/permissions/:perm`, async ({ request, params }) => {
    writes.push({ path: new URL(request.url).pathname, body: await request.text() });
    if (params.perm !== 'perm_1') return HttpResponse.json({ name: 'PermissionNotFoundError' }, { status: 404 });
    push!({ type: 'permission.replied', properties: { sessionID: params.id, permissionID: params.perm, response: 'once' } });
    return HttpResponse.json(true);
  }),
  http.post(`${SERVER}/session/:id/abort`, ({ request, params }) => {
    writes.push({ path: new URL(request.url).pathname, body: '' });
    setTimeout(() => push!({ type: 'session.idle', properties: { sessionID: params.id } }), 20);
    return HttpResponse.json(true);
  }),
);
beforeAll(() => msw.listen({ onUnhandledRequest: 'bypass' }));
afterAll(() => msw.close());

const harness = useRelay();
const home = useTempHome();
const TOKEN = 'ctl-token';
const running: (Emitter | RunningSseBridge)[] = [];
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await r.close();
  for (const c of harness.clients.splice(0)) c.ws.terminate();
  push = null;
  writes.splice(0);
});

const bus = (type: string, properties: Record<string, unknown>) => ({ type, properties });
const until = async (pred: () => boolean) => {
  for (let i = 0; i < 300 && !pred(); i++) await new Promise((r) => setTimeout(r, 10));
};

async function start() {
  const relay = await harness.start({ token: TOKEN });
  let gate: ControlGate | undefined;
  let bridge: RunningSseBridge | undefined;
  const emitter = createEmitter({ agent: 'opencode', stateKey: 'bridge-opencode-sse', home: home(), relay, token: TOKEN, emits: ['run'], accepts: CONTROL_ACCEPTS, onCommand: (raw, v) => gate?.onCommand(raw, v), log: () => undefined });
  running.push(emitter);
  gate = new ControlGate({ server: SERVER, emitter, runOf: (s) => bridge?.runOf(s), log: () => undefined });
  bridge = await startSseBridge({ vendor: 'opencode', server: SERVER, mode: 'primary', emitter, control: gate, log: () => undefined });
  running.push(bridge);
  await until(() => push !== null && emitter.relayReady());
  const sse = await openSse(`${relay}/stream?from=all`, { authorization: `Bearer ${TOKEN}` });
  const consumer = await helloWs(relay, {}, { authorization: `Bearer ${TOKEN}` });
  harness.clients.push(consumer);
  push!(bus('message.updated', { info: { id: 'm1', sessionID: 's_1', role: 'user' } }));
  push!(bus('permission.updated', { id: 'perm_1', type: 'bash', sessionID: 's_1', title: 'rm -rf build' }));
  await sse.waitFor((t) => t.includes('attention.requested'));
  return { sse, consumer, emitter };
}

describe('OpenCode SSE control gate (primary, AEP_OPENCODE_SSE_CONTROL=1) against a stubbed server', () => {
  it('decorates the ask, writes the permission reply, acks it, and answers a redelivery with the same bytes', async () => {
    const { sse, consumer } = await start();
    const ask = sseEvents(sse).find((e) => e.type === 'attention.requested')!;
    expect(ask.data).toEqual({ kind: 'permission', prompt: 'Permission requested: bash — rm -rf build', options: [{ id: 'once', label: 'Allow once' }, { id: 'always', label: 'Always allow' }, { id: 'reject', label: 'Reject' }], respond_via: ['control'] });
    const cmd = command('control.attention.respond', 's_1', { answer: { option: 'once' } }, { subject: ask.id, id: 'cmd-reply-1' });
    consumer.send(cmd);
    await sse.waitFor((t) => t.includes('control.accepted') && t.includes('attention.resolved'));
    expect(writes).toEqual([{ path: '/session/s_1/permissions/perm_1', body: '{"response":"once"}' }]);
    consumer.send(cmd); // a redelivery: answered from the ledger (see the unit test below), never a second write
    await new Promise((r) => setTimeout(r, 100));
    expect(writes.length).toBe(1);
    const resolved = sseEvents(sse).find((e) => e.type === 'attention.resolved')!;
    expect(resolved.subject).toBe(ask.id);
    // The broadcast our reply settled: answered (via control, cause = the command), resolved chained to it.
    const answered = sseEvents(sse).find((e) => e.type === 'attention.answered')!;
    expect([answered.subject, answered.cause, answered.data]).toEqual([ask.id, 'cmd-reply-1', { answer: { option: 'once' }, via: 'control' }]);
    expect([resolved.cause, resolved.data]).toEqual([answered.id, { resolution: 'answered' }]);
    const stale = command('control.attention.respond', 's_1', { answer: { option: 'once' } }, { subject: ask.id, id: 'cmd-reply-2' });
    consumer.send(stale);
    await sse.waitFor((t) => t.includes('control.rejected'));
    expect(sseEvents(sse).find((e) => e.type === 'control.rejected')!.data).toMatchObject({ reason: 'invalid' });
    sse.close();
  });

  it('refuses text answers and scope session; a run-scope cancel aborts and the idle closes the run as run.cancelled', async () => {
    const { sse, consumer } = await start();
    const ask = sseEvents(sse).find((e) => e.type === 'attention.requested')!;
    consumer.send(command('control.attention.respond', 's_1', { answer: { text: 'sure' } }, { subject: ask.id, id: 'cmd-text' }));
    consumer.send(command('control.cancel', 's_1', { scope: 'session' }, { id: 'cmd-sess' }));
    await sse.waitFor((t) => (t.match(/"control\.rejected"/g) ?? []).length === 2);
    const run = sseEvents(sse).find((e) => e.type === 'run.started')!.run as string;
    consumer.send(command('control.cancel', 's_1', { scope: 'run' }, { id: 'cmd-cancel', run }));
    await sse.waitFor((t) => t.includes('run.cancelled'));
    expect(writes).toEqual([{ path: '/session/s_1/abort', body: '' }]);
    const events = sseEvents(sse);
    const cancelled = events.find((e) => e.type === 'run.cancelled')!;
    expect([cancelled.run, cancelled.cause, cancelled.data]).toEqual([run, 'cmd-cancel', { by: 'control' }]);
    expect(events.some((e) => e.type === 'run.finished')).toBe(false);
    expect(events.filter((e) => e.type === 'control.rejected').map((e) => (e.data as { reason: string }).reason)).toEqual(['invalid', 'refused']);
    for (const e of events) expect(validateEvent(e), String(e.type)).toEqual([]);
    expect(validateStream(events)).toEqual([]);
    consumer.send(command('control.cancel', 's_1', { scope: 'run' }, { id: 'cmd-cancel-2' }));
    await sse.waitFor((t) => (t.match(/"control\.rejected"/g) ?? []).length === 3);
    sse.close();
  });
});

describe('ControlGate command dedupe', () => {
  it('answers a redelivered command with the recorded ack bytes and writes nothing', () => {
    const sent: string[] = [];
    const emitted: string[] = [];
    let n = 0;
    const fake = {
      epoch: 0, agent: 'opencode', relayReady: () => true, close: async () => undefined,
      sendRaw: (l: string) => sent.push(l),
      emit: (session: string, m: { type: string; data: Record<string, unknown> }, extra?: Record<string, unknown>) => {
        const e = { aep: '0.1', id: `ack-${n++}`, type: m.type, session, data: m.data, ...extra } as never;
        emitted.push(JSON.stringify(e));
        return e;
      },
    } as unknown as Emitter;
    const gate = new ControlGate({ server: 'http://127.0.0.1:9', emitter: fake, runOf: () => undefined, log: () => undefined });
    const cmd = command('control.cancel', 's_1', { scope: 'run' }, { id: 'dup-1' });
    gate.onCommand('', cmd);
    expect(emitted.length).toBe(1);
    expect(JSON.parse(emitted[0]!)).toMatchObject({ type: 'control.rejected', cause: 'dup-1', data: { reason: 'refused' } });
    expect(JSON.parse(emitted[0]!).data.detail).toBeUndefined(); // redacted-class detail, metadata posture
    gate.onCommand('', cmd);
    expect(emitted.length).toBe(1);
    expect(sent).toEqual([emitted[0]]);
  });
});
