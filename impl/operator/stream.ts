/**
 * An operator-side SSE subscription to `{relay}/stream` (I/O): events and comments are handed
 * to callbacks in stream order; `done` settles when the stream ends, fails or is closed.
 */
import { get as httpGet, type ClientRequest } from 'node:http';
import { get as httpsGet } from 'node:https';
import { SseParser, type SseItem } from '../relay-client/sse-parser.js';
import { authHeaders, describeNetError, refused, unreachable, type RelayTarget } from './relay-opts.js';

export interface StreamQuery {
  filter?: unknown;
  /** `'all'` or a resume position list. */
  from?: 'all' | Array<{ session: string; epoch: number; seq: number }>;
  /** false = replay-only (`live=0`): the stream ends after `: replay-complete`. */
  live?: boolean;
}

export interface StreamHandlers {
  /** One message: its data line (the event JSON as posted) and its parse (undefined when not an object). */
  event(raw: string, event: Record<string, unknown> | undefined): void;
  comment?(text: string): void;
  /** The response headers arrived with 200. */
  open?(): void;
}

/** How a stream finished: `error` carries a message saying what failed, where and what to do. */
export type StreamEnd = { ok: true; reason: 'ended' | 'closed' } | { ok: false; error: string; status?: number };

export function streamUrl(t: RelayTarget, q: StreamQuery): string {
  const params = new URLSearchParams();
  if (q.filter !== undefined) params.set('filter', JSON.stringify(q.filter));
  if (q.from !== undefined) params.set('from', q.from === 'all' ? 'all' : JSON.stringify(q.from));
  if (q.live === false) params.set('live', '0');
  const qs = params.toString();
  return `${t.relay}/stream${qs ? `?${qs}` : ''}`;
}

export interface OpenStream {
  done: Promise<StreamEnd>;
  close(): void;
}

export function openStream(t: RelayTarget, q: StreamQuery, h: StreamHandlers): OpenStream {
  let closed = false;
  let req: ClientRequest | undefined;
  const done = new Promise<StreamEnd>((resolve) => {
    const url = new URL(streamUrl(t, q));
    const get = url.protocol === 'https:' ? httpsGet : httpGet;
    // agent:false = one connection per stream, torn down when the stream ends or is closed:
    // no pooled keep-alive socket outlives it (a relay draining for shutdown waits for those).
    req = get(url, { agent: false, headers: { accept: 'text/event-stream', ...authHeaders(t) } }, (res) => {
      const status = res.statusCode ?? 0;
      if (status !== 200) {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c.slice(0, 300)));
        res.on('end', () => resolve({ ok: false, status, error: `${refused(t, status, 'GET /stream')}${status === 400 ? `: ${body.slice(0, 300)}` : ''}` }));
        res.on('error', () => resolve({ ok: false, status, error: refused(t, status, 'GET /stream') }));
        return;
      }
      h.open?.();
      const parser = new SseParser();
      const dispatch = (items: SseItem[]): void => {
        for (const item of items) {
          if (item.kind === 'comment') h.comment?.(item.text);
          else {
            let json: Record<string, unknown> | undefined;
            try {
              const v: unknown = JSON.parse(item.data);
              if (typeof v === 'object' && v !== null && !Array.isArray(v)) json = v as Record<string, unknown>;
            } catch {
              json = undefined;
            }
            h.event(item.data, json);
          }
        }
      };
      res.on('data', (chunk: Buffer) => {
        if (!closed) dispatch(parser.push(chunk));
      });
      res.on('end', () => {
        if (!closed) parser.end(); // an unfinished message is discarded (WHATWG)
        resolve({ ok: true, reason: closed ? 'closed' : 'ended' });
      });
      res.on('error', (err) => resolve(closed ? { ok: true, reason: 'closed' } : { ok: false, error: `the stream from ${t.relay} broke (${describeNetError(err)})` }));
      res.on('close', () => resolve(closed ? { ok: true, reason: 'closed' } : { ok: true, reason: 'ended' }));
    });
    req.on('error', (err) => resolve(closed ? { ok: true, reason: 'closed' } : { ok: false, error: unreachable(t, describeNetError(err)) }));
  });
  return {
    done,
    close() {
      closed = true;
      req?.destroy();
    },
  };
}

/** Replay-only fetch: every buffered event matching `filter`, in stream order. */
export async function fetchReplay(t: RelayTarget, filter: unknown): Promise<{ ok: true; raws: string[]; events: Array<Record<string, unknown>> } | { ok: false; error: string }> {
  const raws: string[] = [];
  const events: Array<Record<string, unknown>> = [];
  const s = openStream(t, { filter, from: 'all', live: false }, {
    event(raw, e) {
      raws.push(raw);
      if (e) events.push(e);
    },
  });
  const end = await s.done;
  if (!end.ok) return end;
  return { ok: true, raws, events };
}
