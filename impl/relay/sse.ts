/**
 * `GET /stream` (AEP-0003 §3.3): one SSE subscription per request. The request is judged
 * before any header is sent; then exhaustion markers, the replay, and live delivery follow
 * in that order, with a `: ping` comment every `heartbeatMs`. The sequence, the queue behind
 * the replay and the slow-consumer rule are the hub's `Subscription` (subscription.ts); this
 * file is its SSE writer: the bytes, the chunking, the heartbeat and the goodbyes.
 *
 * Live messages of one fan-out (a whole `POST /events` batch) are held (as records) and written
 * as one chunk when the hub flushes the subscription: one string built and encoded once per batch
 * and ceiling, shared by the streams that selected the same events (`sse-bytes.ts`); the bytes of
 * each message are unchanged.
 *
 * Replay (AEP-0003 §5) is streamed in chunks of about `REPLAY_CHUNK` characters, each written
 * after the previous one drained, so a replay of any size goes out; live events that arrive
 * meanwhile wait in order and follow it. A resume into a session held nowhere gets its
 * `replay-exhausted` marker before the first event delivered, unless that event follows it.
 *
 * Backpressure (AEP-0003 §8.4): nothing is dropped silently. While more than `slowBytes` (default
 * `SLOW_BYTES`) wait unsent (queued on the response, plus the received text of the events held
 * for the current batch, counted in characters since they are not encoded until `flush`; or
 * queued behind a replay), the next event ends the stream with `: slow-consumer`, so the consumer
 * resumes exactly from its `Last-Event-ID`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CaptureLevel } from '../core/event.js';
import type { Received } from './buffer.js';
import type { RelayConfig } from './config.js';
import { corsFor, sendJson } from './http-util.js';
import type { HubLike } from './hub.js';
import type { Position } from './positions.js';
import { renderAt } from './render.js';
import { batchBytes, type SharedBatches } from './sse-bytes.js';
import { SSE_PING, SSE_REPLAY_COMPLETE, SSE_SHUTTING_DOWN, SSE_SLOW_CONSUMER, sseEvent, sseExhausted } from './sse-format.js';
import { parseStreamQuery, type StreamRequest } from './stream-query.js';
import type { EndReason, ExhaustedMarker, Subscription, SubscriptionWriter } from './subscription.js';

/** Default unsent bytes above which a consumer counts as slow. */
export const SLOW_BYTES = 8 * 1024 * 1024;

/** The open SSE streams, so shutdown can say goodbye to each. */
export class SseStreams {
  readonly #open = new Set<() => void>();

  get size(): number {
    return this.#open.size;
  }

  /** Register a stream's shutdown action; returns the unregister function. */
  add(shutdown: () => void): () => void {
    this.#open.add(shutdown);
    return () => this.#open.delete(shutdown);
  }

