import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { WebSocketServer, type WebSocket } from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useRelay } from '../../relay/test-utils/use-relay.js';
import { openSse } from '../../relay/test-utils/testing.js';
import { validateEvent } from '../../core/envelope.js';
import { validateStream } from '../../core/stream.js';
import { createEmitter, type Emitter } from '../../bridge-kit/emitter.js';
import { sseEvents, useTempHome } from '../../bridge-kit/test-utils/bridge-tests.js';
import { startOpenHandsBridge, type RunningOpenHands } from './receiver.js';

const KEY = 'oh-session-key';
const ts = (n: number) => `2026-12-01T09:00:0${n}.000001`;
const LOG = [
  { kind: 'ConversationStateUpdateEvent', id: 'e1', timestamp: ts(1), source: 'environment', key: 'execution_status', value: 'running' },
  { kind: 'ActionEvent', id: 'e2', timestamp: ts(2), source: 'agent', tool_name: 'execute_bash', tool_call_id: 'c1', action: { kind: 'ExecuteBashAction', command: 'ls' }, llm_response_id: 'r1', security_risk: 'LOW' },
  { kind: 'ConversationStateUpdateEvent', id: 'e3', timestamp: ts(3), source: 'environment', key: 'execution_status', value: 'waiting_for_confirmation' },
  { kind: 'ConversationStateUpdateEvent', id: 'e4', timestamp: ts(4), source: 'environment', key: 'execution_status', value: 'running' },
  { kind: 'ObservationEvent', id: 'e5', timestamp: ts(5), source: 'environment', tool_name: 'execute_bash', tool_call_id: 'c1', observation: { kind: 'ExecuteBashObservation', content: [{ type: 'text', text: 'a' }], is_error: false } },
  { kind: 'TokenEvent', id: 'e6', timestamp: ts(6), source: 'agent', prompt_token_ids: [1] },
  { kind: 'ConversationStateUpdateEvent', id: 'e7', timestamp: ts(7), source: 'environment', key: 'execution_status', value: 'finished' },
];

/** The stub agent server: sockets on a real ws server (auth frame first, replay modes), discovery via msw. */
let server: Server;
let base = '';
const received: { url: string; frames: string[] }[] = [];
const sockets: WebSocket[] = [];
beforeAll(async () => {
  server = createServer();
  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws, req) => {
    const entry = { url: req.url ?? '', frames: [] as string[] };
    received.push(entry);
    sockets.push(ws);
    ws.on('message', (d) => {
      entry.frames.push(d.toString());
      const frame = JSON.parse(d.toString()) as { type?: string; session_api_key?: string };
      if (frame.type !== 'auth' || frame.session_api_key !== KEY) return ws.close(4001, 'unauthorized');
      const u = new URL(entry.url, 'http://x');
      const after = u.searchParams.get('after_timestamp');
      // resend_mode=since replays events AT and after the timestamp: the overlap the bridge dedupes.
      for (const e of LOG) if (u.searchParams.get('resend_mode') === 'all' || (after !== null && e.timestamp >= after)) ws.send(JSON.stringify(e));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  msw.use(http.get(`${base}/api/conversations/search`, ({ request }) =>
    request.headers.get('x-session-api-key') === KEY ? HttpResponse.json({ items: [{ id: 'conv_a', execution_status: 'running' }], next_page_id: null }) : new HttpResponse(null, { status: 401 })));
  msw.listen({ onUnhandledRequest: 'bypass' });
});
const msw = setupServer();
afterAll(async () => {
  msw.close();
  for (const s of sockets) s.terminate();
  await new Promise((r) => server.close(r));
});

const harness = useRelay();
const home = useTempHome();
const TOKEN = 'oh-token';
const running: (Emitter | RunningOpenHands)[] = [];
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await r.close();
  received.splice(0);
});

describe('OpenHands bridge against a stub agent server and a real relay', () => {
  it('discovers, authenticates with the one frame it ever writes, maps the log with synthesized runs, and dedupes a replay', async () => {
    const relay = await harness.start({ token: TOKEN });
    const emitter = createEmitter({ agent: 'openhands', stateKey: 'bridge-openhands', home: home(), relay, token: TOKEN, emits: ['run'], log: () => undefined });
    running.push(emitter);
    const bridge = await startOpenHandsBridge({ server: base, apiKey: KEY, emitter, pollMs: 60_000, port: 0, log: () => undefined });
    running.push(bridge);
    const sse = await openSse(`${relay}/stream?from=all`, { authorization: `Bearer ${TOKEN}` });
    await sse.waitFor((t) => t.includes('"run.finished"'));
    expect(received[0]!.url).toBe('/sockets/events/conv_a?resend_mode=all');
    expect(received[0]!.frames).toEqual([JSON.stringify({ type: 'auth', session_api_key: KEY })]);
    // Drop the socket: the bridge reconnects with resend_mode=since and the overlap is deduped.
    for (const s of sockets.splice(0)) s.terminate();
    for (let i = 0; i < 200 && received.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 150));
    expect(received[1]!.url).toBe(`/sockets/events/conv_a?resend_mode=since&after_timestamp=${encodeURIComponent(ts(7))}`);
    const events = sseEvents(sse);
    const run = 'run:conv_a:0';
    expect(events.map((e) => [e.type, e.run ?? null, e.step ?? null])).toEqual([
      ['session.started', null, null],
      ['state.delta', null, null],
      ['run.started', run, null],
      ['tool.requested', run, 'r1'],
      ['state.delta', run, null],
      ['attention.requested', run, null],
      ['state.delta', run, null],
      ['attention.resolved', run, null],
      ['tool.completed', run, null],
      ['state.delta', run, null],
      ['run.finished', run, null],
    ]);
    expect(events[7]!.subject).toBe(events[5]!.id);
    expect(events.every((e) => e.session === 'conv_a' && e.agent === 'openhands')).toBe(true);
    for (const e of events) expect(validateEvent(e), String(e.type)).toEqual([]);
    expect(validateStream(events)).toEqual([]);
    expect(await (await fetch(`${bridge.url}/healthz`)).json()).toEqual({ ok: true, relay: true, source: true, control: false });
    sse.close();
  });
});
