/**
 * The console's server on the wire: the DNS-rebinding, duplicate-Host and cross-site guards
 * (exact bytes), the launch secret, the CSP, the relay list (never a token), and the relay
 * routes adding the token the page never holds.
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

const SECRET = 'launch-secret-for-tests';

/** `URL=TOKEN` in these tests is the test's shorthand: the token reaches the config as a token file would. */
async function start(relays: string[]): Promise<RunningConsole> {
  const specs = relays.map((r) => r.split('='));
  const config = parseConsoleConfig({ relay: specs.map((s) => s[0]!), port: '0' }, {});
  const c = await startConsole({ config: { ...config, relays: config.relays.map((r, i) => ({ ...r, token: specs[i]![1] })) }, assets, secret: SECRET });
  cleanups.push(() => c.close());
  return c;
}

const cookie = (c: RunningConsole): Record<string, string> => ({ cookie: `aep-console-${c.port}=${SECRET}` });

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

  it('refuses a request with two Host headers (400), whichever comes first', async () => {
    const c = await start(['http://127.0.0.1:1']);
    const body = '{"error":"duplicate-host","detail":"the request carries 2 Host headers: send exactly one (RFC 9112 §3.2)"}\n';
    const expected = `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`;
    expect(await raw(c.port, `GET /api/relays HTTP/1.1\r\nHost: 127.0.0.1:${c.port}\r\nHost: evil.example\r\n\r\n`)).toBe(expected);
    expect(await raw(c.port, `GET / HTTP/1.1\r\nHost: evil.example\r\nHost: 127.0.0.1:${c.port}\r\n\r\n`)).toBe(expected);
  });

  it('answers /api and /relay only with the launch secret (403 whatever the Origin), and exchanges the URL secret for an HttpOnly SameSite=Strict cookie', async () => {
    const c = await start(['http://127.0.0.1:1=tok-a']);
    expect(c.url).toBe(`http://127.0.0.1:${c.port}/?token=${SECRET}`);
    for (const path of ['/api/relays', '/relay/r0/discovery', '/relay/r0/events', '/api/anything']) {
      for (const origin of [undefined, `http://127.0.0.1:${c.port}`]) {
        const res = await fetch(`${c.base}${path.slice(1)}`, { headers: origin ? { origin } : {} });
        expect(res.status).toBe(403);
        expect(await res.json()).toMatchObject({ error: 'launch-secret-required' });
      }
      expect((await fetch(`${c.base}${path.slice(1)}`, { headers: { cookie: `aep-console-${c.port}=wrong` } })).status).toBe(403);
    }
    expect((await fetch(c.base)).status).toBe(403);
    expect((await fetch(`${c.base}?token=wrong`, { redirect: 'manual' })).status).toBe(403);
    const exchange = await fetch(c.url, { redirect: 'manual' });
    expect(exchange.status).toBe(303);
    expect(exchange.headers.get('location')).toBe('/');
    expect(exchange.headers.get('set-cookie')).toBe(`aep-console-${c.port}=${SECRET}; Path=/; HttpOnly; SameSite=Strict`);
    expect((await fetch(c.base, { headers: cookie(c) })).status).toBe(200);
  });

  it('serves the page with a CSP naming only the console, and the relay list without tokens', async () => {
    const c = await start(['http://127.0.0.1:8787=tok-a', 'http://localhost:9999/']);
    const page = await fetch(c.base, { headers: cookie(c) });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(
      `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ws://127.0.0.1:${c.port}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/app.js"></script>');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toContain('style=');
    const list = await fetch(`${c.base}api/relays`, { headers: { 'sec-fetch-site': 'same-origin', ...cookie(c) } });
    expect(list.headers.get('cache-control')).toBe('no-store');
    const text = await list.text();
    expect(JSON.parse(text)).toEqual({ relays: [{ id: 'r0', url: 'http://127.0.0.1:8787', auth: true }, { id: 'r1', url: 'http://localhost:9999', auth: false }] });
    expect(text).not.toContain('tok-a');
  });

  it('reads the relay through the console: the token added upstream, both subscriptions in one tagged stream, a refusal passed on with its status', async () => {
    const relay = await startRelay({ port: 0, token: 'proxy-token', drainMs: 100 });
    cleanups.push(() => relay.close());
    await fetch(`${relay.url}/events`, {
      method: 'POST',
      headers: { authorization: 'Bearer proxy-token', 'content-type': 'application/x-ndjson', 'aep-version': '0.1' },
      body: JSON.stringify({ aep: '0.1', id: 'p-1', type: 'session.started', time: '2026-01-01T00:00:00Z', source: 'aep://t/a', agent: 'a', session: 's', seq: 0, capture: 'metadata', data: {} }),
    });
    const c = await start([`${relay.url}=proxy-token`]);
    const ctl = new AbortController();
    const res = await fetch(`${c.base}relay/r0/events?lanes=${encodeURIComponent('from=all')}&inbox=${encodeURIComponent('from=all&filter={"type":"session.*"}')}`, { headers: cookie(c), signal: ctl.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!(text.includes('event: lanes\n') && text.includes('event: inbox\n'))) text += (await reader.read()).value ?? '';
    ctl.abort();
    expect(text).toContain('"id":"p-1"');
    // one session's whole history, ending after the replay
    const hist = await fetch(`${c.base}relay/r0/history?session=s`, { headers: cookie(c) });
    expect(hist.status).toBe(200);
    expect(await hist.text()).toContain('"id":"p-1"');
    expect((await fetch(`${c.base}relay/r0/history`, { headers: cookie(c) })).status).toBe(400);
    const discovery = await fetch(`${c.base}relay/r0/discovery`, { headers: cookie(c) });
    expect(((await discovery.json()) as { capabilities: { roster?: unknown } }).capabilities.roster).toEqual({});
    const wrong = await start([`${relay.url}=wrong-token`]);
    const refused = await fetch(`${wrong.base}relay/r0/events?lanes=from%3Dall&inbox=from%3Dall`, { headers: cookie(wrong) });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'relay-refused', status: 401 });
    const down = await start(['http://127.0.0.1:1']);
    const unreachable = await fetch(`${down.base}relay/r0/events?lanes=&inbox=`, { headers: cookie(down) });
    expect(unreachable.status).toBe(502);
    expect(await unreachable.json()).toMatchObject({ error: 'relay-unreachable' });
  });

  it('pipes the page socket to the relay with the token in Authorization, frames unchanged', async () => {
    const relay = await startRelay({ port: 0, token: 'pipe-token', drainMs: 100 });
    cleanups.push(() => relay.close());
    const c = await start([`${relay.url}=pipe-token`]);
    const ws = new WebSocket(`ws://127.0.0.1:${c.port}/relay/r0/socket`, { origin: `http://127.0.0.1:${c.port}`, headers: cookie(c) });
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
    const ws = new WebSocket(`ws://127.0.0.1:${c.port}/relay/r0/socket`, { origin: `http://localhost:${c.port}`, headers: cookie(c) });
    const closed = await new Promise<[number, string]>((r) => ws.once('close', (code, reason) => r([code, reason.toString()])));
    expect(closed).toEqual([1008, 'relay refused the socket: HTTP 401']);
  });
});
