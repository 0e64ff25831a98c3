import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AepEvent } from '../../core/event.js';
import { validateEvent } from '../../core/envelope.js';
import { digest } from '../../core/digest.js';
import { createEmitter, type Emitter } from '../../bridge-kit/emitter.js';
import { useTempHome } from '../../bridge-kit/test-utils/bridge-tests.js';
import { sessionIds, startKimiWeb, type RunningKimiWeb } from './attach.js';
import type { WsMode } from './mode-policy.js';

const TOKEN = 'kap-token-7';

/** A stub kap-server: REST sessions listing and the WS stream, both behind the bearer token. */
async function stubKap() {
  const protocols: string[] = [];
  const received: string[] = [];
  const sockets: WebSocket[] = [];
  let restAuth: string | undefined;
  const http: Server = createServer((req, res) => {
    restAuth = req.headers.authorization;
    if (req.url === '/api/v1/sessions' && req.headers.authorization === `Bearer ${TOKEN}`) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 0, msg: 'ok', data: [{ id: 'sess_a' }] }));
      return;
    }
    res.writeHead(401).end();
  });
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (set) => {
      const p = [...set][0]!;
      protocols.push(p);
      return p === `kimi-code.bearer.${TOKEN}` ? p : false;
    },
  });
  http.on('upgrade', (req, socket, head) => {
    if (req.url !== '/api/v1/ws') return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.push(ws);
      ws.on('message', (d) => received.push(d.toString()));
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url, protocols, received, sockets,
    restAuth: () => restAuth,
    send: (frame: unknown) => sockets.at(-1)!.send(JSON.stringify(frame)),
    async close() {
      for (const s of wss.clients) s.terminate();
      wss.close();
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}

const home = useTempHome();
const closers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c.close();
});

const until = async (cond: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
};

let seqNo = 0;
const env = (type: string, payload: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type, seq: ++seqNo, session_id: 'sess_a', timestamp: '2026-05-01T09:00:00.000Z', payload: { type, sessionId: 'sess_a', ...payload }, epoch: 'e1', ...extra,
});

async function start(mode: WsMode, token = TOKEN) {
  const kap = await stubKap();
  closers.push(kap);
  const events: AepEvent[] = [];
  const emitter: Emitter = createEmitter({ agent: 'kimi-code', stateKey: 'bridge-kimi-code-web', home: home(), emits: ['x.kimi-code'], writeLog: false, log: () => undefined, onEmit: (e) => events.push(e) });
  closers.push(emitter);
  const bridge: RunningKimiWeb = await startKimiWeb({ server: kap.url, token, mode, emitter, port: 0, log: () => undefined });
  closers.push(bridge);
  return { kap, events, bridge };
}

describe('sessionIds', () => {
  it('reads the {code, msg, data} listing and refuses a non-zero code', () => {
    expect(sessionIds({ code: 0, msg: 'ok', data: [{ id: 'a' }, { session_id: 'b' }, {}] })).toEqual(['a', 'b']);
    expect(sessionIds({ code: 0, data: { sessions: [{ id: 'c' }] } })).toEqual(['c']);
    expect(sessionIds({ code: 40100, msg: 'unauthorized' })).toBe('kap-server answered code 40100: unauthorized');
    expect(sessionIds({ code: 0, data: 'x' })).toBe('kap-server sessions listing has no data array');
  });
});

