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
import type { AepEvent } from '../core/event.js';
import { Cursor, Intake } from './cursor.js';
import { RetryableDelivery } from './sink.js';
import type { SseMessage } from '../relay-client/sse-parser.js';
import { subscribe, type SubscribeOptions } from '../relay-client/subscription.js';

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

export function startSidecar(opts: SidecarOptions): RunningSidecar {
  const cursor = new Cursor(opts.statePath);
  if (cursor.legacy) opts.log(`cursor ${opts.statePath ?? ''} was written by an older aep (positions per bare session, ids without their source): it cannot tell sources apart, so it is not used to skip anything; what the relay still holds is delivered again once, and the cursor is rewritten in the new format`);
  const stop = new AbortController();
  const initial = opts.initialBackoffMs ?? 250;
  const max = opts.maxBackoffMs ?? 30_000;
  const intake = new Intake(cursor);
  const pending = intake.queue;
  let delivered = 0;
  let failures = 0;
  let connection: AbortController | null = null;
  let flushing: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;

  async function drain(): Promise<void> {
    let backoff = initial;
    while (pending.length > 0 && !stop.signal.aborted) {
      const batch = pending.slice(0, opts.batchSize);
      try {
        await opts.deliver(batch);
      } catch (err) {
        failures += 1;
        // Stop intake: the relay keeps what arrives meanwhile; we resubscribe from our position.
        connection?.abort();
        const asked = err instanceof RetryableDelivery ? err.retryAfterMs : undefined;
        const wait = asked ?? backoff;
        opts.log(`sink delivery failed (${(err as Error).message}); retrying ${batch.length} event(s) in ${wait} ms${asked !== undefined ? ' (the sink\'s Retry-After)' : ''}`);
        await sleep(wait, stop.signal);
        backoff = Math.min(backoff * 2, max);
        continue;
      }
      backoff = initial;
      intake.accepted(batch.length);
      delivered += batch.length;
      if (pending.length < opts.batchSize) break;
    }
  }

  function flush(): void {
    if (timer) { clearTimeout(timer); timer = null; }
    if (flushing) return;
    flushing = drain().finally(() => {
      flushing = null;
      if (stop.signal.aborted) return; // stopped: what is pending stays for the next start
      if (pending.length >= opts.batchSize) flush();
      else if (pending.length > 0) schedule();
    });
  }

  function schedule(): void {
    if (stop.signal.aborted) return;
    if (pending.length >= opts.batchSize || opts.batchMs <= 0) return flush();
    if (!timer) timer = setTimeout(flush, opts.batchMs);
  }

  function onMessage(m: SseMessage): void {
    let event: AepEvent;
    try {
      event = JSON.parse(m.data) as AepEvent;
    } catch {
      opts.log(`relay sent a message that is not JSON (id ${m.id ?? 'none'}); skipped`);
      return;
    }
    if (typeof event !== 'object' || event === null || typeof event.id !== 'string') return;
    const stream = `${String(event.source)}\u0000${String(event.session)}`;
    if (judge && typeof event.session === 'string' && typeof event.seq === 'number' && !judged.has(stream)) {
      judged.add(stream);
      const gap = cursor.gapBefore(event);
      if (gap) {
        opts.log(`relay: replay-exhausted ${event.session} ${gap.earliest.epoch}:${gap.earliest.seq}: the relay no longer held the events after ${gap.after.epoch}:${gap.after.seq} up to that position; they were not delivered`);
      }
    }
    if (intake.offer(event)) schedule();
  }

  /** Gap judgement (see the header): (source, session) pairs whose first event on this subscription was judged. */
  const judge = !opts.filter || Object.keys(opts.filter).length === 0;
  let judged = new Set<string>();

  function onComment(text: string): void {
    if (text.startsWith('replay-exhausted')) opts.log(`relay: ${text}: events before that position were no longer held and were not delivered`);
  }

  let subscribedOnce = false;
  const loop = (async () => {
    let backoff = initial;
    while (!stop.signal.aborted) {
      connection = new AbortController();
      judged = new Set();
      const both = AbortSignal.any([stop.signal, connection.signal]);
      let why: string;
      try {
        why = await subscribeOnce(
          { relay: opts.relay, ...(opts.token ? { token: opts.token } : {}), ...(opts.filter ? { filter: opts.filter } : {}), ...(opts.capture ? { capture: opts.capture } : {}), ...(cursor.resumable || (opts.replay && !subscribedOnce) ? { from: 'all' as const } : {}), signal: both },
          (m) => { backoff = initial; onMessage(m); },
          onComment,
          () => { subscribedOnce = true; opts.onSubscribed?.(); },
        );
      } catch (err) {
        why = (err as Error).message;
      }
      if (stop.signal.aborted) break;
      // Intake stopped: let the sink take everything pending first, then resubscribe.
      while ((flushing || pending.length > 0) && !stop.signal.aborted) {
        if (!flushing) flush();
        await flushing;
      }
      if (connection.signal.aborted) continue; // we closed it for a failing sink: resume now
      opts.log(`relay subscription ended (${why}); resubscribing in ${backoff} ms`);
      await sleep(backoff, stop.signal);
      backoff = Math.min(backoff * 2, max);
    }
  })();

  return {
    delivered: () => delivered,
    failures: () => failures,
    async close() {
      stop.abort();
      if (timer) clearTimeout(timer);
      const bound = new AbortController();
      const inFlight = (async () => {
        await loop;
        await flushing;
      })();
      let settled = false;
      await Promise.race([inFlight.then(() => void (settled = true)), sleep(opts.closeTimeoutMs ?? 2_000, bound.signal)]);
      bound.abort();
      if (!settled) opts.log(`stopped with a delivery still in flight after ${opts.closeTimeoutMs ?? 2_000} ms; if the sink accepts it, the cursor may not record it and the next start delivers it again`);
      if (pending.length > 0) opts.log(`stopped with ${pending.length} event(s) not yet accepted by the sink; the cursor does not record them, so the next start replays what the relay still holds`);
    },
  };
}
