/**
 * The daemon's WebSocket binding to a relay's `/socket` (AEP-0003 §3.5, §4).
 * `hello` goes first; events wait in an outbox until the relay's hello answers ours; a lost
 * connection reconnects with exponential backoff (250 ms doubling to 10 s). Inbound frames that
 * are events (commands) go to `onCommand` with their exact text.
 *
 * What the outbox holds: every event not yet handed to a live connection, plus, when the relay
 * declares `experimental["pong-acks"]` in its hello, every event sent but not yet acknowledged.
 * AEP-0003 defines no per-event acknowledgement on the WebSocket; what it does define is the
 * `ping`/`pong` exchange on an ordered connection, so a `pong` answering our `ping` acknowledges
 * every event sent before that ping (the relay processed each: admitted or refused in-band). A
 * lost connection puts the unacknowledged events back at the head of the outbox, in order, and
 * the next connection resends them first (the relay's buffer dedupes on `(source, id)`,
 * AEP-0001 §7.4). Without that declaration the link keeps no unacknowledged events (it cannot
 * tell which arrived) and sends no pings.
 *
 * Bound (AEP-0003 §8.4): at most `maxOutbox` events (default 10 000) are held in all. Beyond it
 * the oldest `debug`/`info` event is dropped first (a missing severity counts as `info`); only
 * when none is left does the oldest `notice`-or-above go. Every drop is counted (`dropped`) and
 * logged (the first, then every 1000th); the JSONL log keeps every event.
 *
 * Link state (`state`): `connecting` until the first attempt ends, `up` once the relay's hello
 * answered ours, `down` (with the reason) between attempts, and `refused` when the relay answered
 * the upgrade with 401 or 403: it does not accept our token. A refusal is logged once, plainly
 * ("token refused"), and the link keeps retrying quietly at the longest backoff (10 s), so a relay
 * restarted with the right token is joined without a restart here; events wait in the outbox
 * meanwhile. Any other failure is logged when its reason changes, not on every retry.
 *
 * Hurry (`hurry(forMs)`): while a held request waits for the link (the daemon's link grace), the
 * reconnect waits are at most {@link HURRY_MS}, and a wait already longer is brought forward, so a
 * relay back after a restart is joined within half a second, not after a backoff of up to 10 s.
 *
 * The link is a policy (outbox, acks, reconnect) over impl/relay-client's `RelayTransport`, one
 * transport per attempt. Constructing it connects nothing: `start()` does. The socket factory is
 * injectable (`socket`), so a test drives a fake socket.
 */
import type { HelloFrame } from '../relay-client/hello.js';
import { RelayTransport, TransportError, socketUrl, type SocketFactory } from '../relay-client/transport.js';

export { socketUrl };

export interface RelayLinkOptions {
  /** Relay base URL (`http://host:port`, `ws://host:port`, or a full `.../socket` URL). */
  url: string;
  /** Bearer token for the relay, if any. Never logged. */
  token?: string;
  /** Our hello frame (built by impl/relay-client's `buildHello`). */
  hello: HelloFrame | Record<string, unknown>;
  /** Called with every inbound event frame's exact text and parsed value. */
  onCommand(raw: string, value: Record<string, unknown>): void;
  /** Diagnostics for humans (never carries the token). */
  log(line: string): void;
  /** Called after each completed hello, after the outbox is flushed; `reconnect` is false the first time. */
  onReady?(reconnect: boolean): void;
  /** Outbox bound (default 10 000 events), unacknowledged events included; see the module comment. */
  maxOutbox?: number;
  /** How long after a send the acknowledging `ping` goes out, in ms (default 25): sends in between share it. */
  ackDelayMs?: number;
  /** The quiet retry interval after the relay refused the token, in ms (default 10 000). */
  refusedRetryMs?: number;
  /** The socket factory (default: the `ws` package). */
  socket?: SocketFactory;
}

/** Where the link stands (see the module comment). */
export type LinkState =
  | { status: 'connecting' }
  | { status: 'up' }
  | { status: 'down'; reason: string }
  | { status: 'refused'; httpStatus: number };

/** One line for a person: `up`, `down (closed 1006)`, `token refused (HTTP 401)`. */
export function describeLinkState(state: LinkState): string {
  switch (state.status) {
    case 'up':
      return 'up';
    case 'connecting':
      return 'connecting';
    case 'down':
      return `down (${state.reason})`;
    case 'refused':
      return `token refused (HTTP ${state.httpStatus})`;
  }
}

/** The longest reconnect wait while hurried (see the module comment), in ms. */
export const HURRY_MS = 500;

interface Entry {
  readonly line: string;
  /** Send order, for acknowledgement. */
  readonly n: number;
  /** Whether it is debug/info (computed when first needed). */
  droppable?: boolean;
}

/** Whether an event line is `debug`/`info` (or carries no severity): what a full outbox drops first. */
export function isDroppableLine(line: string): boolean {
  try {
    const severity = (JSON.parse(line) as { severity?: unknown }).severity;
    return severity === undefined || severity === 'debug' || severity === 'info';
  } catch {
    return true;
  }
}

