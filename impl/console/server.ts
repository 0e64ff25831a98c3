/**
 * `startConsole`: the console's loopback HTTP server (I/O). Every request passes the guard
 * (guard.ts: one Host, ours; then Origin / Sec-Fetch-Site) and then the launch secret
 * (auth.ts) before anything else; a refusal is written as exact bytes and the connection closed.
 *
 * Routes: `GET /?token=SECRET` (sets the secret's cookie, then 303 to `/`), `GET /` (the HTML
 * shell; with the cookie only), `GET /app.js`, `GET /app.css` (the built page: no secret in
 * them, served to anyone who passed the guard), `GET /api/relays` (the configured relays,
 * never their tokens), `GET /relay/<id>/events`, `/history` and `/discovery` (relay-proxy.ts:
 * the console adds the token), and the WebSocket upgrade `/relay/<id>/socket` (socket-pipe.ts).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Assets } from './assets.js';
import { NO_SECRET, SECRET_PARAM, cookieSecret, sameSecret, sessionCookie } from './auth.js';
import type { ConsoleConfig, ConsoleRelay } from './config.js';
import { judge, refusalBytes, type GuardInput } from './guard.js';
import { INDEX_HTML, LOCKED_HTML, securityHeaders } from './page.js';
import { proxyDiscovery, proxyEvents, proxyHistory } from './relay-proxy.js';
import { SocketPipes } from './socket-pipe.js';

export interface ConsoleOptions {
  readonly config: ConsoleConfig;
  readonly assets: Assets;
  readonly log?: (line: string) => void;
  /** The launch secret; default 32 random bytes (base64url). Tests pass their own. */
  readonly secret?: string;
}

export interface RunningConsole {
  /** The URL to open: it carries the launch secret (print it to the operator only). */
  readonly url: string;
  /** The console's origin with a trailing slash, without the secret. */
  readonly base: string;
  readonly port: number;
  readonly secret: string;
  close(): Promise<void>;
}

/** What the page gets from `/api/relays`: where each relay is and whether the console holds a token for it; never the token. */
export interface RelayList {
  readonly relays: ReadonlyArray<{ id: string; url: string; auth: boolean }>;
  readonly capture?: string;
}

export function relayList(config: ConsoleConfig): RelayList {
  return {
    relays: config.relays.map((r) => ({ id: r.id, url: r.url, auth: r.token !== undefined })),
    ...(config.capture === undefined ? {} : { capture: config.capture }),
  };
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
};

const hostCount = (req: IncomingMessage): number => {
  let n = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === 'host') n++;
  return n;
};

const guardInput = (req: IncomingMessage): GuardInput => ({ hostCount: hostCount(req), host: header(req, 'host'), origin: header(req, 'origin'), fetchSite: header(req, 'sec-fetch-site') });

function refuse(socket: Duplex, bytes: string): void {
  socket.end(bytes);
  setTimeout(() => socket.destroy(), 1000).unref();
}

const RELAY_ROUTE = /^\/relay\/([a-z0-9]+)\/(events|history|discovery|socket)$/;

