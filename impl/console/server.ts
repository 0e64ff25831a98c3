/**
 * `startConsole`: the console's loopback HTTP server (I/O). Every request passes the guard
 * (guard.ts: Host, then Origin / Sec-Fetch-Site) before anything else; a refusal is written as
 * exact bytes and the connection closed.
 *
 * Routes: `GET /` (the HTML shell), `GET /app.js`, `GET /app.css` (the built page),
 * `GET /api/relays` (the configured relays with their tokens, for the page's memory only:
 * same-origin, `no-store`), and the WebSocket upgrade `/relay/<id>/socket` (socket-pipe.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Assets } from './assets.js';
import type { ConsoleConfig } from './config.js';
import { judge, refusalBytes, type GuardInput } from './guard.js';
import { INDEX_HTML, securityHeaders } from './page.js';
import { SocketPipes } from './socket-pipe.js';

export interface ConsoleOptions {
  readonly config: ConsoleConfig;
  readonly assets: Assets;
  readonly log?: (line: string) => void;
}

export interface RunningConsole {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** What the page gets from `/api/relays`. */
export interface RelayList {
  readonly relays: ReadonlyArray<{ id: string; url: string; token?: string }>;
  readonly capture?: string;
}

export function relayList(config: ConsoleConfig): RelayList {
  return {
    relays: config.relays.map((r) => ({ id: r.id, url: r.url, ...(r.token === undefined ? {} : { token: r.token }) })),
    ...(config.capture === undefined ? {} : { capture: config.capture }),
  };
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
};

const guardInput = (req: IncomingMessage): GuardInput => ({ host: header(req, 'host'), origin: header(req, 'origin'), fetchSite: header(req, 'sec-fetch-site') });

function refuse(socket: Duplex, bytes: string): void {
  socket.end(bytes);
  setTimeout(() => socket.destroy(), 1000).unref();
}

export async function startConsole(options: ConsoleOptions): Promise<RunningConsole> {
  const { config, assets, log = () => {} } = options;
  const relayUrls = config.relays.map((r) => r.url);
  const pipes = new SocketPipes(log);
  const sockets = new Set<Socket>();
  let port = config.port;

  const send = (res: ServerResponse, host: string, status: number, type: string, body: string | Buffer): void => {
    res.writeHead(status, { ...securityHeaders(relayUrls, host), 'content-type': type, 'content-length': String(Buffer.byteLength(body)) });
    res.end(body);
  };

  const server = createServer((req, res) => {
    const verdict = judge(guardInput(req), port, { requireOrigin: false });
    if (!verdict.ok) return refuse(req.socket, refusalBytes(verdict));
    const host = header(req, 'host')!.toLowerCase();
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, host, 405, 'application/json', `${JSON.stringify({ error: 'method-not-allowed', detail: 'the console serves GET only' })}\n`);
    switch (path) {
      case '/':
      case '/index.html':
        return send(res, host, 200, 'text/html; charset=utf-8', INDEX_HTML);
      case '/app.js':
        return send(res, host, 200, 'text/javascript; charset=utf-8', assets.js);
      case '/app.css':
        return send(res, host, 200, 'text/css; charset=utf-8', assets.css);
      case '/api/relays':
        return send(res, host, 200, 'application/json', `${JSON.stringify(relayList(config))}\n`);
      default:
        return send(res, host, 404, 'application/json', `${JSON.stringify({ error: 'not-found', detail: `no page at ${path}; open /` })}\n`);
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const verdict = judge(guardInput(req), port, { requireOrigin: true });
    if (!verdict.ok) return refuse(socket, refusalBytes(verdict));
    const m = /^\/relay\/([a-z0-9]+)\/socket$/.exec((req.url ?? '').split('?')[0]!);
    const relay = m ? config.relays.find((r) => r.id === m[1]) : undefined;
    if (!relay) {
      const body = `${JSON.stringify({ error: 'not-found', detail: 'the socket pipe is /relay/<id>/socket for a configured relay' })}\n`;
      return refuse(socket, `HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    }
    pipes.upgrade(req, socket, head, relay);
  });
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
  port = typeof address === 'object' && address ? address.port : config.port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        pipes.closeAll();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      })),
  };
}
