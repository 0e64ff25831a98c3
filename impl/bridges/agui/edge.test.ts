/**
 * The AG-UI proxy's edges (issue 39): it forwards only to its configured upstream, bounds what it
 * reads (413, 400 too-deep, 408), survives a client that hangs up, and observes the upstream's
 * stream in linear time. Real sockets, a real upstream server, no relay (the emitter logs only).
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmitter, type Emitter } from '../../bridge-kit/emitter.js';
import { useTempHome } from '../../bridge-kit/test-utils/bridge-tests.js';
import { EDGE_DEFAULTS, type EdgeLimits } from '../../http/limits.js';
import { deepArray, postHead, rawExchange } from '../../http/test-utils/wire.js';
import { startAguiProxy, type RunningAguiProxy } from './proxy.js';

interface Seen { method: string; url: string; auth: string | undefined; bytes: number }

/** A recording HTTP server: answers `reply(req)` and keeps what it saw. */
async function recorder(reply: (req: IncomingMessage, res: import('node:http').ServerResponse) => void = (_q, s) => s.end('ok')): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', auth: req.headers.authorization, bytes });
      reply(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const home = useTempHome();
const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function proxyTo(upstream: string, limits: Partial<EdgeLimits> = {}, logs: string[] = []): Promise<RunningAguiProxy> {
  const emitter: Emitter = createEmitter({ agent: 'agui', stateKey: 'bridge-agui', home: home(), emits: ['run'], log: () => undefined });
  const proxy = await startAguiProxy({ upstream, emitter, port: 0, limits: { ...EDGE_DEFAULTS, maxDepth: 128, ...limits }, log: (l) => logs.push(l) });
  cleanup.push(() => emitter.close(), () => proxy.close());
  return proxy;
}

/** Send one request with an exact target (Node's client keeps `path` as given). */
function send(base: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method: 'POST', path, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end('{}');
  });
}

describe('bridge agui forwards only to its configured upstream', () => {
  it('a target shaped like another host (//host:port/x, /\\host/x, an absolute URL) never reaches that host', async () => {
    const upstream = await recorder();
    const other = await recorder();
    cleanup.push(() => void upstream.server.close(), () => void other.server.close());
    const proxy = await proxyTo(upstream.url);
    const otherHost = new URL(other.url).host;
    for (const target of [`//${otherHost}/steal`, `/\\${otherHost}/steal`, `///${otherHost}/steal`]) {
      const res = await send(proxy.url, target, { authorization: 'Bearer x' });
      expect(res.status, target).toBe(200);
    }
    const absolute = await send(proxy.url, `${other.url}/steal`, { authorization: 'Bearer x' });
    expect(absolute.status).toBe(400);
    expect(JSON.parse(absolute.body).error).toBe('bad-request');
    expect(other.seen).toEqual([]);
    // The upstream got each as a path of its own, the credentials with it (they were meant for it).
    expect(upstream.seen.map((s) => [s.url, s.auth])).toEqual([
      [`//${otherHost}/steal`, 'Bearer x'],
      [`//${otherHost}/steal`, 'Bearer x'],
      [`///${otherHost}/steal`, 'Bearer x'],
    ]);
  });

  it('joins the target to the upstream path, keeps the query, and refuses dot segments climbing out of it', async () => {
    const upstream = await recorder();
    cleanup.push(() => void upstream.server.close());
    const proxy = await proxyTo(`${upstream.url}/agents/a1/`);
    expect((await send(proxy.url, '/run?x=1&y=%2F')).status).toBe(200);
    expect((await send(proxy.url, '/../../admin')).status).toBe(400);
    expect((await send(proxy.url, '/%2e%2e/admin')).status).toBe(400);
    expect(upstream.seen.map((s) => s.url)).toEqual(['/agents/a1/run?x=1&y=%2F']);
  });
});

