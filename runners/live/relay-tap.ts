/**
 * The relay as a `--target` daemon sees it, with a window on what passes: a loopback proxy in
 * front of the live stack's relay that forwards every HTTP request and WebSocket frame unchanged
 * and notes, per connection, the hello the target said (the observed hello of its certification
 * page, and the capabilities its scenarios are gated on) and every `error` frame the relay sent it
 * (a refused event or frame, with its code and detail: what a timeout failure shows).
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

/** One refusal the relay sent the target. */
export interface TapRefusal {
  code: string;
  detail: string;
  /** The id of the refused event or command, when the relay named it. */
  cause?: string;
}

export interface RelayTap {
  /** The proxy's base URL: hand it to the target instead of the relay's. */
  url: string;
  /** Every hello a target said through the tap, oldest first. */
  readonly hellos: Record<string, unknown>[];
  /** Every `error` frame the relay sent a target, oldest first. */
  readonly refusals: TapRefusal[];
  close(): Promise<void>;
}

const HOP = new Set(['connection', 'upgrade', 'keep-alive', 'transfer-encoding', 'host', 'sec-websocket-key', 'sec-websocket-version', 'sec-websocket-extensions']);

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Start a tap in front of `relayUrl` on loopback `port` (0: a free one). */
export async function startRelayTap(relayUrl: string, port = 0): Promise<RelayTap> {
  const upstream = new URL(relayUrl);
  const hellos: Record<string, unknown>[] = [];
  const refusals: TapRefusal[] = [];
  const sockets = new Set<WebSocket>();
  const server: Server = createServer((req, res) => {
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP.has(k)));
    const out = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('error', (err) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`relay tap: the relay is unreachable: ${err.message}`);
    });
    req.pipe(out);
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP.has(k) && k !== 'sec-websocket-protocol')) as Record<string, string>;
    const protocols = req.headers['sec-websocket-protocol']?.split(',').map((p) => p.trim()).filter(Boolean);
    const up = new WebSocket(new URL(req.url ?? '/', `ws://${upstream.host}`).href, protocols, { headers });
    up.once('unexpected-response', (_r, res) => {
      socket.end(`HTTP/1.1 ${res.statusCode ?? 502} ${res.statusMessage ?? ''}\r\nconnection: close\r\n\r\n`);
    });
    up.once('error', () => socket.destroy());
    up.once('open', () => {
      wss.handleUpgrade(req, socket, head, (down) => {
        sockets.add(down).add(up);
        const pending: string[] = [];
        let first = true;
        down.on('message', (data) => {
          const text = data.toString();
          if (first) {
            first = false;
            const hello = parse(text);
            if (hello?.type === 'hello') hellos.push(hello);
          }
          if (up.readyState === WebSocket.OPEN) up.send(text);
          else pending.push(text);
        });
        up.on('message', (data) => {
          const text = data.toString();
          const f = parse(text);
          if (f?.type === 'error') refusals.push({ code: String(f.code ?? ''), detail: String(f.detail ?? ''), ...(typeof f.cause === 'string' ? { cause: f.cause } : typeof f.id === 'string' ? { cause: f.id } : {}) });
          if (down.readyState === WebSocket.OPEN) down.send(text);
        });
        for (const t of pending.splice(0)) up.send(t);
        down.on('close', () => up.close());
        up.on('close', (code) => (down.readyState === WebSocket.OPEN ? down.close(code === 1005 || code === 1006 ? 1000 : code) : undefined));
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    hellos,
    refusals,
    async close() {
      for (const s of sockets) s.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
