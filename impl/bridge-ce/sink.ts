/**
 * HTTP delivery of projections (AEP-0005 §1 structured mode; §4 OCSF as JSON). One POST per
 * event. The sink's answer decides: 2xx accepted; 408, 429 and 5xx (and any network failure or
 * timeout) throw, so the sidecar retries; any other 4xx is a permanent refusal of that one event:
 * logged with the sink's reason and skipped, so one poison event cannot stall the stream.
 */
import type { AepEvent } from '../core/event.js';
import { project, type Projection, type ProjectionOptions } from './projection.js';

export class RetryableDelivery extends Error {
  override name = 'RetryableDelivery';
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
  if (res.status === 408 || res.status === 429 || res.status >= 500) throw new RetryableDelivery(`POST ${url}: HTTP ${res.status}`);
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
