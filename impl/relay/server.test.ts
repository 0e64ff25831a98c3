import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { request } from 'node:http';
import { useRelay } from './test-utils/use-relay.js';
import { helloWs, makeEvent, openSse, post, sleep } from './test-utils/testing.js';
import { skipped, WHY } from '../test-utils/skip.js';

const harness = useRelay();
const start = harness.start;

function rawHttp(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1', () => s.write(text));
    let out = '';
    s.on('data', (d) => (out += d));
    s.on('close', () => resolve(out));
    s.on('error', () => resolve(out));
    setTimeout(() => s.destroy(), 1000).unref();
  });
}

describe('robustness', () => {
  it('survives bad requests and keeps serving everyone else', async () => {
    const base = await start();
    const port = harness.relay().port;
    const sse = await openSse(`${base}/stream`);
    expect(await rawHttp(port, 'GARBAGE\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    for (const target of ['//', '//:99999', '*', 'http://[']) {
      expect(await rawHttp(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`), target).toMatch(/^HTTP\/1\.1 (400|404)/);
      const upgrade = `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`;
      expect(await rawHttp(port, upgrade), target).toMatch(/^HTTP\/1\.1 (400|404)/);
    }
    expect(await rawHttp(port, 'GET /stream?filter=%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    for (const body of ['null', '[]', '"text"', '42', '{}']) expect((await post(base, body)).status, body).toBe(400);
    expect((await post(base, ['1', '{"a":1}'])).status).toBe(400);
    expect((await post(base, '')).status).toBe(400);
    expect((await post(base, [])).body).toEqual({ accepted: 0, duplicates: 0 });
    const res = await fetch(`${base}/stream?live=0`, { headers: { 'last-event-id': '\u00ff-not-ours' } });
    expect(res.status).toBe(200);
    await res.text();
    const ws = await helloWs(base);
    ws.sendRaw('\u0000\u0001');
    ws.send({ type: 'subscribe', id: 'x', filter: 'not-an-object' });
    await ws.waitFor((f) => f?.id === 'x');
    const line = JSON.stringify(makeEvent({ session: 'still-up', seq: 0 }));
    expect((await post(base, line)).status).toBe(202);
    await sse.waitFor((t) => t.includes(line));
    sse.close();
    ws.ws.terminate();
  });
});

describe('shutdown', () => {
  it('drains cleanly: shutdown resolves true and the port is released', async () => {
    const base = await start();
    const sse = await openSse(`${base}/stream`);
    const ws = await helloWs(base);
    expect(await harness.relay().shutdown()).toBe(true);
    await sse.ended;
    expect((await ws.closed).code).toBe(1001);
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });

  it('cuts off a client that will not finish after drainMs and reports it', async () => {
    const base = await start({ drainMs: 150 });
    const req = request(`${base}/events`, { method: 'POST', headers: { 'content-type': 'application/json', 'aep-version': '0.1', 'content-length': '5000' } });
    req.on('error', () => {});
    req.write('{"aep":');
    await sleep(50);
    const t0 = Date.now();
    expect(await harness.relay().shutdown()).toBe(false);
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});

const BIN = new URL('../../bin/aep.js', import.meta.url).pathname;
const BUILT = existsSync(new URL('../../dist/impl/relay/server.js', import.meta.url));

describe.skipIf(!BUILT)(`the aep relay process (built dist/)${skipped(!BUILT, WHY.build)}`, () => {
  it('prints its URL, and on SIGTERM says goodbye to clients and exits 0', async () => {
    const child = spawn(process.execPath, [BIN, 'relay', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, AEP_TOKEN: '' } });
    try {
      const line = await new Promise<string>((resolve) => child.stdout.once('data', (d) => resolve(String(d))));
      expect(line).toMatch(/^aep relay listening on http:\/\/127\.0\.0\.1:\d+\n/);
      const url = line.trim().split(' ').at(-1)!;
      const sse = await openSse(`${url}/stream`);
      const ws = await helloWs(url);
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await sse.ended;
      expect(sse.text()).toBe(': shutting-down\n\n');
      expect((await ws.closed).code).toBe(1001);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