/** Drop counters of the outbox bound. */
export interface OutboxDrops {
  /** `debug`/`info` events dropped. */
  debugInfo: number;
  /** `notice`-or-above events dropped (only when no debug/info event was left to drop). */
  other: number;
}

export class RelayLink {
  private transport: RelayTransport | null = null;
  private started = false;
  private ready = false;
  private helloCount = 0;
  private closed = false;
  private backoff = 250;
  private timer: NodeJS.Timeout | null = null;
  /** When the pending reconnect attempt is due (epoch ms). */
  private dueAt = 0;
  /** Until when reconnect waits are at most HURRY_MS (epoch ms). */
  private hurryUntil = 0;
  /** Not yet handed to a live connection, in order. */
  private readonly outbox: Entry[] = [];
  /** Sent on the current connection, not yet acknowledged by a pong (only with pong-acks). */
  private unacked: Entry[] = [];
  private acks = false;
  private counter = 0;
  private pingTimer: NodeJS.Timeout | null = null;
  /** The ping in flight: its `t`, and the last entry it acknowledges. */
  private inflight: { t: string; upTo: number } | null = null;
  private pings = 0;
  /** Drop counters (see the module comment). */
  readonly dropped: OutboxDrops = { debugInfo: 0, other: 0 };
  private linkState: LinkState = { status: 'connecting' };
  /** The last failure logged, so a repeated one is not logged again. */
  private lastLogged: string | null = null;

  /** Connects nothing: call {@link start}. */
  constructor(private readonly opts: RelayLinkOptions) {}

  /** Starts connecting (and reconnecting until `close()`). Idempotent; events sent before it are held. */
  start(): this {
    if (!this.started) {
      this.started = true;
      this.connect();
    }
    return this;
  }

  /** True once the relay answered our hello on the current connection. */
  get connected(): boolean {
    return this.ready;
  }

  /** Where the link stands: connecting, up, down (why) or refused (the relay does not accept our token). */
  get state(): LinkState {
    return this.linkState;
  }

  /** Events held: queued plus sent-but-unacknowledged. */
  get pending(): number {
    return this.outbox.length + this.unacked.length;
  }

  /** Send one event (its exact JSON text) now, or queue it until the hello completes. */
  send(line: string): void {
    const entry: Entry = { line, n: ++this.counter };
    if (this.ready && this.transport?.send(line)) {
      if (this.acks) {
        this.unacked.push(entry);
        this.schedulePing();
        this.trim();
      }
      return;
    }
    this.outbox.push(entry);
    this.trim();
  }

  /**
   * Reconnect promptly for the next `forMs` ms: waits of at most {@link HURRY_MS}, and a pending
   * longer wait brought forward. Nothing changes while the link is up, closed, or refused (a
   * refused token is not fixed by asking sooner).
   */
  hurry(forMs: number): void {
    if (this.closed || this.ready || this.linkState.status === 'refused') return;
    const now = Date.now();
    this.hurryUntil = Math.max(this.hurryUntil, now + forMs);
    if (this.timer !== null && this.dueAt - now > HURRY_MS) this.schedule(HURRY_MS);
  }

