/**
 * The relay's plain-HTTP surface: which endpoint answers which method, and where
 * authentication applies. With AEP_TOKEN set, ingest and stream require the token (401 when
 * missing, 401 with `WWW-Authenticate: Bearer error="invalid_token"` when wrong, RFC 6750 §3.1); discovery, `/healthz` and CORS preflight stay public, and
 * `/healthz` shows counts only to authorized callers (everyone, without AEP_TOKEN).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authRefusal, authenticate } from './auth.js';
import type { RelayConfig } from './config.js';
import { discoveryDocument } from './discovery.js';
import { corsFor, restrictCors, sendJson } from './http-util.js';
import type { HubLike } from './hub.js';
import { requestUrl } from '../http/target.js';
import { handleIngest } from './ingest.js';
import { handleStream, type SseStreams } from './sse.js';

export interface RouteContext {
  readonly config: RelayConfig;
  readonly hub: HubLike;
  readonly streams: SseStreams;
  /** Live WebSocket connections, for `/healthz`. */
  readonly connections: () => number;
  /** Epoch ms the relay started, for `/healthz`. */
  readonly started: number;
  /** SSE backpressure threshold in bytes. */
  readonly slowBytes: number;
}

/** The request target as a URL (impl/http/target.ts: origin-form only, leading slashes collapsed, one parser for every surface). */
export { requestUrl };

const methodNotAllowed = (res: ServerResponse, allow: string): void =>
  sendJson(res, 405, { error: 'method-not-allowed', detail: `use ${allow.replace(', ', ' or ')}` }, { allow });

/** Answer one HTTP request (everything but the `/socket` upgrade). */
export async function route(req: IncomingMessage, res: ServerResponse, ctx: RouteContext): Promise<void> {
  restrictCors(req, ctx.config.corsOrigins);
  const url = requestUrl(req);
  if (!url) return sendJson(res, 400, { error: 'bad-request', detail: 'the request target must be a path such as /events' });
  const path = url.pathname;
  const method = req.method ?? 'GET';
  if (method === 'OPTIONS') {
    res.writeHead(204, { ...corsFor(res), 'access-control-max-age': '600' });
    return void res.end();
  }
  const auth = authenticate(ctx.config.token, req.headers, url);
  const refused = auth === 'missing' || auth === 'wrong';
  switch (path) {
    case '/healthz': {
      if (method !== 'GET') return methodNotAllowed(res, 'GET');
      const fleet = ctx.hub.fleet ? { fleet: ctx.hub.fleet() } : {};
      if (refused) return sendJson(res, 200, { ok: true, ...fleet });
      const counts = ctx.hub.stats();
      const uptime = Math.floor((Date.now() - ctx.started) / 1000);
      return sendJson(res, 200, { ok: true, sessions: counts.sessions, events: counts.events, subscribers: counts.subscribers, connections: ctx.connections(), uptime_s: uptime, ...fleet });
    }
    case '/.well-known/aep':
      if (method !== 'GET') return methodNotAllowed(res, 'GET');
      return sendJson(res, 200, discoveryDocument(ctx.config, ctx.hub.fleet?.()));
    case '/events':
      if (method === 'GET') return sendJson(res, 200, discoveryDocument(ctx.config, ctx.hub.fleet?.()));
      if (method !== 'POST') return methodNotAllowed(res, 'GET, POST');
      if (refused) return refuse(res, auth);
      return handleIngest(req, res, ctx.config, ctx.hub);
    case '/stream':
      if (method !== 'GET') return methodNotAllowed(res, 'GET');
      if (refused) return refuse(res, auth);
      return handleStream(req, res, url, ctx.config, ctx.hub, ctx.streams, ctx.slowBytes);
    case '/socket':
      return sendJson(res, 426, { error: 'upgrade-required', detail: '/socket speaks WebSocket only' }, { upgrade: 'websocket' });
    default:
      return sendJson(res, 404, { error: 'not-found', detail: `no endpoint at ${path}; GET /events lists the endpoints` });
  }
}

function refuse(res: ServerResponse, auth: 'missing' | 'wrong'): void {
  const r = authRefusal(auth);
  sendJson(res, r.status, r.body, { 'www-authenticate': r.challenge });
}
