import { describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { fleetMember, useRelay } from './test-utils/use-relay.js';
import { makeEvent, makeSeries, post } from './test-utils/testing.js';

const harness = useRelay();
const start = harness.start;

describe('POST /events', () => {
  it('accepts one event as application/json with 202', async () => {
    const base = await start();
    const r = await post(base, JSON.stringify(makeEvent()));
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ accepted: 1, duplicates: 0 });
  });

  it('accepts an NDJSON batch, a charset parameter, and counts duplicates', async () => {
    const base = await start();
    const lines = makeSeries('batch-1', 0, 2);
    const r = await post(base, [...lines, lines[0]!], { type: 'application/x-ndjson; charset=utf-8' });
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ accepted: 4, duplicates: 1 });
  });

  it('refuses an invalid event with 400 naming the line and the rule, and ingests nothing', async () => {
    const base = await start();
    const bad = JSON.stringify(makeEvent({ session: 'bad-1', seq: 1, time: 'yesterday' }));
    const r = await post(base, [JSON.stringify(makeEvent({ session: 'bad-1', seq: 0 })), bad]);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid-event');
    expect(r.body.line).toBe(2);
    expect(r.body.detail).toMatch(/^line 2: \$\.time \[[a-z.]+, AEP-0001/);
    expect(r.body.issues[0]).toMatchObject({ path: '$.time', line: 2 });
    const health = (await (await fetch(`${base}/healthz`)).json()) as any;
    expect(health.events).toBe(0);
  });

  it('refuses garbage JSON with 400 and rule binding.json', async () => {
    const base = await start();
    const r = await post(base, '{"aep": "0.1",');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'invalid-event', line: 1 });
    expect(r.body.issues[0].rule).toBe('binding.json');
  });

  it('refuses a wrong content type with 415', async () => {
    const base = await start();
    const r = await post(base, JSON.stringify(makeEvent()), { type: 'text/plain' });
    expect(r.status).toBe(415);
    expect(r.body.error).toBe('unsupported-media-type');
  });

  it('answers an unsupported version with 426 and exactly the body AEP-0003 §3.2 names', async () => {
    const base = await start();
    for (const version of ['1.0', '0.2', 'banana']) {
      const r = await post(base, JSON.stringify(makeEvent()), { version });
      expect(r.status).toBe(426);
      expect(r.body).toEqual({ versions: ['0.1'] });
      expect(r.headers.upgrade).toBe('AEP/0.1');
    }
  });

  it('answers a missing AEP-Version with 400 version-required', async () => {
    const base = await start();
    const r = await post(base, JSON.stringify(makeEvent()), { version: null });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'version-required', versions: ['0.1'] });
  });

  it('refuses a batch over AEP_MAX_BATCH with 413 too-many-events and ingests nothing', async () => {
    const base = await start({ maxBatch: 3 });
    const r = await post(base, makeSeries('big', 0, 3));
    expect(r.status).toBe(413);
    expect(r.body.error).toBe('too-many-events');
    expect(((await (await fetch(`${base}/healthz`)).json()) as any).events).toBe(0);
  });

  it('refuses a body over AEP_MAX_BODY with 413 payload-too-large', async () => {
    const base = await start({ maxBody: 2048 });
    const r = await post(base, makeSeries('huge', 0, 40));
    expect(r.status).toBe(413);
    expect(r.body.error).toBe('payload-too-large');
  });

  it('refuses a chunked body that crosses AEP_MAX_BODY before it ends', async () => {
    const base = await start({ maxBody: 2048 });
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${base}/events`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson', 'aep-version': '0.1' } }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.write(makeSeries('chunked', 0, 40).join('\n')); // never ended: the relay answers anyway
    });
    expect(status).toBe(413);
    expect(JSON.parse(body).error).toBe('payload-too-large');
  });

  it('refuses commands over HTTP with 403: control flows only on the WebSocket', async () => {
    const base = await start();
    const cmd = makeEvent({ type: 'control.cancel', seq: undefined, epoch: undefined, data: { scope: 'session' } });
    const r = await post(base, JSON.stringify(cmd));
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('control-requires-duplex');
  });
});

describe('discovery, health, auth', () => {
  it('serves the discovery document at GET /events and /.well-known/aep', async () => {
    const base = await start({ buffer: 8 });
    for (const path of ['/events', '/.well-known/aep']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.json()).toEqual({
        aep: ['0.1'],
        role: 'collector',
        endpoints: { events: '/events', stream: '/stream', socket: '/socket' },
        capabilities: {
          filters: ['attr-match'],
          replay: { buffer: 8, all: true },
          capture: ['none', 'metadata', 'redacted', 'full'],
          control: { accepts: [] },
          roster: {},
          experimental: { 'pong-acks': {} },
        },
        ...fleetMember(),
      });
    }
  });

  it('shows counts on /healthz only when authorized', async () => {
    const base = await start({ token: 'sekrit' });
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ ok: true, ...fleetMember() });
    const authed = (await (await fetch(`${base}/healthz`, { headers: { authorization: "Bearer sekrit" } })).json()) as any;
    expect(Object.keys(authed).sort()).toEqual(['connections', 'events', ...Object.keys(fleetMember()), 'ok', 'sessions', 'subscribers', 'uptime_s']);
  });

  it('requires the token on ingest and stream: 401 missing, 401 invalid_token wrong (RFC 6750 §3.1), query token accepted', async () => {
    const base = await start({ token: 'sekrit' });
    const line = JSON.stringify(makeEvent());
    const missing = await post(base, line);
    expect([missing.status, missing.headers['www-authenticate']]).toEqual([401, 'Bearer realm="aep"']);
    const wrong = await post(base, line, { token: 'nope' });
    expect([wrong.status, wrong.headers['www-authenticate'], wrong.body.error]).toEqual([401, 'Bearer realm="aep", error="invalid_token"', 'invalid-token']);
    expect(JSON.stringify(wrong.body)).not.toContain('sekrit');
    const stream = await fetch(`${base}/stream?live=0&access_token=nope`);
    expect([stream.status, stream.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="aep", error="invalid_token"']);
    await stream.text();
    expect((await post(base, line, { token: 'sekrit' })).status).toBe(202);
    expect((await fetch(`${base}/stream?live=0`)).status).toBe(401);
    const ok = await fetch(`${base}/stream?live=0&access_token=sekrit`);
    expect(ok.status).toBe(200);
    await ok.text();
  });

  it('answers CORS preflight and puts allow-origin on refusals', async () => {
    const base = await start({ token: 'sekrit' });
    const pre = await fetch(`${base}/events`, { method: 'OPTIONS' });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')).toContain('AEP-Version');
    const refused = await post(base, JSON.stringify(makeEvent()));
    expect(refused.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers unknown paths with 404 and wrong methods with 405', async () => {
    const base = await start();
    expect((await fetch(`${base}/nope`)).status).toBe(404);
    const put = await fetch(`${base}/events`, { method: 'PUT', body: '{}' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
  });
});
