/**
 * The outbound sidecar engine shared by `aep bridge ce` and `aep bridge otlp`: subscribe to the
 * relay over SSE (filter, token, capture ceiling), drop events already delivered (Cursor), hand
 * batches to `deliver`, and never lose an event to a sink that is briefly down. Every identity
 * is scoped by the emitter: events by `(source, id)`, positions and gap judgements by
 * `(source, session)` (AEP-0001 §5.2, §7.4), so two sources sharing an id or a session name are
 * both delivered.
 *
 * - a batch is ACCEPTED only when `deliver` resolves; the cursor then records its positions;
 * - when `deliver` throws (sink down, 408, 429, 5xx, timeout) the relay subscription is closed
 *   (intake stops, memory stays bounded) and the same batch is retried with exponential backoff
 *   (`initialMs` doubling to `maxMs`), or after the sink's `Retry-After` when it sent one
 *   (RetryableDelivery.retryAfterMs), in order, until the sink accepts it;
 * - once everything pending is accepted, the sidecar resubscribes with `from=all`, and the
 *   cursor drops what was already delivered: the relay's replay buffer carries everything that
 *   arrived meanwhile. A relay that goes away is reconnected the same way.
 * If the sink stays down longer than the relay's buffer holds a session's events, the gap is
 * logged as `relay: replay-exhausted {session} {epoch}:{seq}` naming the earliest position still
 * held (it cannot invent the events). The relay answers `from=all` without that marker (AEP-0003
 * §5 rule 2), and a `from` position list would replay only the sessions listed (new sessions that
 * began while the sidecar was away would be lost), so the sidecar keeps `from=all` and judges the
 * gap itself, the way the relay judges a resume position: the first event a subscription carries
 * of a session the cursor knows must be at or before the cursor's position, or right after it.
 * With a `filter` the judgement is off (events the filter skips would look like a gap).
 *
 * Stopping (`close()`) never waits on a sink that is down: pending events stay undelivered (the
 * cursor does not record them, so a restart replays them), and an in-flight delivery is awaited
 * for at most `closeTimeoutMs`.
 */
import type { AepEvent } from '../../core/event.js';
import { Cursor, Intake } from './cursor.js';
import { RetryableDelivery } from './sink.js';
import type { SseMessage } from '../../relay-client/sse-parser.js';
import { subscribe, type SubscribeOptions } from '../../relay-client/subscription.js';

/**
 * One subscription through the relay client: `onMessage` for every message until the stream
 * ends, the signal aborts, or the connection fails. Resolves with why it ended; rejects only on a
 * refusal (non-200), with the relay's own `{error, detail}` in the message.
 */
async function subscribeOnce(opts: SubscribeOptions, onMessage: (m: SseMessage) => void, onComment: (text: string) => void, onOpen: () => void): Promise<string> {
  const opened = await subscribe(opts);
  if (!opened.ok) {
    if (opened.kind === 'refused') throw new Error(opened.reason);
    return opened.reason;
  }
  onOpen();
  for await (const item of opened.subscription) {
    if (item.kind === 'comment') onComment(item.text);
    else {
      const { kind: _kind, ...message } = item;
      onMessage(message);
    }
  }
  return opened.subscription.ended ?? 'stream ended';
}

export interface SidecarOptions {
  relay: string;
  token?: string;
  filter?: Record<string, unknown>;
  /** Capture ceiling asked of the relay (`capture=` on the stream). */
  capture?: string;
  /** Cursor file; without one the position lives in memory only (lost on restart). */
  statePath?: string;
  /** With no cursor yet, replay everything the relay holds (`from=all`) instead of starting live. */
  replay?: boolean;
  /** Called after each subscription opened (test and health hook). */
  onSubscribed?(): void;
  /** Events per delivery (1 for CloudEvents; OTLP batches). */
  batchSize: number;
  /** Longest an event waits for its batch to fill, in ms (0 = deliver at once). */
  batchMs: number;
  /** Delivers one batch; resolves when the sink accepted it, throws when it must be retried. */
  deliver(batch: AepEvent[]): Promise<void>;
  log(line: string): void;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** Longest `close()` waits for an in-flight delivery, in ms (default 2000). */
  closeTimeoutMs?: number;
}

