import WebSocket from 'ws';
import { ItemLog } from './log.js';

/** One frame as received: the exact text (for byte-identity checks) and its parse. */
export interface WsFrame {
  raw: string;
  /** The parsed frame, or undefined when it was binary or not JSON. */
  json: Record<string, unknown> | undefined;
  binary: boolean;
}

/** Why a socket could not be opened: `status` is the HTTP status of a refused upgrade. */
export class WsOpenError extends Error {
  override name = 'WsOpenError';
  constructor(message: string, readonly status?: number) {
    super(message);
  }
}

/**
 * A checker-side WebSocket: every received frame lands in `log`, in order.
 * Call `close()` when done (contexts register it with `defer`).
 */
export class WsConn {
  readonly log = new ItemLog<WsFrame>();
  /** Resolves with the close code once the socket is closed, by either side. */
  readonly closed: Promise<number>;
  private constructor(private readonly socket: WebSocket) {
    this.closed = new Promise((resolve) => socket.once('close', (code) => resolve(code)));
    socket.on('error', () => {}); // a reset after open surfaces as the close below
    socket.on('message', (data, isBinary) => {
      const raw = Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString('utf8');
      let json: Record<string, unknown> | undefined;
      if (!isBinary) {
        try {
          const v: unknown = JSON.parse(raw);
          if (typeof v === 'object' && v !== null && !Array.isArray(v)) json = v as Record<string, unknown>;
        } catch {
          json = undefined;
        }
      }
      this.log.add({ raw, json, binary: isBinary });
    });
    socket.once('close', (code) => this.log.end(`the socket closed (code ${code})`));
  }

  /** Opens `url`; rejects with WsOpenError (with the HTTP status when the upgrade was refused). */
  static open(url: string, opts: { token?: string; timeoutMs: number }): Promise<WsConn> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = opts.token ? { authorization: `Bearer ${opts.token}` } : {};
      const socket = new WebSocket(url, { headers, handshakeTimeout: opts.timeoutMs });
      socket.on('error', () => {}); // keeps a late error from becoming an uncaught exception
      socket.once('unexpected-response', (_req, res) => {
        reject(new WsOpenError(`the socket upgrade was refused with HTTP ${res.statusCode}`, res.statusCode));
        res.resume();
        socket.terminate();
      });
      socket.once('error', (err) => reject(new WsOpenError(`cannot open ${url}: ${err.message}`)));
      socket.once('open', () => resolve(new WsConn(socket)));
    });
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /** Sends a frame: a string verbatim, anything else as JSON. Silently drops when closed. */
  send(frame: unknown): void {
    if (!this.isOpen) return;
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  sendBinary(bytes: Uint8Array): void {
    if (this.isOpen) this.socket.send(bytes, { binary: true });
  }

  /** Waits for a frame whose parsed `type` is `type` and that passes `pred`. */
  waitType(type: string, ms: number, pred: (f: Record<string, unknown>) => boolean = () => true, since = 0) {
    return this.log.waitFor((f) => f.json?.type === type && pred(f.json), ms, `a '${type}' frame`, since);
  }

  close(): void {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    if (this.socket.readyState === WebSocket.CONNECTING) this.socket.terminate();
    else this.socket.close(1000);
  }
}
