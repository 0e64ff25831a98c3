/**
 * Test-only: a stub Cline hub (a `ws` server speaking the hub's transport frames, protocol v1):
 * it checks the `cline-hub-auth.<token>` subprotocol, answers `client.register` with a client id,
 * records every frame, replies to forwarded commands as configured, and pushes events.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface StubHub {
  url: string;
  protocols: string[];
  frames: Record<string, any>[];
  /** How the stub answers each forwarded command: a reply envelope body, or 'silent'. */
  answer: Record<string, { ok: boolean; error?: { code: string; message: string } } | 'silent'>;
  event(event: string, sessionId: string, payload: Record<string, unknown>): void;
  drop(): void;
  close(): Promise<void>;
}

export async function startStubHub(token: string): Promise<StubHub> {
  const http = createServer();
  const protocols: string[] = [];
  const frames: Record<string, any>[] = [];
  let current: WebSocket | null = null;
  const wss = new WebSocketServer({
    server: http,
    path: '/hub',
    handleProtocols: (offered) => {
      protocols.push(...offered);
      return offered.has(`cline-hub-auth.${token}`) ? `cline-hub-auth.${token}` : false;
    },
    verifyClient: (info, cb) => cb(String(info.req.headers['sec-websocket-protocol'] ?? '').includes(`cline-hub-auth.${token}`), 401),
  });
  const hub: StubHub = {
    url: '',
    protocols,
    frames,
    answer: {},
    event(event, sessionId, payload) {
      current?.send(JSON.stringify({ kind: 'event', envelope: { version: 'v1', event, sessionId, payload } }));
    },
    drop() {
      current?.terminate();
    },
    async close() {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
  wss.on('connection', (ws) => {
    current = ws;
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Record<string, any>;
      frames.push(frame);
      if (frame.kind !== 'command') return;
      const { command: name, requestId } = frame.envelope;
      if (name === 'client.register') {
        ws.send(JSON.stringify({ kind: 'reply', envelope: { version: 'v1', requestId, ok: true, payload: { clientId: 'cl_tap_1' } } }));
        return;
      }
      const how = hub.answer[name] ?? { ok: true };
      if (how !== 'silent') ws.send(JSON.stringify({ kind: 'reply', envelope: { version: 'v1', requestId, ...how } }));
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  hub.url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/hub`;
  return hub;
}
