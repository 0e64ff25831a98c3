/**
 * The console's server on the wire: the DNS-rebinding and cross-site guards (exact bytes), the
 * CSP, the relay list, and the socket pipe adding the token the page never puts in a URL.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startRelay } from '../relay/server.js';
import { parseConsoleConfig } from './config.js';
import { startConsole, type RunningConsole } from './server.js';

const assets = { js: Buffer.from('export {};\n'), css: Buffer.from('body{}\n') };
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function start(relays: string[]): Promise<RunningConsole> {
  const c = await startConsole({ config: parseConsoleConfig({ relay: relays, port: '0' }, {}), assets });
  cleanups.push(() => c.close());
  return c;
}

/** Raw request text in, the whole raw response out. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => s.write(text));
    const chunks: Buffer[] = [];
    s.on('data', (c) => chunks.push(c));
    s.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    s.on('error', reject);
  });
}

describe('aep console server', () => {
  it('refuses a foreign Host header (DNS rebinding) with 421, byte for byte', async () => {
    const c = await start(['http://127.0.0.1:1']);
    const body = `{"error":"foreign-host","detail":"this console answers to Host 127.0.0.1:${c.port} or localhost:${c.port} only (DNS rebinding guard); open http://127.0.0.1:${c.port}/"}\n`;
    const expected = `HTTP/1.1 421 Misdirected Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`;
    expect(await raw(c.port, 'GET /api/relays HTTP/1.1\r\nHost: evil.example:8790\r\n\r\n')).toBe(expected);
    // the same for the socket pipe's upgrade, and for a request with no Host at all
    expect(await raw(c.port, `GET /relay/r0/socket HTTP/1.1\r\nHost: rebind.example:${c.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`)).toBe(expected);
    expect(await raw(c.port, 'GET / HTTP/1.0\r\n\r\n')).toBe(expected);
  });

  it('refuses cross-site pages: a foreign Origin on the socket, a cross-site fetch of the relay list', async () => {
    const c = await start(['http://127.0.0.1:1=secret-token']);
    const origin = await raw(c.port, `GET /relay/r0/socket HTTP/1.1\r\nHost: 127.0.0.1:${c.port}\r\nOrigin: https://evil.example\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    const body = `{"error":"foreign-origin","detail":"requests from https://evil.example are refused: only the console's own page (http://127.0.0.1:${c.port}) may call it"}\n`;
    expect(origin).toBe(`HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`);
    const noOrigin = await raw(c.port, `GET /relay/r0/socket HTTP/1.1\r\nHost: 127.0.0.1:${c.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    expect(noOrigin.split('\r\n')[0]).toBe('HTTP/1.1 403 Forbidden');
    const site = await raw(c.port, `GET /api/relays HTTP/1.1\r\nHost: 127.0.0.1:${c.port}\r\nSec-Fetch-Site: cross-site\r\n\r\n`);
    expect(site.split('\r\n')[0]).toBe('HTTP/1.1 403 Forbidden');
    expect(site).not.toContain('secret-token');
  });

  it('serves the page with a CSP naming only its relays, and the relay list same-origin', async () => {
    const c = await start(['http://127.0.0.1:8787=tok-a', 'http://localhost:9999/']);
    const page = await fetch(c.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(
      `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ws://127.0.0.1:${c.port} http://127.0.0.1:8787 http://localhost:9999; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/app.js"></script>');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toContain('style=');
    const list = await fetch(`${c.url}api/relays`, { headers: { 'sec-fetch-site': 'same-origin' } });
    expect(list.headers.get('cache-control')).toBe('no-store');
    expect(await list.json()).toEqual({ relays: [{ id: 'r0', url: 'http://127.0.0.1:8787', token: 'tok-a' }, { id: 'r1', url: 'http://localhost:9999' }] });
  });

  it('pipes the page socket to the relay with the token in Authorization, frames unchanged', async () => {
    const relay = await startRelay({ port: 0, token: 'pipe-token', drainMs: 100 });
    cleanups.push(() => relay.close());
    const c = await start([`${relay.url}=pipe-token`]);
    const ws = new WebSocket(`ws://127.0.0.1:${c.port}/relay/r0/socket`, { origin: `http://127.0.0.1:${c.port}` });
    cleanups.push(async () => ws.terminate());
    const frames: string[] = [];
    ws.on('message', (d) => frames.push(d.toString()));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ type: 'hello', versions: ['0.1'], role: 'both', identity: { agent: 'pipe-test' }, capabilities: {} }));
    ws.send(JSON.stringify({ type: 'roster', id: 'q1' }));
    for (let i = 0; i < 100 && frames.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(JSON.parse(frames[0]!).type).toBe('hello');
    expect(frames[1]).toBe('{"type":"roster","id":"q1","entries":[]}');
  });

  it('closes the page socket with the reason when the relay refuses the token', async () => {
    const relay = await startRelay({ port: 0, token: 'right', drainMs: 100 });
    cleanups.push(() => relay.close());
    const c = await start([`${relay.url}=wrong`]);
    const ws = new WebSocket(`ws://127.0.0.1:${c.port}/relay/r0/socket`, { origin: `http://localhost:${c.port}` });
    const closed = await new Promise<[number, string]>((r) => ws.once('close', (code, reason) => r([code, reason.toString()])));
    expect(closed).toEqual([1008, 'relay refused the socket: HTTP 401']);
  });
});
