/**
 * The page's reads of a relay, through the console (I/O): the page never holds a relay token,
 * so the console adds it. Two routes per configured relay:
 *
 * - `GET /relay/<id>/events?lanes=Q1&inbox=Q2`: the page's two subscriptions (the filtered
 *   lanes and the fixed inbox; `Q1`, `Q2` are the relay `/stream` query strings) merged into
 *   one SSE response, each message re-tagged `event: lanes` / `event: inbox` and each comment
 *   `event: lanes-comment` / `inbox-comment` (data unchanged). One connection per relay keeps
 *   a browser's six-per-host limit for the console's other calls. When either upstream ends,
 *   the response ends and the page resumes both from its positions. A relay refusal is passed
 *   on with its status (401, 403...) and the relay's own body in `detail`; an unreachable
 *   relay is a 502 `relay-unreachable`.
 * - `GET /relay/<id>/discovery`: the relay's discovery document (`/.well-known/aep`).
 * - `GET /relay/<id>/history?session=S[&capture=C]`: one session's whole history the relay
 *   holds (`/stream?from=all&live=0`, filtered on the session), ending after the replay: what
 *   the replay view steps through, whatever filter the lanes have.
 */
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ConsoleRelay } from './config.js';
import { SseParser } from '../relay-client/sse-parser.js';

const MAX_BODY = 64 * 1024;

function open(relay: ConsoleRelay, path: string, accept: string): { req: ReturnType<typeof httpRequest>; head: Promise<IncomingMessage> } {
  const url = new URL(`${relay.url}${path}`);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers: Record<string, string> = { accept };
  if (relay.token !== undefined) headers.authorization = `Bearer ${relay.token}`;
  const req = request(url, { method: 'GET', headers });
  const head = new Promise<IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
  });
  req.end();
  return { req, head };
}

async function readBody(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of res as AsyncIterable<Buffer>) {
    if (size < MAX_BODY) chunks.push(c);
    size += c.length;
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, MAX_BODY);
}

export type Send = (res: ServerResponse, status: number, type: string, body: string) => void;

const json = (v: unknown): string => `${JSON.stringify(v)}\n`;

/** `/relay/<id>/discovery`. */
export async function proxyDiscovery(relay: ConsoleRelay, res: ServerResponse, send: Send): Promise<void> {
  const { req, head } = open(relay, '/.well-known/aep', 'application/json');
  req.setTimeout(5000, () => req.destroy(new Error('no answer within 5 s')));
  try {
    const up = await head;
    const body = await readBody(up);
    send(res, up.statusCode ?? 502, 'application/json', body);
  } catch (err) {
    send(res, 502, 'application/json', json({ error: 'relay-unreachable', detail: `cannot reach ${relay.url} (${err instanceof Error ? err.message : String(err)})` }));
  }
}

/** `/relay/<id>/events?lanes=...&inbox=...`: both subscriptions as one tagged stream. */
export async function proxyEvents(relay: ConsoleRelay, query: URLSearchParams, req: IncomingMessage, res: ServerResponse, send: Send, headers: Record<string, string>): Promise<void> {
  const names = ['lanes', 'inbox'] as const;
  const ups = names.map((n) => open(relay, `/stream?${query.get(n) ?? ''}`, 'text/event-stream'));
  const stop = (): void => {
    for (const u of ups) u.req.destroy();
  };
  req.once('close', stop);
  let heads: IncomingMessage[];
  try {
    heads = await Promise.all(ups.map((u) => u.head));
  } catch (err) {
    stop();
    return send(res, 502, 'application/json', json({ error: 'relay-unreachable', detail: `cannot reach ${relay.url} (${err instanceof Error ? err.message : String(err)})` }));
  }
  const refused = heads.find((h) => (h.statusCode ?? 500) < 200 || (h.statusCode ?? 500) >= 300);
  if (refused) {
    const body = (await readBody(refused).catch(() => '')).trim();
    stop();
    return send(res, refused.statusCode ?? 502, 'application/json', json({ error: 'relay-refused', status: refused.statusCode, detail: body }));
  }
  res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
  res.flushHeaders();
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    stop();
    res.end();
  };
  heads.forEach((up, i) => {
    const name = names[i]!;
    const parser = new SseParser();
    up.setEncoding('utf8');
    up.on('data', (chunk: string) => {
      let out = '';
      for (const item of parser.push(chunk)) {
        if (item.kind === 'comment') out += `event: ${name}-comment\ndata: ${item.text.replace(/[\r\n]/g, ' ')}\n\n`;
        else out += `event: ${name}\n${item.data.split('\n').map((l) => `data: ${l}`).join('\n')}\n\n`;
      }
      if (out !== '' && !ended) res.write(out);
    });
    up.once('end', end);
    up.once('error', end);
    up.once('close', end);
  });
}

const LEVELS = new Set(['none', 'metadata', 'redacted', 'full']);

/** `/relay/<id>/history?session=S`: the session's replay, passed through as the relay's SSE, then the end. */
export async function proxyHistory(relay: ConsoleRelay, query: URLSearchParams, req: IncomingMessage, res: ServerResponse, send: Send, headers: Record<string, string>): Promise<void> {
  const session = query.get('session');
  if (session === null || session === '') return send(res, 400, 'application/json', json({ error: 'bad-request', detail: 'history needs ?session=S' }));
  const params = new URLSearchParams({ filter: JSON.stringify({ session }), from: 'all', live: '0' });
  const capture = query.get('capture');
  if (capture !== null && LEVELS.has(capture)) params.set('capture', capture);
  const up = open(relay, `/stream?${params.toString()}`, 'text/event-stream');
  req.once('close', () => up.req.destroy());
  let head: IncomingMessage;
  try {
    head = await up.head;
  } catch (err) {
    return send(res, 502, 'application/json', json({ error: 'relay-unreachable', detail: `cannot reach ${relay.url} (${err instanceof Error ? err.message : String(err)})` }));
  }
  const status = head.statusCode ?? 502;
  if (status < 200 || status >= 300) {
    const body = (await readBody(head).catch(() => '')).trim();
    return send(res, status, 'application/json', json({ error: 'relay-refused', status, detail: body }));
  }
  res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' });
  head.pipe(res);
}
