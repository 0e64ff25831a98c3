/**
 * One WebSocket connection to a relay's `/socket` (AEP-0003 §3.5, §4), shaped like the MCP SDK's
 * `Transport`: `start()`, `send()`, `close()`, with `onmessage`/`onerror`/`onclose`. Every client
 * of the relay's socket in the project (the adapters' and bridges' `RelayLink`, the operator
 * verbs, the demo agent, the live runner, the console's pipe and its page (through
 * `browserSocket`), the relay's own wire tests) opens it through this class; `check-live` keeps its own on purpose, as the independent checker.
 *
 * One transport is one connection: `start()` once, then frames until it closes. Reconnecting is
 * a policy above it (`RelayLink`, the demo agent), each attempt a new transport. The socket comes
 * from an injectable factory (default: the `ws` package), so tests drive a fake one.
 *
 * Frames pass as exact text: what `send` is given is what goes on the wire, and `onmessage`
 * hears each inbound frame's exact text beside its parse.
 */
import WebSocket from 'ws';

/** The socket a transport drives: the part of the `ws` package's `WebSocket` it uses. */
export interface RelaySocket {
  /** 0 connecting, 1 open, 2 closing, 3 closed (the WebSocket constants). */
  readonly readyState: number;
  send(data: string | Uint8Array, opts?: { binary?: boolean }): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: 'open', listener: () => void): unknown;
  on(event: 'message', listener: (data: Uint8Array | Uint8Array[] | ArrayBuffer, isBinary: boolean) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'close', listener: (code: number, reason: Uint8Array) => void): unknown;
  on(event: 'unexpected-response', listener: (req: unknown, res: { statusCode?: number; resume(): void }) => void): unknown;
}

/** What a socket is opened with. */
export interface SocketInit {
  headers: Record<string, string>;
  /** Upgrade timeout in ms, when one is wanted. */
  handshakeTimeout?: number;
}

export type SocketFactory = (url: string, init: SocketInit) => RelaySocket;

/** The default factory: a `ws` WebSocket. */
export const wsSocket: SocketFactory = (url, init) => new WebSocket(url, init) as unknown as RelaySocket;

/** `http://h:p` → `ws://h:p/socket`; a URL already ending in `/socket` is kept. */
export function socketUrl(base: string): string {
  const url = new URL(base);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  if (url.protocol === 'https:') url.protocol = 'wss:';
  if (!url.pathname.endsWith('/socket')) url.pathname = `${url.pathname.replace(/\/+$/, '')}/socket`;
  return url.toString();
}

/** One inbound frame. */
export interface RelayMessage {
  /** The frame's exact text (a binary frame's bytes read as UTF-8). */
  raw: string;
  /** Its parse, when the text is a JSON object; undefined otherwise. */
  frame: Record<string, unknown> | undefined;
  /** The exact bytes, for a binary frame only (the relay sends none; the console's pipe passes them on). */
  binary?: Uint8Array;
}

/** Why a connection did not open or ended, as data. */
export type TransportFailure =
  | { kind: 'refused'; status: number; message: string }
  | { kind: 'unreachable'; message: string; cause: Error }
  | { kind: 'closed'; code: number; reason: string; message: string };

export class TransportError extends Error {
  override name = 'TransportError';
  constructor(readonly failure: TransportFailure) {
    super(failure.message);
  }
}

export interface TransportOptions {
  /** The exact WebSocket URL (see {@link socketUrl}). */
  url: string;
  /** Bearer token for the upgrade, if any. Never logged. */
  token?: string;
  /** More upgrade headers (the token's `authorization` wins). */
  headers?: Record<string, string>;
  /** Upgrade timeout in ms (none by default). */
  handshakeTimeout?: number;
  /** The socket factory (default {@link wsSocket}). */
  socket?: SocketFactory;
}

const OPEN = 1;
/** Text as `Buffer#toString` reads it: a leading U+FEFF is kept (byte-exact). */
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });
const CLOSED = 3;

/** Bytes of a `ws` message, whichever form it came in. */
function bytesOf(data: Uint8Array | Uint8Array[] | ArrayBuffer): Uint8Array {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (Array.isArray(data)) return Buffer.concat(data);
  return data;
}

