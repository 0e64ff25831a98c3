/**
 * The loopback `GET /healthz` server of a bridge whose only inbound HTTP is its health check
 * (OpenHands, OpenCode/Kilo SSE, Kimi web): one implementation, on the shared edge server, so it
 * has the same header and request timeouts as every other surface. It reads no body (a request
 * body is discarded unread, within the request timeout).
 */
import type { Server } from 'node:http';
import { EDGE_DEFAULTS, type EdgeLimits } from './limits.js';
import { closeServer, createEdgeServer, listenLoopback } from './server.js';
import { requestUrl } from './target.js';

/** A health server's limits: fixed (it takes no input), the shared timeouts. */
export const HEALTHZ_LIMITS: EdgeLimits = Object.freeze({ ...EDGE_DEFAULTS, maxBody: 0 });

export interface RunningHealthz {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

/** Serve `GET /healthz` → 200 `status()`, anything else 404 `{error: 'not-found'}`, on 127.0.0.1:`port`. */
export async function startHealthz(port: number, status: () => Record<string, unknown>, log: (line: string) => void = () => {}, limits: EdgeLimits = HEALTHZ_LIMITS): Promise<RunningHealthz> {
  const server = createEdgeServer(limits, (req, res) => {
    req.resume();
    const ok = req.method === 'GET' && requestUrl(req)?.pathname === '/healthz';
    res.writeHead(ok ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(ok ? status() : { error: 'not-found', detail: 'GET /healthz' }));
  }, log);
  const bound = await listenLoopback(server, port);
  return { url: `http://127.0.0.1:${bound}`, server, close: () => closeServer(server) };
}
