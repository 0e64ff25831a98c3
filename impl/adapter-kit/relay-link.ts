/**
 * The daemon's WebSocket binding to a relay's `/socket` (AEP-0003 §3.5, §4).
 * `hello` goes first; events wait in an outbox until the relay's hello answers ours; a lost
 * connection reconnects with exponential backoff (250 ms doubling to 10 s). Inbound frames that
 * are events (commands) go to `onCommand` with their exact text.
 */
import WebSocket from 'ws';

export interface RelayLinkOptions {
  /** Relay base URL (`http://host:port`, `ws://host:port`, or a full `.../socket` URL). */
  url: string;
  /** Bearer token for the relay, if any. Never logged. */
  token?: string;
  /** Our hello frame (already built). */
  hello: Record<string, unknown>;
  /** Called with every inbound event frame's exact text and parsed value. */
  onCommand(raw: string, value: Record<string, unknown>): void;
  /** Diagnostics for humans (never carries the token). */
  log(line: string): void;
  /** Called after each completed hello, after the outbox is flushed; `reconnect` is false the first time. */
  onReady?(reconnect: boolean): void;
  /** Outbox bound (default 10 000 events); the oldest is dropped beyond it (the JSONL log keeps it). */
  maxOutbox?: number;
}

/** `http://h:p` → `ws://h:p/socket`; a URL already ending in `/socket` is kept. */
export function socketUrl(base: string): string {
  const url = new URL(base);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  if (url.protocol === 'https:') url.protocol = 'wss:';
  if (!url.pathname.endsWith('/socket')) url.pathname = `${url.pathname.replace(/\/+$/, '')}/socket`;
  return url.toString();
}

export class RelayLink {
  private ws: WebSocket | null = null;
  private ready = false;
  private helloCount = 0;
  private closed = false;
  private backoff = 250;
  private timer: NodeJS.Timeout | null = null;
  private readonly outbox: string[] = [];

  constructor(private readonly opts: RelayLinkOptions) {
    this.connect();
  }

  /** True once the relay answered our hello on the current connection. */
  get connected(): boolean {
    return this.ready;
  }

  /** Send one event (its exact JSON text) now, or queue it until the hello completes. */
  send(line: string): void {
    if (this.ready && this.ws?.readyState === WebSocket.OPEN) {
      this.ws.send(line);
      return;
    }
    this.outbox.push(line);
    const max = this.opts.maxOutbox ?? 10_000;
    if (this.outbox.length > max) {
      this.outbox.shift();
      this.opts.log('relay outbox full: dropped the oldest queued event (it is still in the JSONL log)');
    }
  }

  /** Stop reconnecting and close the socket. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    const ws = this.ws;
    this.ws = null;
    this.ready = false;
    if (!ws || ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      ws.once('close', () => resolve());
      ws.terminate();
    });
  }

  private connect(): void {
    if (this.closed) return;
    const headers = this.opts.token ? { authorization: `Bearer ${this.opts.token}` } : undefined;
    const ws = new WebSocket(socketUrl(this.opts.url), headers ? { headers } : {});
    this.ws = ws;
    let retried = false;
    const retry = (why: string): void => {
      if (retried || this.closed) return;
      retried = true;
      this.ready = false;
      this.opts.log(`relay link down (${why}); reconnecting in ${this.backoff} ms`);
      this.timer = setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 10_000);
    };
    ws.on('open', () => ws.send(JSON.stringify(this.opts.hello)));
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const raw = data.toString();
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        return;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
      const frame = value as Record<string, unknown>;
      if (frame.type === 'hello' && !this.ready) {
        this.ready = true;
        this.backoff = 250;
        this.opts.log('relay link up (hello complete)');
        while (this.outbox.length > 0 && ws.readyState === WebSocket.OPEN) ws.send(this.outbox.shift()!);
        this.opts.onReady?.(this.helloCount++ > 0);
        return;
      }
      if (frame.type === 'error') {
        this.opts.log(`relay error frame: ${String(frame.code)}${frame.detail ? ` (${String(frame.detail)})` : ''}`);
        return;
      }
      if (typeof frame.aep === 'string' && typeof frame.type === 'string') this.opts.onCommand(raw, frame);
    });
    ws.on('error', (err) => retry(err.message));
    ws.on('close', (code) => retry(`closed ${code}`));
  }
}
