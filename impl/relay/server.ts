/**
 * `startRelay`: assembles the relay from its parts (config, HTTP endpoints, SSE, WebSocket,
 * hub) on one `node:http` server, and owns its shutdown.
 *
 * Endpoints: `POST /events` (ingest), `GET /events` and `GET /.well-known/aep` (discovery,
 * public), `GET /stream` (SSE), `/socket` (WebSocket upgrade), `GET /healthz` (public; counts
 * only when authorized), `OPTIONS *` (CORS preflight). With AEP_TOKEN set, ingest, stream and
 * socket require the token: 401 when missing, 403 when wrong.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { authRefusal, authenticate } from './auth.js';
import { DEFAULTS, type RelayConfig } from './config.js';
import { discoveryDocument } from './discovery.js';
import { CORS_HEADERS, sendJson } from './http-util.js';
import { Hub } from './hub.js';
import { handleIngest } from './ingest.js';
import { SocketSession } from './socket.js';
import { SLOW_BYTES, SseStreams, handleStream } from './sse.js';

/** `startRelay` options: any RelayConfig member (defaults as in config.ts) plus these. */
export interface RelayOptions extends Partial<RelayConfig> {
  /** Operational log sink, one line per call, never given the token. Default: discard. */
  readonly log?: (line: string) => void;
  /** `identity.instance` in the relay's hello. Default `{hostname}/{pid}`. */
  readonly instance?: string;
  /** How long shutdown waits for clients before cutting them off, in ms. Default 5000. */
  readonly drainMs?: number;
  /** WebSocket liveness: a protocol ping this often; a peer silent for two rounds is dropped. Default 30000. */
  readonly livenessMs?: number;
  /** Unsent bytes above which an SSE or WS consumer counts as slow (AEP-0003 §8.4). Default 8 MiB. */
  readonly slowBytes?: number;
}

/** A running relay. Valid until `close()`/`shutdown()` resolves. */
export interface RunningRelay {
  /** Base URL, e.g. `http://127.0.0.1:8787`. */
  readonly url: string;
  /** The bound port (the real one when started with port 0). */
  readonly port: number;
  readonly config: RelayConfig;
  /** Stop accepting, say goodbye to every client (`: shutting-down`, WS close 1001), wait for them. */
  close(): Promise<void>;
  /** Same as close; resolves true when every client drained within `drainMs`, false when cut off. */
  shutdown(): Promise<boolean>;
}

function baseUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function rejectUpgrade(socket: Duplex, status: number, body: unknown): void {
  const text = `${JSON.stringify(body)}\n`;
  const reason = status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Not Found';
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
}

