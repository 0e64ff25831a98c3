import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useRelay } from '../../relay/test-utils/use-relay.js';
import { openSse } from '../../relay/test-utils/testing.js';
import { validateEvent } from '../../core/envelope.js';
import { validateStream } from '../../core/stream.js';
import { createEmitter, type Emitter } from '../../bridge-kit/emitter.js';
import { sseEvents, useTempHome } from '../../bridge-kit/test-utils/bridge-tests.js';
import { startSseBridge, type RunningSseBridge } from './attach.js';
import type { SseMode } from './mode-policy.js';

/** The stubbed OpenCode server: GET /event streams the bus frames pushed by the test. */
const SERVER = 'http://opencode.aep.test';
const encoder = new TextEncoder();
let push: ((frame: unknown) => void) | null = null;
let connections = 0;
const msw = setupServer(
  http.get(`${SERVER}/event`, () => {
    connections += 1;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (frame) => controller.enqueue(encoder.encode(`data: ${JSON.stringify(frame)}\n\n`));
        push({ type: 'server.connected', properties: {} });
      },
    });
    return new HttpResponse(stream, { headers: { 'content-type': 'text/event-stream' } });
  }),
);
beforeAll(() => msw.listen({ onUnhandledRequest: 'bypass' }));
afterAll(() => msw.close());

const harness = useRelay();
const home = useTempHome();
const TOKEN = 'sse-token';
const running: (Emitter | RunningSseBridge)[] = [];
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await r.close();
  push = null;
  connections = 0;
});

const bus = (type: string, properties: Record<string, unknown>) => ({ type, properties });
const TURN = [
  bus('session.created', { info: { id: 's_1', version: '1.18.0', title: 'x', directory: '/p' } }),
  bus('message.updated', { info: { id: 'm1', sessionID: 's_1', role: 'user' } }),
  bus('message.updated', { info: { id: 'm2', sessionID: 's_1', role: 'user' } }),
  bus('permission.updated', { id: 'perm_1', type: 'bash', sessionID: 's_1', title: 'rm -rf build' }),
  bus('permission.replied', { sessionID: 's_1', permissionID: 'perm_1', response: 'once' }),
  bus('todo.updated', { sessionID: 's_1', todos: [] }),
  bus('session.idle', { sessionID: 's_1' }),
  bus('session.idle', { sessionID: 's_1' }),
];

async function start(mode: SseMode) {
  const relay = await harness.start({ token: TOKEN });
  const emitter = createEmitter({ agent: 'opencode', stateKey: 'bridge-opencode-sse', home: home(), relay, token: TOKEN, emits: ['x.opencode'], log: () => undefined });
  running.push(emitter);
  const bridge = await startSseBridge({ vendor: 'opencode', server: SERVER, mode, emitter, port: 0, log: () => undefined });
  running.push(bridge);
  for (let i = 0; i < 200 && !push; i++) await new Promise((r) => setTimeout(r, 10));
  const sse = await openSse(`${relay}/stream?from=all`, { authorization: `Bearer ${TOKEN}` });
  return { bridge, sse, emitter };
}

describe('OpenCode SSE bridge against a stubbed server (msw) and a real relay', () => {
  it('primary: the bus mapping with synthesized runs; steering and a second idle open/close nothing', async () => {
    const { sse, emitter } = await start('primary');
    for (const f of TURN) push!(f);
    await sse.waitFor((t) => t.includes('run.finished'));
    await new Promise((r) => setTimeout(r, 100));
    const events = sseEvents(sse);
    const run = `run:${emitter.epoch}:0`;
    expect(events.map((e) => [e.type, e.session, e.run ?? null, e.subject ?? null])).toEqual([
      ['session.started', 's_1', null, null],
      ['run.started', 's_1', run, null],
      ['attention.requested', 's_1', run, 'bash'],
      ['attention.resolved', 's_1', run, events[2]!.id],
      ['run.finished', 's_1', run, null],
    ]);
    expect(events[2]!.data).toEqual({ kind: 'permission', prompt: 'Permission requested: bash — rm -rf build' });
    expect(events[3]!.cause).toBe(events[2]!.id);
    for (const e of events) expect(validateEvent(e), String(e.type)).toEqual([]);
    expect(validateStream(events)).toEqual([]);
    sse.close();
  });

  it('companion: only x.opencode.* and no runs', async () => {
    const { sse } = await start('companion');
    for (const f of TURN) push!(f);
    await sse.waitFor((t) => (t.match(/^data: /gm) ?? []).length === 8);
    const events = sseEvents(sse);
    expect(events.map((e) => e.type)).toEqual([
      'x.opencode.session.created', 'x.opencode.message.updated', 'x.opencode.message.updated', 'x.opencode.permission.updated',
      'x.opencode.permission.replied', 'x.opencode.todo.updated', 'x.opencode.session.idle', 'x.opencode.session.idle',
    ]);
    expect(events.every((e) => e.run === undefined && JSON.stringify(e.data) === '{}')).toBe(true);
    expect(validateStream(events)).toEqual([]);
    sse.close();
  });

  it('healthz reports the relay link and the bus stream', async () => {
    const { bridge, emitter } = await start('companion');
    for (let i = 0; i < 100 && !emitter.relayReady(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(await (await fetch(`${bridge.url}/healthz`)).json()).toEqual({ ok: true, relay: true, source: true, control: false });
    expect(connections).toBe(1);
  });
});