  /** Send `: shutting-down` to every stream and end it. Call once, when the relay stops. */
  shutdownAll(): void {
    for (const s of [...this.#open]) s();
  }
}

export function handleStream(req: IncomingMessage, res: ServerResponse, url: URL, config: RelayConfig, hub: HubLike, streams: SseStreams, slowBytes = SLOW_BYTES): void {
  const lastEventId = req.headers['last-event-id'];
  const query = parseStreamQuery(url.searchParams, typeof lastEventId === 'string' ? lastEventId : undefined, config.maxFrom);
  if (!query.ok) return sendJson(res, 400, { error: query.code, detail: query.detail });
  openStream(req, res, query.request, config, hub, streams, slowBytes);
}

/** Replay text is written in chunks of about this many characters, each waiting for the previous to drain. */
export const REPLAY_CHUNK = 64 * 1024;

function openStream(req: IncomingMessage, res: ServerResponse, request: StreamRequest, config: RelayConfig, hub: HubLike, streams: SseStreams, slowBytes: number): void {
  res.writeHead(200, {
    ...corsFor(res),
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
  req.socket.setNoDelay(true);

  const writer = new SseWriter(res, request.ceiling, () => close());
  const heartbeat = setInterval(() => res.write(SSE_PING), config.heartbeatMs);
  heartbeat.unref();
  const unregister = streams.add(() => {
    if (writer.closed) return;
    res.write(SSE_SHUTTING_DOWN);
    close();
  });
  let sub: Subscription | undefined;
  function close(): void {
    if (writer.closed) return;
    writer.closed = true;
    clearInterval(heartbeat);
    sub?.close();
    unregister();
    res.end();
  }
  res.once('close', close);
  res.on('error', close);
  sub = hub.subscribe({ filter: request.filter, match: request.match, ceiling: request.ceiling, replay: request.replay, live: request.live, slowBytes }, writer);
  // A non-live replay that went out whole within `subscribe` already ended the stream (and its subscription).
  if (writer.closed) sub.close();
}

/**
 * SSE bytes for one subscription (AEP-0003 §3.3). Replay text is gathered into chunks of about
 * `REPLAY_CHUNK` characters, each written as one string, the next once it drained. Live messages
 * of one fan-out are the shared bytes of `sse-bytes.ts`, held and written as one chunk on `flush`.
 */
export class SseWriter implements SubscriptionWriter {
  /** Set once the stream is closing: nothing more is written. */
  closed = false;
  /** Replay text not written yet. */
  #chunk = '';
  /**
   * The records of the current fan-out, written as one chunk by `flush`, and their received
   * text's length in characters (counted, not encoded: the unsent-bytes estimate for them).
   */
  #held: Received[] = [];
  #heldChars = 0;
  /** Whether `#held` is a fan-out's selection shared with other writers (`liveAll`): copied before a push. */
  #heldShared = false;
  /** Gap markers owed before some held records (a resume after a restart; rare): index in `#held` to position. */
  #gaps: Map<number, Position> | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly ceiling: CaptureLevel | undefined,
    private readonly close: () => void,
  ) {}

  bufferedBytes(): number {
    return this.res.writableLength + this.#heldChars;
  }

  exhausted(markers: readonly ExhaustedMarker[]): void {
    let text = '';
    for (const m of markers) text += sseExhausted(m.session, m.earliest);
    if (text !== '') this.res.write(text);
  }

  replay(rec: Received, gap: Position | undefined): boolean {
    this.#chunk += `${gap && typeof rec.event.session === 'string' ? sseExhausted(rec.event.session, gap) : ''}${sseEvent(rec.event, renderAt(rec, this.ceiling))}`;
    return this.#chunk.length >= REPLAY_CHUNK ? this.replayEnd() : true;
  }

  replayEnd(): boolean {
    if (this.#chunk === '' || this.closed) return true;
    const ok = this.res.write(this.#chunk);
    this.#chunk = '';
    return ok;
  }

  drained(): Promise<void> {
    return drained(this.res);
  }

  live(rec: Received, gap: Position | undefined): void {
    if (gap && typeof rec.event.session === 'string') (this.#gaps ??= new Map()).set(this.#held.length, gap);
    if (this.#heldShared) this.#unshare();
    this.#held.push(rec);
    this.#heldChars += rec.raw.length;
  }

  liveAll(recs: readonly Received[]): void {
    let chars = 0;
    for (let i = 0; i < recs.length; i++) chars += recs[i]!.raw.length;
    this.#heldChars += chars;
    if (this.#held.length === 0) {
      // Held by reference: the writers of the same selection then share its encoded bytes at once (`batchBytes`).
      this.#held = recs as Received[];
      this.#heldShared = true;
      return;
    }
    if (this.#heldShared) this.#unshare();
    for (let i = 0; i < recs.length; i++) this.#held.push(recs[i]!);
  }

  #unshare(): void {
    this.#held = this.#held.slice();
    this.#heldShared = false;
  }

  flush(shared?: unknown[]): void {
    if (this.#held.length === 0) return;
    const recs = this.#held;
    const gaps = this.#gaps;
    this.#held = [];
    this.#heldChars = 0;
    this.#heldShared = false;
    this.#gaps = undefined;
    if (this.closed) return;
    // The batch's bytes, shared with every stream that selected the same records at this ceiling,
    // unless a gap marker must precede one of its messages on this stream.
    this.res.write(gaps === undefined ? batchBytes(recs, this.ceiling, shared as SharedBatches | undefined) : this.#withGaps(recs, gaps));
  }

  #withGaps(recs: readonly Received[], gaps: ReadonlyMap<number, Position>): string {
    let text = '';
    for (let i = 0; i < recs.length; i++) {
      const rec = recs[i]!;
      const gap = gaps.get(i);
      if (gap) text += sseExhausted(rec.event.session as string, gap);
      text += sseEvent(rec.event, renderAt(rec, this.ceiling));
    }
    return text;
  }

  end(reason: EndReason): void {
    if (this.closed) return;
    if (reason === 'replay-complete') {
      this.res.write(SSE_REPLAY_COMPLETE);
      return this.close();
    }
    if (reason === 'failed') return this.close();
    // The stated end for a consumer too slow to keep up: it resumes from its Last-Event-ID.
    this.flush();
    this.res.write(SSE_SLOW_CONSUMER);
    this.close();
    // A stalled reader never drains what is queued: cut it off shortly after.
    const res = this.res;
    const timer = setTimeout(() => res.destroy(), 2_000);
    timer.unref();
    res.once('close', () => clearTimeout(timer));
  }
}

/** Resolves once `res` drained or closed. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