function send(res: ServerResponse, host: string, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...securityHeaders(host), ...extra, 'content-type': type, 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

const json = (v: unknown): string => `${JSON.stringify(v)}\n`;

/** The console's routes over one launch secret and one port (known once listening). */
class ConsoleRoutes {
  /** The listening port (the configured one until `listen` learns the real one). */
  port: number;
  readonly pipes: SocketPipes;

  constructor(private readonly config: ConsoleConfig, private readonly assets: Assets, readonly secret: string, log: (line: string) => void) {
    this.port = config.port;
    this.pipes = new SocketPipes(log);
  }

  private relayById(id: string | undefined): ConsoleRelay | undefined {
    return this.config.relays.find((r) => r.id === id);
  }

  private holdsSecret(req: IncomingMessage): boolean {
    return sameSecret(cookieSecret(header(req, 'cookie'), this.port), this.secret);
  }

  request(req: IncomingMessage, res: ServerResponse): void {
    const verdict = judge(guardInput(req), this.port, { requireOrigin: false });
    if (!verdict.ok) return refuse(req.socket, refusalBytes(verdict));
    const host = header(req, 'host')!.toLowerCase();
    const url = new URL(req.url ?? '/', `http://${host}`);
    const path = url.pathname;
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, host, 405, 'application/json', json({ error: 'method-not-allowed', detail: 'the console serves GET only' }));
    if (path === '/app.js') return send(res, host, 200, 'text/javascript; charset=utf-8', this.assets.js);
    if (path === '/app.css') return send(res, host, 200, 'text/css; charset=utf-8', this.assets.css);
    if (path === '/' || path === '/index.html') return this.page(req, res, host, url);
    if ((path.startsWith('/api/') || path.startsWith('/relay/')) && this.api(req, res, host, url)) return;
    return send(res, host, 404, 'application/json', json({ error: 'not-found', detail: `no page at ${path}; open the URL aep console printed` }));
  }

  /** `GET /`: the secret exchanged for the cookie (303), the shell with the cookie, the locked page without. */
  private page(req: IncomingMessage, res: ServerResponse, host: string, url: URL): void {
    const given = url.searchParams.get(SECRET_PARAM);
    if (given !== null) {
      if (!sameSecret(given, this.secret)) return send(res, host, 403, 'text/html; charset=utf-8', LOCKED_HTML);
      // The exchange: the secret leaves the address bar and lives in an HttpOnly cookie.
      return send(res, host, 303, 'text/plain; charset=utf-8', 'See /\n', { location: '/', 'set-cookie': sessionCookie(this.port, this.secret) });
    }
    if (!this.holdsSecret(req)) return send(res, host, 403, 'text/html; charset=utf-8', LOCKED_HTML);
    return send(res, host, 200, 'text/html; charset=utf-8', INDEX_HTML);
  }

  /** `/api/` and `/relay/` (the secret's cookie required): true when answered, false for the 404. */
  private api(req: IncomingMessage, res: ServerResponse, host: string, url: URL): boolean {
    const path = url.pathname;
    const answer = (r: ServerResponse, status: number, type: string, body: string | Buffer): void => send(r, host, status, type, body);
    if (!this.holdsSecret(req)) send(res, host, 403, 'application/json', json(NO_SECRET));
    else if (path === '/api/relays') send(res, host, 200, 'application/json', json(relayList(this.config)));
    else {
      const m = RELAY_ROUTE.exec(path);
      const relay = this.relayById(m?.[1]);
      if (!relay) return false;
      if (m?.[2] === 'events') void proxyEvents(relay, url.searchParams, req, res, answer, securityHeaders(host));
      else if (m?.[2] === 'history') void proxyHistory(relay, url.searchParams, req, res, answer, securityHeaders(host));
      else if (m?.[2] === 'discovery') void proxyDiscovery(relay, res, answer);
      else return false;
    }
    return true;
  }

  /** The WebSocket upgrade: guarded with Origin required, the cookie, then `/relay/<id>/socket` piped. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const verdict = judge(guardInput(req), this.port, { requireOrigin: true });
    if (!verdict.ok) return refuse(socket, refusalBytes(verdict));
    if (!this.holdsSecret(req)) return refuse(socket, refusalBytes({ ok: false, status: 403, ...NO_SECRET }));
    const m = RELAY_ROUTE.exec(new URL(req.url ?? '/', 'http://x').pathname);
    const relay = m?.[2] === 'socket' ? this.relayById(m[1]) : undefined;
    if (!relay) {
      const body = json({ error: 'not-found', detail: 'the socket pipe is /relay/<id>/socket for a configured relay' });
      return refuse(socket, `HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    }
    this.pipes.upgrade(req, socket, head, relay);
  }
}

export async function startConsole(options: ConsoleOptions): Promise<RunningConsole> {
  const { config, assets, log = () => {} } = options;
  const routes = new ConsoleRoutes(config, assets, options.secret ?? randomBytes(32).toString('base64url'), log);
  const { secret, pipes } = routes;
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => routes.request(req, res));
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => routes.upgrade(req, socket, head));
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, '127.0.0.1', () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = (routes.port = typeof address === 'object' && address ? address.port : config.port);
  let closing: Promise<void> | undefined;
  const base = `http://127.0.0.1:${port}/`;
  return {
    url: `${base}?${SECRET_PARAM}=${secret}`,
    base,
    port,
    secret,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        pipes.closeAll();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      })),
  };
}
