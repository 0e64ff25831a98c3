/**
 * A relay SSE subscription (AEP-0003 §3.3) as an async iterator of parsed items: GET
 * `{relay}/stream?filter=&capture=&from=` with the bearer token, the body read by the one SSE
 * parser. One subscription is one connection; resubscribing (with a resume position) is the
 * caller's policy (bridge-ce's sidecar).
 */
import { SseParser, type SseItem } from './sse-parser.js';

export interface SubscribeOptions {
  relay: string;
  token?: string;
  /** attr-match filter (AEP-0003 §6). */
  filter?: Record<string, unknown>;
  /** Capture ceiling asked of the relay. */
  capture?: string;
  /** `from` member: 'all' or positions. */
  from?: 'all' | { session: string; epoch: number; seq: number }[];
  signal: AbortSignal;
  /** The fetch to use (default the global one). */
  fetch?: typeof fetch;
}

/** The stream URL for a subscription. */
export function streamUrl(opts: Pick<SubscribeOptions, 'relay' | 'filter' | 'capture' | 'from'>): string {
  const url = new URL(opts.relay);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/stream`;
  if (opts.filter && Object.keys(opts.filter).length > 0) url.searchParams.set('filter', JSON.stringify(opts.filter));
  if (opts.capture) url.searchParams.set('capture', opts.capture);
  if (opts.from !== undefined) url.searchParams.set('from', opts.from === 'all' ? 'all' : JSON.stringify(opts.from));
  return url.toString();
}

/** An open subscription: iterate it for items; once iteration ends, `ended` says why. */
export interface Subscription extends AsyncIterable<SseItem> {
  /** Why the stream ended (`aborted`, `stream ended`, `stream failed: ...`), once iteration is over. */
  readonly ended: string | undefined;
}

/** Why a subscription did not open, as data. */
export type SubscribeFailure = { kind: 'unreachable'; reason: string } | { kind: 'refused'; status: number; body: string; reason: string };

/**
 * Opens one subscription. Resolves once the relay answered 200 (the stream is open), with the
 * items to iterate; or with why it did not open: `unreachable` (the signal aborted, or the
 * connection failed) or `refused` (a non-200 answer, with the first 300 characters of its body).
 */
export async function subscribe(opts: SubscribeOptions): Promise<{ ok: true; subscription: Subscription } | ({ ok: false } & SubscribeFailure)> {
  const headers: Record<string, string> = { accept: 'text/event-stream', 'aep-version': '0.1' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let res: Response;
  try {
    res = await (opts.fetch ?? fetch)(streamUrl(opts), { headers, signal: opts.signal });
  } catch (err) {
    return { ok: false, kind: 'unreachable', reason: opts.signal.aborted ? 'aborted' : `connect failed: ${(err as Error).message}` };
  }
  if (res.status !== 200) {
    const body = (await res.text().catch(() => '')).slice(0, 300);
    return { ok: false, kind: 'refused', status: res.status, body, reason: `relay refused the subscription: HTTP ${res.status} ${body}` };
  }
  return { ok: true, subscription: itemsOf(res.body, opts.signal) };
}

function itemsOf(body: ReadableStream<Uint8Array> | null, signal: AbortSignal): Subscription {
  const sub = {
    ended: undefined as string | undefined,
    async *[Symbol.asyncIterator](): AsyncGenerator<SseItem> {
      if (!body) {
        sub.ended = 'no body';
        return;
      }
      const parser = new SseParser();
      try {
        for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) yield* parser.push(chunk);
        sub.ended = 'stream ended';
      } catch (err) {
        sub.ended = signal.aborted ? 'aborted' : `stream failed: ${(err as Error).message}`;
      }
    },
  };
  return sub;
}
