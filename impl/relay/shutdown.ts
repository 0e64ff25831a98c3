/**
 * Draining the relay (SIGTERM/SIGINT, or `close()` in-process): stop accepting, send each
 * SSE stream `: shutting-down` and end it, give each WebSocket a `closing` frame and a 1001
 * close, then wait for every client to go. Clients still connected after `drainMs` are cut off.
 */
import type { Server } from 'node:http';
import type { SseStreams } from './sse.js';
import type { Sockets } from './upgrade.js';

/** Resolves true when every client left within `drainMs`, false when some were cut off. */
export function drain(server: Server, streams: SseStreams, sockets: Sockets, drainMs: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    sockets.stopLiveness();
    const listenerClosed = new Promise<void>((r) => server.close(() => r()));
    streams.shutdownAll();
    for (const s of [...sockets.sessions]) s.shutdown('shutting-down', 1001);
    server.closeIdleConnections();
    const socketsGone = Promise.all(
      [...sockets.wss.clients].map((ws) => new Promise<void>((r) => (ws.readyState === ws.CLOSED ? r() : ws.once('close', () => r())))),
    );
    const timer = setTimeout(() => {
      for (const ws of sockets.wss.clients) ws.terminate();
      server.closeAllConnections();
      resolve(false);
    }, drainMs);
    void Promise.all([listenerClosed, socketsGone]).then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