/** The parse of a frame's text when it is a JSON object. */
export function parseFrame(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export class RelayTransport {
  /** Every inbound frame after `start()`, in arrival order. */
  onmessage?: (message: RelayMessage) => void;
  /** A socket error after the connection opened (one before it rejects `start()` instead). */
  onerror?: (error: TransportError) => void;
  /** Once, when an opened connection ends (a failed `start()` rejects instead). */
  onclose?: (info: { code: number; reason: string }) => void;

  private socket: RelaySocket | undefined;
  private closedInfo: { code: number; reason: string } | undefined;
  private readonly closeWaiters: Array<() => void> = [];

  constructor(private readonly opts: TransportOptions) {}

  /** The URL this transport connects to. */
  get url(): string {
    return this.opts.url;
  }

  /** True while the socket is open (frames can be sent). */
  get isOpen(): boolean {
    return this.socket?.readyState === OPEN;
  }

  /**
   * Opens the socket. Resolves once it is open; rejects with a {@link TransportError} saying why it
   * did not open (`refused` with the HTTP status of an answered upgrade, `unreachable`, `closed`).
   * Call it once: a transport is one connection.
   */
  start(): Promise<void> {
    if (this.socket) return Promise.reject(new Error('RelayTransport.start() called twice: a transport is one connection'));
    const headers: Record<string, string> = { ...this.opts.headers };
    if (this.opts.token) headers.authorization = `Bearer ${this.opts.token}`;
    const init: SocketInit = { headers, ...(this.opts.handshakeTimeout !== undefined ? { handshakeTimeout: this.opts.handshakeTimeout } : {}) };
    const ws = (this.opts.socket ?? wsSocket)(this.opts.url, init);
    this.socket = ws;
    return new Promise((resolve, reject) => {
      let opened = false;
      let failed = false;
      const fail = (failure: TransportFailure): void => {
        if (opened) this.onerror?.(new TransportError(failure));
        else if (!failed) {
          failed = true;
          reject(new TransportError(failure));
        }
      };
      ws.on('unexpected-response', (_req, res) => {
        const status = res.statusCode ?? 0;
        res.resume();
        fail({ kind: 'refused', status, message: `Unexpected server response: ${status}` });
        ws.terminate();
      });
      ws.on('open', () => {
        opened = true;
        resolve();
      });
      ws.on('message', (data, isBinary) => this.deliver(data, isBinary));
      ws.on('error', (err) => fail({ kind: 'unreachable', message: err.message, cause: err }));
      ws.on('close', (code, reason) => {
        const text = UTF8.decode(reason);
        if (!opened) fail({ kind: 'closed', code, reason: text, message: `closed ${code}` });
        this.closedInfo = { code, reason: text };
        for (const w of this.closeWaiters.splice(0)) w();
        if (opened) this.onclose?.(this.closedInfo);
      });
    });
  }

  private deliver(data: Uint8Array | Uint8Array[] | ArrayBuffer, isBinary: boolean): void {
    const bytes = bytesOf(data);
    const raw = UTF8.decode(bytes);
    this.onmessage?.(isBinary ? { raw, frame: undefined, binary: bytes } : { raw, frame: parseFrame(raw) });
  }

  /**
   * Sends one frame: a string as its exact text, an object as its `JSON.stringify`, bytes as a
   * binary frame. Returns false (and sends nothing) when the socket is not open.
   */
  send(frame: string | Record<string, unknown> | Uint8Array): boolean {
    const ws = this.socket;
    if (!ws || ws.readyState !== OPEN) return false;
    if (frame instanceof Uint8Array) ws.send(frame, { binary: true });
    else ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
    return true;
  }

  /**
   * Closes the connection and resolves once the socket is closed. Without `graceMs` the socket is
   * dropped at once; with it, the close handshake is sent (`code` and `reason`, if given; none
   * sends a close frame without a code) and the socket is dropped if the peer has not answered in
   * `graceMs`. Safe to call at any time, more than once.
   */
  close(opts: { code?: number; reason?: string; graceMs?: number } = {}): Promise<void> {
    const ws = this.socket;
    if (!ws || this.closedInfo || ws.readyState === CLOSED) return Promise.resolve();
    const done = new Promise<void>((resolve) => this.closeWaiters.push(resolve));
    if (opts.graceMs === undefined || ws.readyState !== OPEN) ws.terminate();
    else {
      if (opts.code === undefined) ws.close();
      else ws.close(opts.code, opts.reason);
      const timer = setTimeout(() => ws.terminate(), opts.graceMs);
      timer.unref?.();
      void done.then(() => clearTimeout(timer));
    }
    return done;
  }
}
