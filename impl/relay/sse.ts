/**
 * `GET /stream` (AEP-0003 §3.3): one SSE subscription per request. The request is judged
 * before any header is sent; then exhaustion markers, the replay, and live delivery follow
 * in that order, with a `: ping` comment every `heartbeatMs`.
 *
 * Live messages of one fan-out (a whole `POST /events` batch) are held and written as one
 * chunk when the hub flushes the sink; the bytes of each message are unchanged.
 *
 * Replay (AEP-0003 §5) is streamed in chunks of about `REPLAY_CHUNK` characters, each written
 * after the previous one drained, so a replay of any size goes out; live events that arrive
 * meanwhile wait in order and follow it. A resume into a session held nowhere gets its
 * `replay-exhausted` marker before the first event delivered, unless that event follows it.
 *
 * Backpressure (AEP-0003 §8.4): nothing is dropped silently. While more than `slowBytes` (default
 * `SLOW_BYTES`) wait unsent (queued on the response plus held for the current batch, or queued
 * behind a replay), the next event ends the stream with `: slow-consumer`, so the consumer
 * resumes exactly from its `Last-Event-ID`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Received } from './buffer.js';
import type { RelayConfig } from './config.js';
import { corsFor, sendJson } from './http-util.js';
import type { HubLike, Sink } from './hub.js';
import { renderAt } from './render.js';
import { GapWatch } from './gap-watch.js';
import { joinShared, messageBytes } from './sse-bytes.js';
import { SSE_PING, SSE_REPLAY_COMPLETE, SSE_SHUTTING_DOWN, SSE_SLOW_CONSUMER, sseEvent, sseExhausted } from './sse-format.js';
import { parseStreamQuery, type StreamRequest } from './stream-query.js';

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

  let closed = false;
  /** True until the replay and everything that arrived meanwhile are written. */
  let replaying = true;
  /** Live events that arrived during the replay, in order, and their size. */
  const queue: Received[] = [];
  let queued = 0;
  /** Messages of the current fan-out (shared bytes, `sse-bytes.ts`), written as one chunk by `flush`. */
  let held: Buffer[] = [];
  let heldBytes = 0;
  const plan = hub.plan(request.replay, request.match);
  const gaps = new GapWatch(plan.unanchored);
  const message = (rec: Received): string => {
    const gap = gaps.check(rec);
    return `${gap && typeof rec.event.session === 'string' ? sseExhausted(rec.event.session, gap) : ''}${sseEvent(rec.event, renderAt(rec, request.ceiling))}`;
  };
  /** A live message: the shared bytes, unless a gap marker must precede it on this stream. */
  const liveMessage = (rec: Received): Buffer => {
    const gap = gaps.check(rec);
    if (gap && typeof rec.event.session === 'string') return Buffer.from(sseExhausted(rec.event.session, gap) + sseEvent(rec.event, renderAt(rec, request.ceiling)), 'utf8');
    return messageBytes(rec, request.ceiling);
  };
  const flush = (): void => {
    if (held.length === 0) return;
    const parts = held;
    held = [];
    heldBytes = 0;
    if (!closed) res.write(joinShared(parts));
  };
  const sink: Sink = {
    filter: request.filter,
    match: request.match,
    ceiling: request.ceiling,
    deliver(rec: Received) {
      if (closed) return;
      if (replaying) {
        queue.push(rec);
        queued += rec.raw.length;
        if (queued > slowBytes) slowClose();
        return;
      }
      // What would be queued had every held message been written already. Over the bound the
      // consumer is told why and dropped, never silently skipped (AEP-0003 §8.4).
      if (res.writableLength + heldBytes > slowBytes) return slowClose();
      const bytes = liveMessage(rec);
      held.push(bytes);
      heldBytes += bytes.length;
    },
    flush,
  };
  const heartbeat = setInterval(() => res.write(SSE_PING), config.heartbeatMs);
  heartbeat.unref();
  const unregister = streams.add(() => {
    if (closed) return;
    res.write(SSE_SHUTTING_DOWN);
    close();
  });
  function close(): void {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    hub.sinks.delete(sink);
    unregister();
    res.end();
  }
  /** The stated end for a consumer too slow to keep up: it resumes from its Last-Event-ID. */
  function slowClose(): void {
    if (closed) return;
    flush();
    res.write(SSE_SLOW_CONSUMER);
    close();
    // A stalled reader never drains what is queued: cut it off shortly after.
    const timer = setTimeout(() => res.destroy(), 2_000);
    timer.unref();
    res.once('close', () => clearTimeout(timer));
  }
  res.once('close', close);
  res.on('error', close);

  let text = '';
  for (const m of plan.exhausted) text += sseExhausted(m.session, m.earliest);
  if (text !== '') res.write(text);
  if (request.live) hub.sinks.add(sink);
  // Written in bounded chunks, each after the previous drained: a replay of any size streams.
  void (async () => {
    let chunk = '';
    const write = async (): Promise<void> => {
      if (chunk === '' || closed) return;
      const ok = res.write(chunk);
      chunk = '';
      if (!ok) await drained(res);
    };
    for (const rec of plan.events) {
      if (closed) return;
      chunk += message(rec);
      if (chunk.length >= REPLAY_CHUNK) await write();
    }
    // Whatever arrived meanwhile follows, until nothing is left after the last write: only then
    // does delivery go live (no await between the empty check and the switch).
    for (;;) {
      while (queue.length > 0 && !closed) {
        const rec = queue.shift()!;
        queued -= rec.raw.length;
        chunk += message(rec);
        if (chunk.length >= REPLAY_CHUNK) await write();
      }
      await write();
      if (queue.length === 0 || closed) break;
    }
    replaying = false;
    if (closed) return;
    if (!request.live) {
      res.write(SSE_REPLAY_COMPLETE);
      close();
    }
  })().catch(() => close());
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