  /** The next attempt in `ms`, replacing any pending one. */
  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.dueAt = Date.now() + ms;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect();
    }, ms);
  }

  /** Stop reconnecting and close the socket. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.pingTimer) clearTimeout(this.pingTimer);
    const transport = this.transport;
    this.transport = null;
    this.ready = false;
    await transport?.close();
  }

  /** Enforce `maxOutbox`: drop the oldest debug/info queued event first, then the oldest queued. */
  private trim(): void {
    const max = this.opts.maxOutbox ?? 10_000;
    while (this.outbox.length + this.unacked.length > max) {
      if (this.outbox.length === 0) {
        // Everything held was sent: stop tracking the oldest (it may have arrived; it cannot be resent).
        this.unacked.shift();
        continue;
      }
      let at = this.outbox.findIndex((e) => (e.droppable ??= isDroppableLine(e.line)));
      const droppable = at >= 0;
      if (!droppable) at = 0;
      this.outbox.splice(at, 1);
      if (droppable) this.dropped.debugInfo++;
      else this.dropped.other++;
      const total = this.dropped.debugInfo + this.dropped.other;
      if (total === 1 || total % 1000 === 0) {
        this.opts.log(`relay outbox full (${max} events): dropped ${this.dropped.debugInfo} debug/info and ${this.dropped.other} notice-or-above events so far, oldest debug/info first (they are still in the JSONL log)`);
      }
    }
  }

  private schedulePing(): void {
    if (!this.acks || this.pingTimer || this.inflight || this.unacked.length === 0) return;
    this.pingTimer = setTimeout(() => {
      this.pingTimer = null;
      const transport = this.transport;
      if (!this.ready || !transport?.isOpen || this.unacked.length === 0) return;
      const t = `ack:${++this.pings}`;
      this.inflight = { t, upTo: this.unacked[this.unacked.length - 1]!.n };
      transport.send(JSON.stringify({ type: 'ping', t }));
    }, this.opts.ackDelayMs ?? 25);
    this.pingTimer.unref?.();
  }

  private onPong(t: unknown): void {
    const inflight = this.inflight;
    if (!inflight || t !== inflight.t) return;
    this.inflight = null;
    let k = 0;
    while (k < this.unacked.length && this.unacked[k]!.n <= inflight.upTo) k++;
    this.unacked.splice(0, k);
    this.schedulePing();
  }

  /** One attempt: a new transport, our hello on open, frames until it ends, then a retry. */
  private connect(): void {
    if (this.closed) return;
    const t = new RelayTransport({ url: socketUrl(this.opts.url), ...(this.opts.token ? { token: this.opts.token } : {}), ...(this.opts.socket ? { socket: this.opts.socket } : {}) });
    this.transport = t;
    let retried = false;
    const retry = (why: string, refusedWith: number | null = null): void => {
      if (retried || this.closed) return;
      retried = true;
      this.retry(why, refusedWith);
    };
    t.onmessage = (m) => {
      if (m.binary === undefined && m.frame !== undefined) this.onFrame(t, m.raw, m.frame);
    };
    t.onerror = (err) => retry(err.message);
    t.onclose = ({ code }) => retry(`closed ${code}`);
    t.start().then(
      () => void t.send(JSON.stringify(this.opts.hello)),
      (err: unknown) => {
        const f = err instanceof TransportError ? err.failure : { kind: 'unreachable' as const, message: String(err), cause: new Error(String(err)) };
        // 401/403: the relay does not accept our token.
        const refused = f.kind === 'refused' && (f.status === 401 || f.status === 403) ? f.status : null;
        retry(refused !== null ? `token refused (HTTP ${refused})` : f.message, refused);
      },
    );
  }

  /** The attempt ended (`refusedWith`: the HTTP status of a refused upgrade): requeue, log, schedule. */
  private retry(why: string, refusedWith: number | null): void {
    this.ready = false;
    this.inflight = null;
    if (this.pingTimer) clearTimeout(this.pingTimer);
    this.pingTimer = null;
    // What the relay did not acknowledge goes back to the head of the outbox, in order.
    if (this.unacked.length > 0) {
      this.outbox.unshift(...this.unacked);
      this.unacked = [];
    }
    if (refusedWith !== null) {
      this.linkState = { status: 'refused', httpStatus: refusedWith };
      // Said once; the retries after it are quiet and at the longest backoff.
      const every = this.opts.refusedRetryMs ?? 10_000;
      const line = `relay refused the token (HTTP ${refusedWith}) at ${socketUrl(this.opts.url)}: set AEP_TOKEN (or --token) to the relay's token; events are kept in the session log and held for delivery, and the link retries quietly every ${every / 1000} s`;
      if (this.lastLogged !== 'refused') this.opts.log(this.opts.token ? line : line.replace('relay refused the token', 'relay refused the connection: no token was given'));
      this.lastLogged = 'refused';
      this.schedule(every);
      return;
    }
    this.linkState = { status: 'down', reason: why };
    if (this.lastLogged !== why) this.opts.log(`relay link down (${why}); reconnecting with backoff (up to 10 s), logged again only if the reason changes`);
    this.lastLogged = why;
    this.schedule(Date.now() < this.hurryUntil ? Math.min(this.backoff, HURRY_MS) : this.backoff);
    this.backoff = Math.min(this.backoff * 2, 10_000);
  }

  /** One inbound JSON-object frame on transport `t`. */
  private onFrame(t: RelayTransport, raw: string, frame: Record<string, unknown>): void {
    if (frame.type === 'hello' && !this.ready) {
      this.ready = true;
      this.backoff = 250;
      this.linkState = { status: 'up' };
      this.lastLogged = null;
      const caps = frame.capabilities as { experimental?: Record<string, unknown> } | undefined;
      this.acks = typeof caps?.experimental === 'object' && caps.experimental !== null && 'pong-acks' in caps.experimental;
      const resent = this.outbox.length;
      this.opts.log(`relay link up (hello complete${resent > 0 ? `; sending ${resent} held events` : ''})`);
      while (this.outbox.length > 0 && t.isOpen) {
        const entry = this.outbox.shift()!;
        t.send(entry.line);
        if (this.acks) this.unacked.push(entry);
      }
      this.schedulePing();
      this.opts.onReady?.(this.helloCount++ > 0);
      return;
    }
    if (frame.type === 'pong') return this.onPong(frame.t);
    if (frame.type === 'error') {
      this.opts.log(`relay error frame: ${String(frame.code)}${frame.detail ? ` (${String(frame.detail)})` : ''}`);
      return;
    }
    if (typeof frame.aep === 'string' && typeof frame.type === 'string') this.opts.onCommand(raw, frame);
  }
}
