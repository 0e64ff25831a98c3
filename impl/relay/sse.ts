/**
 * `GET /stream` (AEP-0003 §3.3): one SSE subscription per request. The request is judged
 * before any header is sent; then exhaustion markers, the replay, and live delivery follow
 * in that order, with a `: ping` comment every `heartbeatMs`.
 *
 * Live messages of one fan-out (a whole `POST /events` batch) are held and written as one
 * chunk when the hub flushes the sink; the bytes of each message are unchanged.
 *
 * Backpressure (AEP-0003 §8.4): while more than `slowBytes` (default `SLOW_BYTES`) wait unsent
 * (queued on the response plus held for the current batch), `debug`/`info` events are dropped
 * for this consumer; a `notice`-or-above event ends the stream instead, so the consumer
 * resumes exactly from its `Last-Event-ID`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AepEvent } from '../core/event.js';
import type { Received } from './buffer.js';
import type { RelayConfig } from './config.js';
import { CORS_HEADERS, sendJson } from './http-util.js';
import type { Hub, Sink } from './hub.js';
import { renderAt } from './render.js';
import { SSE_PING, SSE_REPLAY_COMPLETE, SSE_SHUTTING_DOWN, sseEvent, sseExhausted } from './sse-format.js';
import { parseStreamQuery, type StreamRequest } from './stream-query.js';

/** Default unsent bytes above which a consumer counts as slow. */
export const SLOW_BYTES = 8 * 1024 * 1024;

const droppable = (e: AepEvent): boolean => e.severity === undefined || e.severity === 'debug' || e.severity === 'info';

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

export function handleStream(req: IncomingMessage, res: ServerResponse, url: URL, config: RelayConfig, hub: Hub, streams: SseStreams, slowBytes = SLOW_BYTES): void {
  const lastEventId = req.headers['last-event-id'];
  const query = parseStreamQuery(url.searchParams, typeof lastEventId === 'string' ? lastEventId : undefined, config.maxFrom);
  if (!query.ok) return sendJson(res, 400, { error: query.code, detail: query.detail });
  openStream(req, res, query.request, config, hub, streams, slowBytes);
}

function openStream(req: IncomingMessage, res: ServerResponse, request: StreamRequest, config: RelayConfig, hub: Hub, streams: SseStreams, slowBytes: number): void {
  res.writeHead(200, {
    ...CORS_HEADERS,
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
  req.socket.setNoDelay(true);

  let closed = false;
  /** Messages of the current fan-out, written as one chunk by `flush`. */
  let held = '';
  const flush = (): void => {
    if (held === '') return;
    const text = held;
    held = '';
    if (!closed) res.write(text);
  };
  const sink: Sink = {
    filter: request.filter,
    match: request.match,
    ceiling: request.ceiling,
    deliver(rec: Received) {
      if (closed) return;
      // What would be queued had every held message been written already.
      if (res.writableLength + held.length > slowBytes) {
        if (droppable(rec.event)) return;
        flush();
        close();
        res.destroy(); // a stalled reader would never drain what is queued
        return;
      }
      held += sseEvent(rec.event, renderAt(rec, request.ceiling));
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
  res.once('close', close);
  res.on('error', close);

  const plan = hub.plan(request.replay, request.match);
  let text = '';
  for (const m of plan.exhausted) text += sseExhausted(m.session, m.earliest);
  for (const rec of plan.events) text += sseEvent(rec.event, renderAt(rec, request.ceiling));
  if (text !== '') res.write(text);
  if (!request.live) {
    res.write(SSE_REPLAY_COMPLETE);
    close();
    return;
  }
  hub.sinks.add(sink);
}
