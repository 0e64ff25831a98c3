/** Small HTTP helpers shared by the relay's endpoints: JSON replies, CORS, bounded bodies (`readBody` lives in impl/http/body.ts, shared with the adapter daemons and bridges). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { discardRest } from '../http/reply.js';

/** Sent on every reply so a browser can read refusals (a 401 instead of status 0). */
export const CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'Authorization, Content-Type, AEP-Version, Last-Event-ID',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
});

const allowedOrigins = new WeakMap<IncomingMessage, readonly string[]>();

/** Narrow the CORS headers of this request's replies to `origins` (AEP_CORS_ORIGINS); the router calls it first. */
export function restrictCors(req: IncomingMessage, origins: readonly string[] | undefined): void {
  if (origins !== undefined && origins.length > 0) allowedOrigins.set(req, origins);
}

/**
 * The CORS headers of a reply: `CORS_HEADERS` by default; with an origin list, the request's
 * Origin when listed, else the first listed origin (a browser on any other page cannot read it).
 */
export function corsFor(res: ServerResponse): Record<string, string> {
  const origins = res.req ? allowedOrigins.get(res.req) : undefined;
  if (origins === undefined) return CORS_HEADERS;
  const origin = res.req.headers.origin;
  return { ...CORS_HEADERS, 'access-control-allow-origin': typeof origin === 'string' && origins.includes(origin) ? origin : origins[0]!, vary: 'Origin' };
}

/** Reply with a JSON body (one line plus a newline). Safe to call once per response. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, {
    ...corsFor(res),
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export { readBody, type BodyResult } from '../http/body.js';

/**
 * Answer 413 without reading the rest of the upload: the reply goes out first, the rest of
 * the body is discarded, and the connection is closed shortly after.
 */
export function refuseTooLarge(req: IncomingMessage, res: ServerResponse, max: number): void {
  sendJson(res, 413, { error: 'payload-too-large', detail: `the body exceeds ${max} bytes (AEP_MAX_BODY); nothing was ingested` }, { connection: 'close' });
  discardRest(req, 2_000);
}

/** The media type of a request without parameters, lower-cased (`application/json; charset=utf-8` → `application/json`). */
export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}
