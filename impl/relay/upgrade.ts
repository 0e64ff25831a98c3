/**
 * The `/socket` upgrade: path and token checks on the raw HTTP upgrade (refusals are plain
 * HTTP responses: 401 for auth (RFC 6750), 404 elsewhere, 503 while stopping), then one
 * SocketSession per connection, plus protocol-level liveness pings.
 */
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { authRefusal, authenticate } from './auth.js';
import type { RelayConfig } from './config.js';
import type { HubLike } from './hub.js';
import { requestUrl } from './routes.js';
import { SocketSession } from './socket.js';

export interface UpgradeContext {
  readonly config: RelayConfig;
  readonly hub: HubLike;
  readonly instance: string;
  readonly log: (line: string) => void;
  readonly slowBytes: number;
  /** A WS ping goes out this often; a peer that answered none since the last one is dropped. */
  readonly livenessMs: number;
  /** True once shutdown began: new upgrades get 503. */
  readonly stopping: () => boolean;
}

export interface Sockets {
  readonly wss: WebSocketServer;
  /** Connections that completed the WebSocket handshake. */
  readonly sessions: ReadonlySet<SocketSession>;
  /** Stops the liveness timer. Call at shutdown. */
  stopLiveness(): void;
}

function rejectUpgrade(socket: Duplex, status: number, body: unknown, challenge?: string): void {
  const text = `${JSON.stringify(body)}\n`;
  const auth = challenge === undefined ? '' : `WWW-Authenticate: ${challenge}\r\n`;
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${auth}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
}

export function attachSockets(server: Server, ctx: UpgradeContext): Sockets {
  const { config } = ctx;
  const wss = new WebSocketServer({ noServer: true, maxPayload: config.maxBody });
  const sessions = new Set<SocketSession>();
  const alive = new WeakMap<WebSocket, boolean>();

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (ctx.stopping()) return rejectUpgrade(socket, 503, { error: 'shutting-down', detail: 'the relay is stopping' });
    const url = requestUrl(req);
    if (!url || url.pathname !== '/socket') return rejectUpgrade(socket, 404, { error: 'not-found', detail: 'the WebSocket endpoint is /socket' });
    const origin = req.headers.origin;
    if (config.corsOrigins !== undefined && typeof origin === 'string' && !config.corsOrigins.includes(origin)) {
      return rejectUpgrade(socket, 403, { error: 'forbidden-origin', detail: `a page from ${origin} may not open this relay's socket; AEP_CORS_ORIGINS lists the allowed origins` });
    }
    const auth = authenticate(config.token, req.headers, url);
    if (auth === 'missing' || auth === 'wrong') {
      const r = authRefusal(auth);
      return rejectUpgrade(socket, r.status, r.body, r.challenge);
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      alive.set(ws, true);
      ws.on('pong', () => alive.set(ws, true));
      ws.on('error', () => ws.terminate());
      const session = new SocketSession(ws, { config, hub: ctx.hub, authenticated: auth === 'ok', instance: ctx.instance, log: ctx.log, slowBytes: ctx.slowBytes });
      sessions.add(session);
      ws.once('close', () => sessions.delete(session));
    });
  });

  const liveness = setInterval(() => {
    for (const ws of wss.clients) {
      if (alive.get(ws) === false) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  }, ctx.livenessMs);
  liveness.unref();

  return { wss, sessions, stopLiveness: () => clearInterval(liveness) };
}
