/**
 * The HTTP server of an inbound surface, with its edge limits applied where Node enforces them:
 * the head must arrive within `headersTimeoutMs`, the whole request within `bodyTimeoutMs` (Node
 * answers `408` and closes; a connection that never sends anything is closed the same way),
 * checked every `min(timeouts)/4` ms (at most 1 s), so a trickled body is cut on time. A request
 * handler that throws or rejects answers 500 (or cuts a started response) and the server keeps
 * serving; a client that hangs up mid-body leaves nothing behind.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EdgeLimits } from './limits.js';
import { replyJson } from './reply.js';

export type EdgeHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** Node's server options for these limits. */
export function edgeServerOptions(limits: EdgeLimits): { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number; keepAliveTimeout: number } {
  const headersTimeout = Math.min(limits.headersTimeoutMs, limits.bodyTimeoutMs);
  return {
    headersTimeout,
    requestTimeout: limits.bodyTimeoutMs,
    connectionsCheckingInterval: Math.max(25, Math.min(1_000, Math.floor(headersTimeout / 4))),
    keepAliveTimeout: Math.min(5_000, limits.bodyTimeoutMs),
  };
}

/** A server applying `limits`; `log` hears handler failures (never a request body). */
export function createEdgeServer(limits: EdgeLimits, handler: EdgeHandler, log: (line: string) => void = () => {}): Server {
  const server = createServer(edgeServerOptions(limits), (req, res) => {
    const failed = (err: unknown): void => {
      log(`internal error on ${req.method} ${(req.url ?? '/').split('?')[0]}: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) replyJson(res, 500, { error: 'internal', detail: 'this request failed; the server keeps serving others' });
      else res.destroy();
    };
    // A hang-up mid-request: the request stream errors ("aborted"); a reader sees it as data.
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    try {
      const done = handler(req, res);
      if (done && typeof done.then === 'function') done.then(undefined, failed);
    } catch (err) {
      failed(err);
    }
  });
  server.on('error', (err) => log(`server error: ${err.message}`));
  return server;
}

/** Listen on 127.0.0.1 (`port` 0: any free port); resolves with the bound port. */
export function listenLoopback(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.removeListener('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Close a server and every connection it holds. */
export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