describe('Kimi web bridge against a stub kap-server', () => {
  it('discovers over REST with the bearer header, upgrades with the bearer subprotocol and subscribes', async () => {
    const { kap, bridge } = await start('companion');
    await until(() => kap.received.length === 1);
    expect(kap.restAuth()).toBe(`Bearer ${TOKEN}`);
    expect(kap.protocols).toEqual([`kimi-code.bearer.${TOKEN}`]);
    expect(kap.received[0]).toBe('{"type":"subscribe","session_ids":["sess_a"]}');
    expect(bridge.sourceOpen()).toBe(true);
    const health = await (await fetch(`${bridge.url}/healthz`)).json();
    expect(health).toEqual({ ok: true, relay: false, source: true, control: false });
  });

  it('primary: run pair, tool name re-attached by call id, volatile and bus echoes dropped, replays deduped', async () => {
    const { kap, events, bridge } = await start('primary');
    await until(() => kap.received.length === 1);
    const frames = [
      env('turn.started', { turnId: 0, origin: { kind: 'user' } }),
      env('status.pulse', {}, { volatile: true }),
      env('tool.call.started', { toolCallId: 'c1', name: 'Shell', args: { command: 'pwd' } }),
      env('tool.result', { toolCallId: 'c1', output: '/home', isError: false }),
      env('tool.call.started', { toolCallId: 'c2', name: 'Read', args: { path: 'x' } }),
      env('tool.result', { toolCallId: 'c2', output: 'nope', isError: true }),
      env('tool.result', { toolCallId: 'c_unknown', output: '?', isError: false }),
      env('permission.approval.requested', { approval_id: 'ap1' }),
      env('turn.ended', { turnId: 0, reason: 'completed' }),
    ];
    for (const f of frames) kap.send(f);
    kap.send(frames[2]); // a replayed frame: same session, epoch, seq
    await until(() => events.length === 7);
    await new Promise((r) => setTimeout(r, 50));
    expect(events.map((e) => e.type)).toEqual(['run.started', 'tool.requested', 'tool.completed', 'tool.requested', 'tool.failed', 'x.kimi-code.web.tool.result', 'run.finished']);
    for (const e of events) expect(validateEvent(e)).toEqual([]);
    const run = events[0]!.run;
    expect(run).toMatch(/^run:\d+:0$/);
    expect(events.every((e) => e.run === run && e.session === 'sess_a')).toBe(true);
    expect(events[2]!.data).toEqual({ tool: { name: 'Shell', call_id: 'c1' }, result_digest: digest('/home') });
    expect(events[2]!.subject).toBe('Shell');
    expect(events[4]!.data).toEqual({ tool: { name: 'Read', call_id: 'c2' }, error: { type: 'tool_error' } });
    expect(events[5]!.data).toEqual({});
    expect(bridge.runOf('sess_a')).toBeUndefined();
  });

  it('primary, gate off: the ask is read-only; a resolution names the request event and a decision is followed by resolved', async () => {
    const { kap, events } = await start('primary');
    await until(() => kap.received.length === 1);
    kap.send(env('event.approval.requested', { approval_id: 'ap9', tool_name: 'Shell' }));
    kap.send(env('event.approval.resolved', { approval_id: 'ap9', decision: 'approved' }));
    kap.send(env('event.question.requested', { question_id: 'q1', questions: [{ id: 'q', question: 'Which?', options: [{ id: 'a', label: 'A' }] }] }));
    kap.send(env('event.question.dismissed', { question_id: 'q1' }));
    await until(() => events.length === 5);
    const [ask, answered, resolved, form, dismissed] = events;
    expect(ask!.data).toEqual({ kind: 'permission', prompt: 'Permission requested: Shell' });
    expect([answered!.type, answered!.subject, answered!.cause, answered!.data]).toEqual(['attention.answered', ask!.id, ask!.id, { answer: { option: 'approved' }, via: 'oob' }]);
    expect([resolved!.type, resolved!.subject, resolved!.cause, resolved!.data]).toEqual(['attention.resolved', ask!.id, answered!.id, { resolution: 'answered' }]);
    expect([form!.type, dismissed!.type, dismissed!.subject, dismissed!.cause]).toEqual(['attention.requested', 'attention.resolved', form!.id, form!.id]);
    for (const e of events) expect(validateEvent(e)).toEqual([]);
  });

  it('companion: only x.kimi-code.web.* with empty data, no runs', async () => {
    const { kap, events } = await start('companion');
    await until(() => kap.received.length === 1);
    kap.send(env('turn.started', { turnId: 1, origin: { kind: 'user' } }));
    kap.send(env('tool.call.started', { toolCallId: 'c9', name: 'Shell', args: {} }));
    kap.send(env('tool.result', { toolCallId: 'c9', output: 'ok', isError: false }));
    await until(() => events.length === 3);
    expect(events.map((e) => [e.type, e.data, e.run])).toEqual([
      ['x.kimi-code.web.turn.started', {}, undefined],
      ['x.kimi-code.web.tool.call.started', {}, undefined],
      ['x.kimi-code.web.tool.result', {}, undefined],
    ]);
  });

  it('reconnects after the server drops the socket and re-subscribes', async () => {
    const { kap, bridge } = await start('companion');
    await until(() => kap.received.length === 1);
    kap.sockets[0]!.terminate();
    await until(() => kap.received.length === 2);
    expect(kap.received[1]).toBe(kap.received[0]);
    await until(() => bridge.sourceOpen());
  });

  it('a wrong token never opens the stream', async () => {
    const { kap, bridge } = await start('companion', 'wrong');
    await new Promise((r) => setTimeout(r, 150));
    expect(kap.received).toEqual([]);
    expect(bridge.sourceOpen()).toBe(false);
  });
});
