/**
 * A relay SSE subscription (AEP-0003 §3.3) as an async stream of parsed messages: GET
 * `{relay}/stream?filter=&capture=&from=` with the bearer token, the body parsed per the SSE
 * rules (`id:`, `event:`, `data:` lines, blank line ends a message, `:` comments). One call is one
 * connection; reconnecting (with a resume position) is the caller's job (sidecar.ts).
 */
import { SseParser, type SseMessage } from '../relay-client/sse-parser.js';

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
}

/** The stream URL for a subscription. */
export function streamUrl(opts: Omit<SubscribeOptions, 'signal' | 'token'>): string {
  const url = new URL(opts.relay);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/stream`;
  if (opts.filter && Object.keys(opts.filter).length > 0) url.searchParams.set('filter', JSON.stringify(opts.filter));
  if (opts.capture) url.searchParams.set('capture', opts.capture);
  if (opts.from !== undefined) url.searchParams.set('from', opts.from === 'all' ? 'all' : JSON.stringify(opts.from));
  return url.toString();
}

/**
 * Opens one subscription and calls `onMessage` for every message until the stream ends, the
 * signal aborts, or the connection fails. Resolves with why it ended; rejects only on a refusal
 * (non-200), with the relay's own `{error, detail}` in the message.
 */
export async function subscribeOnce(opts: SubscribeOptions, onMessage: (m: SseMessage) => void, onComment?: (text: string) => void, onOpen?: () => void): Promise<string> {
  const headers: Record<string, string> = { accept: 'text/event-stream', 'aep-version': '0.1' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let res: Response;
  try {
    res = await fetch(streamUrl(opts), { headers, signal: opts.signal });
  } catch (err) {
    return opts.signal.aborted ? 'aborted' : `connect failed: ${(err as Error).message}`;
  }
  if (res.status !== 200) {
    const body = await res.text().catch(() => '');
    throw new Error(`relay refused the subscription: HTTP ${res.status} ${body.slice(0, 300)}`);
  }
  if (!res.body) return 'no body';
  onOpen?.();
  const parser = new SseParser();
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }), onMessage, onComment);
  } catch (err) {
    return opts.signal.aborted ? 'aborted' : `stream failed: ${(err as Error).message}`;
  }
  return 'stream ended';
}