export interface RunningSidecar {
  /** Events the sink accepted since start. */
  readonly delivered: () => number;
  /** Failed delivery attempts since start. */
  readonly failures: () => number;
  close(): Promise<void>;
}

/** Sleeps `ms`, or less when `signal` aborts; the abort listener goes when the sleep ends. */
export const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const onAbort = (): void => { clearTimeout(t); resolve(); };
    const t = setTimeout(() => { signal.removeEventListener('abort', onAbort); resolve(); }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** A relay message as the sidecar takes it (pure): an event with an id, nothing (skipped silently), or the log line of a message that is not JSON. */
export function readRelayMessage(m: SseMessage): { event: AepEvent } | { skip: string | null } {
  let event: AepEvent;
  try {
    event = JSON.parse(m.data) as AepEvent;
  } catch {
    return { skip: `relay sent a message that is not JSON (id ${m.id ?? 'none'}); skipped` };
  }
  if (typeof event !== 'object' || event === null || typeof event.id !== 'string') return { skip: null };
  return { event };
}

/** The subscription a (re)connect asks for (pure): `from=all` once the cursor can resume, or on the first `--replay` subscription. */
export function subscription(opts: SidecarOptions, resumable: boolean, subscribedOnce: boolean, signal: AbortSignal): Parameters<typeof subscribeOnce>[0] {
  return { relay: opts.relay, ...(opts.token ? { token: opts.token } : {}), ...(opts.filter ? { filter: opts.filter } : {}), ...(opts.capture ? { capture: opts.capture } : {}), ...(resumable || (opts.replay && !subscribedOnce) ? { from: 'all' as const } : {}), signal };
}

/** The sidecar's state and its three loops: intake (`onMessage`), delivery (`drain`), the relay subscription (`run`). */
class Sidecar {
  readonly cursor: Cursor;
  readonly stop = new AbortController();
  private readonly initial: number;
  private readonly max: number;
  private readonly intake: Intake;
  readonly pending: AepEvent[];
  delivered = 0;
  failures = 0;
  private connection: AbortController | null = null;
  flushing: Promise<void> | null = null;
  timer: NodeJS.Timeout | null = null;
  /** Gap judgement (see the header): off with a filter; the (source, session) pairs whose first event on this subscription was judged. */
  private readonly judge: boolean;
  private judged = new Set<string>();
  private subscribedOnce = false;

  constructor(private readonly opts: SidecarOptions) {
    this.cursor = new Cursor(opts.statePath);
    if (this.cursor.legacy) opts.log(`cursor ${opts.statePath ?? ''} was written by an older aep (positions per bare session, ids without their source): it cannot tell sources apart, so it is not used to skip anything; what the relay still holds is delivered again once, and the cursor is rewritten in the new format`);
    this.initial = opts.initialBackoffMs ?? 250;
    this.max = opts.maxBackoffMs ?? 30_000;
    this.intake = new Intake(this.cursor);
    this.pending = this.intake.queue;
    this.judge = !opts.filter || Object.keys(opts.filter).length === 0;
  }

  private async drain(): Promise<void> {
    const { opts, pending } = this;
    let backoff = this.initial;
    while (pending.length > 0 && !this.stop.signal.aborted) {
      const batch = pending.slice(0, opts.batchSize);
      try {
        await opts.deliver(batch);
      } catch (err) {
        this.failures += 1;
        // Stop intake: the relay keeps what arrives meanwhile; we resubscribe from our position.
        this.connection?.abort();
        const asked = err instanceof RetryableDelivery ? err.retryAfterMs : undefined;
        const wait = asked ?? backoff;
        opts.log(`sink delivery failed (${(err as Error).message}); retrying ${batch.length} event(s) in ${wait} ms${asked !== undefined ? ' (the sink\'s Retry-After)' : ''}`);
        await sleep(wait, this.stop.signal);
        backoff = Math.min(backoff * 2, this.max);
        continue;
      }
      backoff = this.initial;
      this.intake.accepted(batch.length);
      this.delivered += batch.length;
      if (pending.length < opts.batchSize) break;
    }
  }

  flush(): void {
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    if (this.flushing) return;
    this.flushing = this.drain().finally(() => {
      this.flushing = null;
      if (this.stop.signal.aborted) return; // stopped: what is pending stays for the next start
      if (this.pending.length >= this.opts.batchSize) this.flush();
      else if (this.pending.length > 0) this.schedule();
    });
  }

  private schedule(): void {
    if (this.stop.signal.aborted) return;
    if (this.pending.length >= this.opts.batchSize || this.opts.batchMs <= 0) return this.flush();
    if (!this.timer) this.timer = setTimeout(() => this.flush(), this.opts.batchMs);
  }

  private onMessage(m: SseMessage): void {
    const read = readRelayMessage(m);
    if (!('event' in read)) {
      if (read.skip !== null) this.opts.log(read.skip);
      return;
    }
    const event = read.event;
    const stream = `${String(event.source)}\u0000${String(event.session)}`;
    if (this.judge && typeof event.session === 'string' && typeof event.seq === 'number' && !this.judged.has(stream)) {
      this.judged.add(stream);
      const gap = this.cursor.gapBefore(event);
      if (gap) {
        this.opts.log(`relay: replay-exhausted ${event.session} ${gap.earliest.epoch}:${gap.earliest.seq}: the relay no longer held the events after ${gap.after.epoch}:${gap.after.seq} up to that position; they were not delivered`);
      }
    }
    if (this.intake.offer(event)) this.schedule();
  }

  private onComment(text: string): void {
    if (text.startsWith('replay-exhausted')) this.opts.log(`relay: ${text}: events before that position were no longer held and were not delivered`);
  }

  /** Subscribe, take events, and on every end let the sink take what is pending, then resubscribe (with backoff unless we closed it). */
  async run(): Promise<void> {
    const { stop, opts } = this;
    let backoff = this.initial;
    while (!stop.signal.aborted) {
      const connection = (this.connection = new AbortController());
      this.judged = new Set();
      const both = AbortSignal.any([stop.signal, connection.signal]);
      let why: string;
      try {
        why = await subscribeOnce(
          subscription(opts, this.cursor.resumable, this.subscribedOnce, both),
          (m) => { backoff = this.initial; this.onMessage(m); },
          (text) => this.onComment(text),
          () => { this.subscribedOnce = true; opts.onSubscribed?.(); },
        );
      } catch (err) {
        why = (err as Error).message;
      }
      if (stop.signal.aborted) break;
      // Intake stopped: let the sink take everything pending first, then resubscribe.
      while ((this.flushing || this.pending.length > 0) && !stop.signal.aborted) {
        if (!this.flushing) this.flush();
        await this.flushing;
      }
      if (connection.signal.aborted) continue; // we closed it for a failing sink: resume now
      opts.log(`relay subscription ended (${why}); resubscribing in ${backoff} ms`);
      await sleep(backoff, stop.signal);
      backoff = Math.min(backoff * 2, this.max);
    }
  }
}

export function startSidecar(opts: SidecarOptions): RunningSidecar {
  const sidecar = new Sidecar(opts);
  const loop = sidecar.run();
  return {
    delivered: () => sidecar.delivered,
    failures: () => sidecar.failures,
    async close() {
      sidecar.stop.abort();
      if (sidecar.timer) clearTimeout(sidecar.timer);
      const bound = new AbortController();
      const inFlight = (async () => {
        await loop;
        await sidecar.flushing;
      })();
      let settled = false;
      await Promise.race([inFlight.then(() => void (settled = true)), sleep(opts.closeTimeoutMs ?? 2_000, bound.signal)]);
      bound.abort();
      if (!settled) opts.log(`stopped with a delivery still in flight after ${opts.closeTimeoutMs ?? 2_000} ms; if the sink accepts it, the cursor may not record it and the next start delivers it again`);
      if (sidecar.pending.length > 0) opts.log(`stopped with ${sidecar.pending.length} event(s) not yet accepted by the sink; the cursor does not record them, so the next start replays what the relay still holds`);
    },
  };
}