describe('bridge agui bounds what it reads', () => {
  it('answers 413 to a body over its limit, declared (128 MiB) or streamed, without forwarding it', async () => {
    const upstream = await recorder();
    cleanup.push(() => void upstream.server.close());
    const proxy = await proxyTo(upstream.url, { maxBody: 64 * 1024 });
    const declared = await rawExchange(proxy.url, postHead('/agent', 128 * 1024 * 1024), { body: Buffer.alloc(256 * 1024, 0x20), pieces: 4, waitMs: 5_000 });
    expect(declared.status).toBe(413);
    expect(declared.text).toContain('"error":"payload-too-large"');
    expect(declared.text).toContain('AEP_AGUI_MAX_BODY');
    const chunked = await rawExchange(proxy.url, 'POST /agent HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n', {
      body: Buffer.concat(Array.from({ length: 32 }, () => Buffer.from(`4000\r\n${' '.repeat(0x4000)}\r\n`))), pieces: 32, waitMs: 5_000,
    });
    expect(chunked.status).toBe(413);
    expect(upstream.seen).toEqual([]);
    expect((await fetch(`${proxy.url}/healthz`)).status).toBe(200);
  });

  it('answers 400 too-deep to run input nested 10,000 levels, naming the limit', async () => {
    const upstream = await recorder();
    cleanup.push(() => void upstream.server.close());
    const proxy = await proxyTo(upstream.url);
    const res = await fetch(`${proxy.url}/agent`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"threadId":"t","state":${deepArray(10_000)}}` });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; detail: string; limit: number };
    expect(body.error).toBe('too-deep');
    expect(body.limit).toBe(128);
    expect(body.detail).toContain('AEP_AGUI_MAX_DEPTH');
    expect(upstream.seen).toEqual([]);
  });

  it('cuts a body trickled at a few bytes a second with 408 once the body timeout passes', async () => {
    const upstream = await recorder();
    cleanup.push(() => void upstream.server.close());
    const proxy = await proxyTo(upstream.url, { headersTimeoutMs: 400, bodyTimeoutMs: 800 });
    const slow = await rawExchange(proxy.url, postHead('/agent', 600), { body: Buffer.alloc(600, 0x20), pieces: 300, gapMs: 500, waitMs: 8_000 });
    expect(slow.closed).toBe(true);
    expect(slow.status).toBe(408);
    expect(slow.ms).toBeLessThan(4_000);
    const idle = await rawExchange(proxy.url, 'GET /healthz HTTP/1.1\r\n', { waitMs: 8_000 });
    expect(idle.closed).toBe(true);
    expect(idle.ms).toBeLessThan(4_000);
    expect(upstream.seen).toEqual([]);
  });

  it('a client that hangs up mid-body costs nothing: the proxy keeps serving, nothing is forwarded', async () => {
    const upstream = await recorder();
    cleanup.push(() => void upstream.server.close());
    const proxy = await proxyTo(upstream.url);
    for (let i = 0; i < 20; i++) {
      const cut = await rawExchange(proxy.url, postHead('/agent', 10_000), { body: Buffer.alloc(10_000, 0x20), pieces: 10, hangUpAfter: 3 });
      expect(cut.closed).toBe(true);
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(upstream.seen).toEqual([]);
    expect((await fetch(`${proxy.url}/healthz`)).status).toBe(200);
    expect((await send(proxy.url, '/agent')).status).toBe(200);
  });
});

describe('bridge agui streams a long answer past the request timeout', () => {
  it('the request timeout covers receiving the request only: a 1.5 s event stream is not cut at 500 ms', async () => {
    const upstream = await recorder((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const tick = setInterval(() => {
        res.write(`data: {"type":"x","n":${n}}\n\n`);
        if (++n === 6) {
          clearInterval(tick);
          res.end();
        }
      }, 250);
    });
    cleanup.push(() => void upstream.server.close());
    const proxy = await proxyTo(upstream.url, { headersTimeoutMs: 300, bodyTimeoutMs: 500 });
    const res = await fetch(`${proxy.url}/agent`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const text = await res.text();
    expect(text.match(/^data: /gm)?.length).toBe(6);
  });
});

describe('bridge agui observes the upstream stream in linear time', () => {
  it('a 32 MiB line with no newline passes to the UI whole, fast, and is not observed past the limit', async () => {
    const piece = Buffer.alloc(64 * 1024, 0x61);
    const upstream = await recorder((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const next = (): void => {
        while (n < 512) {
          n++;
          if (!res.write(n === 1 ? Buffer.concat([Buffer.from('data: '), piece.subarray(6)]) : piece)) return void res.once('drain', next);
        }
        res.end();
      };
      next();
    });
    cleanup.push(() => void upstream.server.close());
    const logs: string[] = [];
    const proxy = await proxyTo(upstream.url, { maxBody: 16 * 1024 * 1024 }, logs);
    const t0 = Date.now();
    const res = await fetch(`${proxy.url}/agent`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const got = Buffer.from(await res.arrayBuffer());
    const ms = Date.now() - t0;
    expect(got.length).toBe(512 * piece.length);
    expect(ms).toBeLessThan(10_000);
    expect(logs.some((l) => l.includes('AEP_AGUI_MAX_BODY'))).toBe(true);
  });
});
