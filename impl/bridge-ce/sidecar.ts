/**
 * The outbound sidecar engine shared by `aep bridge ce` and `aep bridge otlp`: subscribe to the
 * relay over SSE (filter, token, capture ceiling), drop events already delivered (Cursor), hand
 * batches to `deliver`, and never lose an event to a sink that is briefly down:
 *
 * - a batch is ACCEPTED only when `deliver` resolves; the cursor then records its positions;
 * - when `deliver` throws (sink down, 5xx, timeout) the relay subscription is closed (intake
 *   stops, memory stays bounded) and the same batch is retried with exponential backoff
 *   (`initialMs` doubling to `maxMs`), in order, until the sink accepts it;
 * - once everything pending is accepted, the sidecar resubscribes with `from=all`, and the
 *   cursor drops what was already delivered: the relay's replay buffer carries everything that
 *   arrived meanwhile. A relay that goes away is reconnected the same way.
 * If the sink stays down longer than the relay's buffer holds a session's events, the relay says
 * `: replay-exhausted` on resubscription; the sidecar logs that gap (it cannot invent the events).
 */
import type { AepEvent } from '../core/event.js';
import { Cursor } from './cursor.js';
import { subscribeOnce, type SseMessage } from './sse-client.js';

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
}

export interface RunningSidecar {
  /** Events the sink accepted since start. */
  readonly delivered: () => number;
  /** Failed delivery attempts since start. */
  readonly failures: () => number;
  close(): Promise<void>;
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => { clearTimeout(t); resolve(); }, { once: true });
  });

export function startSidecar(opts: SidecarOptions): RunningSidecar {
  const cursor = new Cursor(opts.statePath);
  const stop = new AbortController();
  const initial = opts.initialBackoffMs ?? 250;
  const max = opts.maxBackoffMs ?? 30_000;
  const pending: AepEvent[] = [];
  const pendingIds = new Set<string>();
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
        opts.log(`sink delivery failed (${(err as Error).message}); retrying ${batch.length} event(s) in ${backoff} ms`);
        await sleep(backoff, stop.signal);
        backoff = Math.min(backoff * 2, max);
        continue;
      }
      backoff = initial;
      pending.splice(0, batch.length);
      for (const e of batch) pendingIds.delete(e.id);
      cursor.accept(batch);
      delivered += batch.length;
      if (pending.length < opts.batchSize) break;
    }
  }

  function flush(): void {
    if (timer) { clearTimeout(timer); timer = null; }
    if (flushing) return;
    flushing = drain().finally(() => {
      flushing = null;
      if (pending.length >= opts.batchSize) flush();
      else if (pending.length > 0) schedule();
    });
  }

  function schedule(): void {
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
    if (cursor.seen(event) || pendingIds.has(event.id)) return;
    pending.push(event);
    pendingIds.add(event.id);
    schedule();
  }

  function onComment(text: string): void {
    if (text.startsWith('replay-exhausted')) opts.log(`relay: ${text}: events before that position were no longer held and were not delivered`);
  }

  let subscribedOnce = false;
  const loop = (async () => {
    let backoff = initial;
    while (!stop.signal.aborted) {
      connection = new AbortController();
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
      await loop;
      await flushing;
    },
  };
}
