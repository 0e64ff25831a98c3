/**
 * `POST /events` as a client sees it, answer by answer (issue 37, mutation testing where the I/O
 * is): the version gate's exact bodies and headers, the media type refusal, a body that is not
 * UTF-8, and a hub that cannot store (a fleet without NATS): 503 with `Retry-After`, nothing
 * acknowledged. Each answer is asserted whole: status, headers that matter, body bytes.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULTS } from './config.js';
import type { HubLike } from './hub.js';
import { handleIngest, versionRefusal } from './ingest.js';
import { makeEvent } from './test-utils/testing.js';

let server: Server | null = null;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

/** A relay of one route, POST /events, over `hub`. */
async function serve(hub: Partial<HubLike>): Promise<number> {
  server = createServer((req, res) => void handleIngest(req, res, DEFAULTS, hub as HubLike));
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

function send(port: number, headers: Record<string, string>, body: Buffer | string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/events', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const JSON_V1 = { 'content-type': 'application/json', 'aep-version': '0.1' };
const storing: Partial<HubLike> = { ingest: async (recs) => ({ ok: true, fresh: recs.length }) };

describe('the version gate', () => {
  it('no AEP-Version: 400 version-required, with the versions and how to fix it, and no Upgrade header', async () => {
    const port = await serve(storing);
    const res = await send(port, { 'content-type': 'application/json' }, JSON.stringify(makeEvent()));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ error: 'version-required', versions: ['0.1'], detail: 'send the AEP-Version: 0.1 request header (AEP-0003 §3.2)' });
    expect(res.headers.upgrade).toBeUndefined();
  });

  it('an unsupported version: 426 with exactly {"versions":["0.1"]} and Upgrade: AEP/0.1', async () => {
    const port = await serve(storing);
    const res = await send(port, { 'content-type': 'application/json', 'aep-version': '0.2' }, JSON.stringify(makeEvent()));
    expect([res.status, res.body, res.headers.upgrade]).toEqual([426, '{"versions":["0.1"]}\n', 'AEP/0.1']);
  });

  it('a list naming a supported version anywhere is accepted, spaces around it too; a list naming none is refused', () => {
    expect(versionRefusal('0.1')).toBeNull();
    expect(versionRefusal('0.2, 0.1')).toBeNull();
    expect(versionRefusal(' 0.1 ,0.2')).toBeNull();
    expect(versionRefusal(['0.2', '0.1'])).toBeNull();
    expect(versionRefusal(['0.2', '0.3'])).toEqual({ status: 426, body: { versions: ['0.1'] } });
    expect(versionRefusal('0.2,0.3')).toEqual({ status: 426, body: { versions: ['0.1'] } });
    expect(versionRefusal('0.10')).toEqual({ status: 426, body: { versions: ['0.1'] } });
  });
});

describe('the body', () => {
  it('another media type: 415 naming what was sent and what to send', async () => {
    const port = await serve(storing);
    const res = await send(port, { 'content-type': 'text/plain', 'aep-version': '0.1' }, 'x');
    expect(res.status).toBe(415);
    expect(JSON.parse(res.body)).toEqual({
      error: 'unsupported-media-type',
      detail: 'Content-Type "text/plain" is not accepted: send application/json (one event) or application/x-ndjson (one event per line)',
    });
  });

  it('no media type at all: 415 naming an empty one', async () => {
    const port = await serve(storing);
    const res = await send(port, { 'aep-version': '0.1' }, 'x');
    expect(res.status).toBe(415);
    expect(JSON.parse(res.body).detail).toMatch(/^Content-Type "" is not accepted: /);
  });

  it('a body that is not UTF-8: 400 invalid-event naming the offset, with the encoding rule; nothing ingested', async () => {
    let ingested = 0;
    const port = await serve({ ingest: async (recs) => ((ingested += recs.length), { ok: true, fresh: recs.length }) });
    const res = await send(port, JSON_V1, Buffer.concat([Buffer.from('{"id":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      error: 'invalid-event',
      detail: 'the body is not valid UTF-8 (first bad byte at offset 7); AEP events are UTF-8 JSON, and the relay never substitutes U+FFFD; nothing was ingested',
      issues: [{ rule: 'stream.line.encoding', section: 'AEP-0001 §5', path: '$', message: 'invalid UTF-8 at byte 7' }],
    });
    expect(ingested).toBe(0);
  });

  it('a valid batch: 202 with accepted and duplicates (events the hub already held)', async () => {
    const port = await serve({ ingest: async (recs) => ({ ok: true, fresh: recs.length - 1 }) });
    const lines = [makeEvent({ id: 'a1', seq: 0 }), makeEvent({ id: 'a2', seq: 1 })].map((e) => JSON.stringify(e)).join('\n');
    const res = await send(port, { 'content-type': 'application/x-ndjson', 'aep-version': '0.1' }, lines);
    expect([res.status, res.body]).toEqual([202, '{"accepted":2,"duplicates":1}\n']);
  });
});

describe('a hub that cannot store', () => {
  it('503 unavailable with Retry-After: 1, the hub\'s reason, and that nothing of the request is acknowledged', async () => {
    const port = await serve({ ingest: async () => ({ ok: false, code: 'unavailable', detail: 'NATS is away' }) });
    const res = await send(port, JSON_V1, JSON.stringify(makeEvent()));
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(JSON.parse(res.body)).toEqual({
      error: 'unavailable',
      detail: 'NATS is away; nothing of this request is acknowledged: send the whole batch again later (events already stored are dropped as duplicates by (source, id))',
    });
  });
});