/** Start a relay and resolve once it listens. Rejects when the address cannot be bound. */
export async function startRelay(options: RelayOptions = {}): Promise<RunningRelay> {
  const { log = () => {}, instance = `${hostname()}/${process.pid}`, drainMs = 5_000, livenessMs = 30_000, slowBytes = SLOW_BYTES, ...rest } = options;
  const overrides = Object.fromEntries(Object.entries(rest).filter(([k, v]) => v !== undefined || k === 'token')) as Partial<RelayConfig>;
  const maxSessions = overrides.maxSessions ?? DEFAULTS.maxSessions;
  const config: RelayConfig = Object.freeze({ ...DEFAULTS, maxFrom: maxSessions, ...overrides });
  const hub = new Hub(config.buffer, config.maxSessions, log);
  const streams = new SseStreams();
  const sessions = new Set<SocketSession>();
  const started = Date.now();
  let stopping: Promise<boolean> | undefined;

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      log(`internal error on ${req.method} ${req.url?.split('?')[0]}: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) sendJson(res, 500, { error: 'internal', detail: 'the relay failed on this request; it keeps serving others' });
      else res.destroy();
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://relay.invalid');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') {
      res.writeHead(204, { ...CORS_HEADERS, 'access-control-max-age': '600' });
      return void res.end();
    }
    const auth = authenticate(config.token, req.headers, url);
    if (path === '/healthz') {
      if (method !== 'GET') return sendJson(res, 405, { error: 'method-not-allowed', detail: 'use GET' }, { allow: 'GET' });
      if (auth !== 'open' && auth !== 'ok') return sendJson(res, 200, { ok: true });
      const counts = hub.buffer.stats();
      return sendJson(res, 200, { ok: true, sessions: counts.sessions, events: counts.events, subscribers: hub.sinks.size, connections: sessions.size, uptime_s: Math.floor((Date.now() - started) / 1000) });
    }
    if (path === '/.well-known/aep') {
      if (method !== 'GET') return sendJson(res, 405, { error: 'method-not-allowed', detail: 'use GET' }, { allow: 'GET' });
      return sendJson(res, 200, discoveryDocument(config));
    }
    if (path === '/events') {
      if (method === 'GET') return sendJson(res, 200, discoveryDocument(config));
      if (method !== 'POST') return sendJson(res, 405, { error: 'method-not-allowed', detail: 'POST events here, or GET the discovery document' }, { allow: 'GET, POST' });
      if (auth === 'missing' || auth === 'wrong') return refuse(res, auth);
      return handleIngest(req, res, config, hub);
    }
    if (path === '/stream') {
      if (method !== 'GET') return sendJson(res, 405, { error: 'method-not-allowed', detail: 'use GET' }, { allow: 'GET' });
      if (auth === 'missing' || auth === 'wrong') return refuse(res, auth);
      return handleStream(req, res, url, config, hub, streams, slowBytes);
    }
    if (path === '/socket') return sendJson(res, 426, { error: 'upgrade-required', detail: '/socket speaks WebSocket only' }, { upgrade: 'websocket' });
    return sendJson(res, 404, { error: 'not-found', detail: `no endpoint at ${path}; see GET /events for the endpoints` });
  }

  function refuse(res: ServerResponse, auth: 'missing' | 'wrong'): void {
    const r = authRefusal(auth);
    sendJson(res, r.status, r.body, auth === 'missing' ? { 'www-authenticate': 'Bearer realm="aep"' } : {});
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: config.maxBody });
  const alive = new WeakMap<WebSocket, boolean>();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://relay.invalid');
    if (url.pathname !== '/socket' || stopping) return rejectUpgrade(socket, 404, { error: 'not-found', detail: 'WebSocket lives at /socket' });
    const auth = authenticate(config.token, req.headers, url);
    if (auth === 'missing' || auth === 'wrong') {
      const r = authRefusal(auth);
      return rejectUpgrade(socket, r.status, r.body);
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      alive.set(ws, true);
      ws.on('pong', () => alive.set(ws, true));
      ws.on('error', () => ws.terminate());
      const session = new SocketSession(ws, { config, hub, authenticated: auth === 'ok', instance, log, slowBytes });
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
  }, livenessMs);
  liveness.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => log(`server error: ${err.message}`));
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;

  function shutdown(): Promise<boolean> {
    stopping ??= new Promise<boolean>((resolve) => {
      clearInterval(liveness);
      const closed = new Promise<void>((r) => server.close(() => r()));
      streams.shutdownAll();
      for (const s of [...sessions]) s.shutdown('shutting-down', 1001);
      server.closeIdleConnections();
      const socketsGone = Promise.all([...wss.clients].map((ws) => new Promise<void>((r) => (ws.readyState === ws.CLOSED ? r() : ws.once('close', () => r())))));
      const timer = setTimeout(() => {
        for (const ws of wss.clients) ws.terminate();
        server.closeAllConnections();
        resolve(false);
      }, drainMs);
      timer.unref();
      void Promise.all([closed, socketsGone]).then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    return stopping;
  }

  return {
    url: baseUrl(config.host, port),
    port,
    config,
    close: () => shutdown().then(() => undefined),
    shutdown,
  };
}
