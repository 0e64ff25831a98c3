/**
 * A compliant AEP collector's HTTP surface as msw request handlers: the discovery document
 * (AEP-0003 §3.4), the version-gated POST /events (§3.2) and a filtered SSE /stream (§3.3).
 * Tests of HTTP-level misbehavior start from these and `server.use()` one override that breaks
 * one answer. Validation is the project's own (impl/core). Not a relay: no socket, no replay,
 * no capture ceilings; `stub-relay.ts` is the socket-level stub for everything else.
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import { validateEnvelope } from '../../core/envelope.js';
import { renderIssue } from '../../core/issue.js';
import { attrMatch, validateFilter } from '../../core/filter.js';

/** The base URL the handlers answer on; the name never resolves, so nothing leaves the process. */
export const MSW_BASE = 'http://collector.aep.test';

type Json = Record<string, unknown>;

/** The compliant discovery document the handlers serve. */
export function discoveryDoc(): Json {
  return {
    aep: ['0.1'],
    role: 'collector',
    endpoints: { events: '/events', stream: '/stream' },
    capabilities: { filters: ['attr-match'] },
  };
}

const encoder = new TextEncoder();
const json = (status: number, body: unknown): HttpResponse<string> =>
  new HttpResponse(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** One SSE message for an accepted event (`id:` only for session-scoped events). */
function sseFrame(event: Json, raw: string): string {
  const id = typeof event.session === 'string' ? `id: ${event.session}:${typeof event.epoch === 'number' ? event.epoch : 0}:${String(event.seq)}\n` : '';
  return `event: ${String(event.type)}\ndata: ${raw}\n${id}\n`;
}

/** Parses a POST body into `[event, one-line raw]` pairs, or the 400 body for the first bad line. */
function parseBody(text: string, ndjson: boolean): Array<[Json, string]> | Json {
  const lines = ndjson ? text.split('\n').map((l) => l.replace(/\r$/, '')).filter((l) => l !== '') : [text];
  const out: Array<[Json, string]> = [];
  for (const [i, line] of lines.entries()) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return { error: 'invalid-event', detail: `line ${i + 1} is not JSON`, line: i + 1 };
    }
    const issues = validateEnvelope(value);
    if (issues.length > 0) return { error: 'invalid-event', detail: renderIssue(issues[0]!), line: i + 1 };
    out.push([value as Json, ndjson ? line : JSON.stringify(value)]);
  }
  return out;
}

/**
 * Fresh handlers with their own subscriber set; call per test (e.g. `server.resetHandlers(...collectorHandlers())`).
 * `base` defaults to `MSW_BASE`.
 */
export function collectorHandlers(base: string = MSW_BASE): HttpHandler[] {
  const subscribers = new Set<{ filter: unknown; push(frame: string): void }>();
  const discovery = (): HttpResponse<string> => json(200, discoveryDoc());
  return [
    http.get(`${base}/events`, discovery),
    http.get(`${base}/.well-known/aep`, discovery),
    http.post(`${base}/events`, async ({ request }) => {
      const version = request.headers.get('aep-version');
      if (version === null) return json(400, { error: 'version-required', detail: 'send the AEP-Version: 0.1 request header' });
      if (!/^0\.1(\.\d+)?$/.test(version)) return json(426, { versions: ['0.1'] });
      const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json' && type !== 'application/x-ndjson') return json(415, { error: 'unsupported-media-type' });
      const parsed = parseBody(await request.text(), type === 'application/x-ndjson');
      if (!Array.isArray(parsed)) return json(400, parsed);
      for (const [event, raw] of parsed) {
        for (const sub of subscribers) if (attrMatch(sub.filter, event)) sub.push(sseFrame(event, raw));
      }
      return new HttpResponse(null, { status: 202 });
    }),
    http.get(`${base}/stream`, ({ request }) => {
      const raw = new URL(request.url).searchParams.get('filter');
      let filter: unknown = {};
      try {
        if (raw !== null) filter = JSON.parse(raw);
      } catch {
        return json(400, { error: 'invalid-filter', detail: 'filter is not JSON' });
      }
      const problem = validateFilter(filter);
      if (problem !== null) return json(400, { error: 'invalid-filter', detail: problem });
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          const sub = { filter, push: (frame: string) => controller.enqueue(encoder.encode(frame)) };
          subscribers.add(sub);
          request.signal.addEventListener(
            'abort',
            () => {
              subscribers.delete(sub);
              controller.close();
            },
            { once: true },
          );
          controller.enqueue(encoder.encode(': ping\n\n'));
        },
      });
      return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' } });
    }),
  ];
}

/** A body that starts (headers are sent) but never ends; it errors when the caller aborts. */
export function stalledBody(request: Request): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('{"aep":['));
      request.signal.addEventListener('abort', () => controller.error(request.signal.reason), { once: true });
    },
  });
}
