/**
 * Draining the relay (SIGTERM/SIGINT, or `close()` in-process): stop accepting, send each
 * SSE stream `: shutting-down` and end it, give each WebSocket a `closing` frame and a 1001
 * close, then wait for every client to go. Clients still connected after `drainMs` are cut off.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { SseStreams } from './sse.js';
import type { Sockets } from './upgrade.js';

/**
 * The HTTP connections of `server` and how many requests each has in flight. Node's
 * `closeIdleConnections` skips a keep-alive socket on which no request ever arrived (undici's
 * `fetch()` opens one beside an aborted stream), and such a socket held the drain for `drainMs`.
 * Upgraded (WebSocket) sockets are left to their own close handshake.
 */
export class Connections {
  readonly #inFlight = new Map<Socket, number>();

  constructor(server: Server) {
    server.on('connection', (socket: Socket) => {
      this.#inFlight.set(socket, 0);
      socket.once('close', () => this.#inFlight.delete(socket));
    });
    server.on('upgrade', (req) => this.#inFlight.delete(req.socket));
    server.on('request', (req, res) => {
      const socket = req.socket;
      if (!this.#inFlight.has(socket)) return;
      this.#inFlight.set(socket, this.#inFlight.get(socket)! + 1);
      res.once('close', () => {
        const n = this.#inFlight.get(socket);
        if (n !== undefined) this.#inFlight.set(socket, n - 1);
      });
    });
  }

  /** Close every HTTP connection with no request in flight (idle keep-alive or never used). */
  closeUnused(): void {
    for (const [socket, n] of this.#inFlight) if (n <= 0) socket.destroy();
  }
}

/** Resolves true when every client left within `drainMs`, false when some were cut off. */
export function drain(server: Server, streams: SseStreams, sockets: Sockets, drainMs: number, connections?: Connections): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    sockets.stopLiveness();
    const listenerClosed = new Promise<void>((r) => server.close(() => r()));
    streams.shutdownAll();
    for (const s of [...sockets.sessions]) s.shutdown('shutting-down', 1001);
    server.closeIdleConnections();
    // The SSE responses ended above turn their sockets idle once the end is flushed: close
    // unused connections again then, and until the listener has closed.
    const closeUnused = (): void => {
      server.closeIdleConnections();
      connections?.closeUnused();
    };
    setImmediate(closeUnused);
    const idle = setInterval(closeUnused, 25);
    idle.unref();
    const socketsGone = Promise.all(
      [...sockets.wss.clients].map((ws) => new Promise<void>((r) => (ws.readyState === ws.CLOSED ? r() : ws.once('close', () => r())))),
    );
    const timer = setTimeout(() => {
      clearInterval(idle);
      for (const ws of sockets.wss.clients) ws.terminate();
      server.closeAllConnections();
      resolve(false);
    }, drainMs);
    void Promise.all([listenerClosed, socketsGone]).then(() => {
      clearTimeout(timer);
      clearInterval(idle);
      resolve(true);
    });
  });
}
