/**
 * An operator-side SSE subscription to `{relay}/stream` (I/O): events and comments are handed
 * to callbacks in stream order; `done` settles when the stream ends, fails or is closed.
 */
import { createSseParser } from '../check-live/sse.js';
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
  const abort = new AbortController();
  let closed = false;
  const done = (async (): Promise<StreamEnd> => {
    let res: Response;
    try {
      res = await fetch(streamUrl(t, q), { headers: { accept: 'text/event-stream', ...authHeaders(t) }, signal: abort.signal });
    } catch (err) {
      if (closed) return { ok: true, reason: 'closed' };
      return { ok: false, error: unreachable(t, describeNetError(err)) };
    }
    if (!res.ok || !res.body) {
      const body = await res.text().catch(() => '');
      const detail = res.status === 400 ? `: ${body.slice(0, 300)}` : '';
      return { ok: false, status: res.status, error: `${refused(t, res.status, 'GET /stream')}${detail}` };
    }
    h.open?.();
    const parser = createSseParser();
    const reader = res.body.getReader();
    const dispatch = (items: ReturnType<typeof parser.push>): void => {
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
    try {
      for (;;) {
        const { done: end, value } = await reader.read();
        if (end) break;
        dispatch(parser.push(value));
      }
      dispatch(parser.end());
      return { ok: true, reason: 'ended' };
    } catch (err) {
      if (closed) return { ok: true, reason: 'closed' };
      return { ok: false, error: `the stream from ${t.relay} broke (${describeNetError(err)})` };
    }
  })();
  return {
    done,
    close() {
      closed = true;
      abort.abort();
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
