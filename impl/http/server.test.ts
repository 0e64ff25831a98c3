import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startHealthz } from './healthz.js';
import { EDGE_DEFAULTS } from './limits.js';
import { closeServer, createEdgeServer, edgeServerOptions, listenLoopback } from './server.js';
import { rawExchange } from './test-utils/wire.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

describe('createEdgeServer', () => {
  it("maps the limits onto Node's timeouts, checked often enough to cut on time", () => {
    expect(edgeServerOptions({ ...EDGE_DEFAULTS, headersTimeoutMs: 400, bodyTimeoutMs: 800 })).toEqual({ headersTimeout: 400, requestTimeout: 800, connectionsCheckingInterval: 100, keepAliveTimeout: 800 });
    expect(edgeServerOptions(EDGE_DEFAULTS)).toEqual({ headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000, keepAliveTimeout: 5_000 });
  });

  it('a handler that throws or rejects answers 500, logged, and the server keeps serving', async () => {
    const logs: string[] = [];
    const server = createEdgeServer(EDGE_DEFAULTS, (req, res) => {
      if (req.url === '/throw') throw new Error('boom');
      if (req.url === '/reject') return Promise.reject(new Error('later'));
      res.end('ok');
    }, (l) => logs.push(l));
    const port = await listenLoopback(server, 0);
    closers.push(() => closeServer(server));
    const base = `http://127.0.0.1:${port}`;
    for (const path of ['/throw', '/reject']) {
      const res = await fetch(`${base}${path}`);
      expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([500, 'internal']);
    }
    expect(await (await fetch(`${base}/fine`)).text()).toBe('ok');
    expect(logs).toEqual(['internal error on GET /throw: boom', 'internal error on GET /reject: later']);
  });
});

describe('startHealthz', () => {
  it('answers GET /healthz with the status, 404 otherwise, and cuts an idle connection at its header timeout', async () => {
    let n = 0;
    const h = await startHealthz(0, () => ({ ok: true, n: ++n }), () => undefined, { ...EDGE_DEFAULTS, maxBody: 0, headersTimeoutMs: 300, bodyTimeoutMs: 600 });
    closers.push(() => h.close());
    expect(await (await fetch(`${h.url}/healthz`)).json()).toEqual({ ok: true, n: 1 });
    const other = await fetch(`${h.url}/other`, { method: 'POST', body: 'x' });
    expect([other.status, await other.json()]).toEqual([404, { error: 'not-found', detail: 'GET /healthz' }]);
    const idle = await rawExchange(h.url, '', { waitMs: 5_000 });
    expect([idle.closed, idle.status]).toEqual([true, 408]);
    expect(idle.ms).toBeLessThan(2_000);
    expect((h.server.address() as AddressInfo).port).toBeGreaterThan(0);
  });
});
