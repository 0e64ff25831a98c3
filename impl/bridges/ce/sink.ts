/**
 * HTTP delivery of projections (AEP-0005 §1 structured mode; §4 OCSF as JSON). One POST per
 * event. The sink's answer decides: 2xx accepted; 408, 429 and 5xx (and any network failure or
 * timeout) throw, so the sidecar retries, after the sink's `Retry-After` when it sends one
 * (bounded by MAX_RETRY_AFTER_MS) and with its own backoff otherwise; any other 4xx is a permanent refusal of that one event:
 * logged with the sink's reason and skipped, so one poison event cannot stall the stream.
 */
import type { AepEvent } from '../../core/event.js';
import { project, type Projection, type ProjectionOptions } from './projection.js';

export class RetryableDelivery extends Error {
  override name = 'RetryableDelivery';
  /** The wait the sink asked for (its `Retry-After`), in ms, when it gave one. */
  retryAfterMs?: number;
}

/** The longest `Retry-After` honoured, in ms; a longer one is cut to this. */
export const MAX_RETRY_AFTER_MS = 300_000;

/**
 * A `Retry-After` header value (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) as a wait in
 * ms from `now`, bounded by MAX_RETRY_AFTER_MS; undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const v = value.trim();
  let ms: number;
  if (/^[0-9]+$/.test(v)) ms = Number(v) * 1000;
  else {
    // An HTTP-date names its day and month; anything else (`-1`, `1.5`) is not one.
    const at = /^[A-Za-z]{3}, /.test(v) ? Date.parse(v) : NaN;
    if (Number.isNaN(at)) return undefined;
    ms = Math.max(0, at - now);
  }
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}

/** POST `body`; resolves on 2xx, throws RetryableDelivery when worth retrying, returns the refusal text otherwise. */
export async function postJson(url: string, contentType: string, body: string, timeoutMs: number, headers: Record<string, string> = {}): Promise<string | null> {
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers: { 'content-type': contentType, ...headers }, body, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw new RetryableDelivery(`POST ${url}: ${(err as Error).message}`);
  }
  const text = await res.text().catch(() => '');
  if (res.status >= 200 && res.status < 300) return null;
  if (res.status === 408 || res.status === 429 || res.status >= 500) {
    const retry = new RetryableDelivery(`POST ${url}: HTTP ${res.status}`);
    const after = parseRetryAfter(res.headers.get('retry-after'), Date.now());
    if (after !== undefined) retry.retryAfterMs = after;
    throw retry;
  }
  return `HTTP ${res.status} ${text.slice(0, 200)}`;
}

export interface HttpSinkOptions {
  url: string;
  projection: Extract<Projection, 'ce' | 'ocsf'>;
  projectionOptions?: ProjectionOptions;
  timeoutMs?: number;
  log(line: string): void;
}

/** The `deliver` of `aep bridge ce`: each event as one structured-mode CloudEvent (or OCSF record). */
export function httpSink(opts: HttpSinkOptions): (batch: AepEvent[]) => Promise<void> {
  const contentType = opts.projection === 'ce' ? 'application/cloudevents+json' : 'application/json';
  return async (batch) => {
    for (const event of batch) {
      const body = project(event, opts.projection, opts.projectionOptions);
      if (body === null) continue; // no OCSF class for this type: nothing to forward
      const refused = await postJson(opts.url, contentType, JSON.stringify(body), opts.timeoutMs ?? 10_000);
      if (refused !== null) opts.log(`sink refused event ${event.id} (${event.type}) permanently: ${refused}; skipped`);
    }
  };
}
