/**
 * AEP_CORS_ORIGINS: which pages may read the relay. Unset, every reply says `*` (as before);
 * set, a listed Origin is echoed and any other gets the first listed origin (never its own, never
 * `*`), and a page of another origin cannot open the socket.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, parseRelayConfig } from './config.js';
import { startRelay } from './server.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => s.write(text));
    const chunks: Buffer[] = [];
    s.on('data', (c) => chunks.push(c));
    s.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    s.on('error', reject);
  });
}

describe('relay CORS origins', () => {
  it('parses AEP_CORS_ORIGINS as bare origins, and names a bad entry', () => {
    expect(parseRelayConfig({}).corsOrigins).toBeUndefined();
    expect(parseRelayConfig({ AEP_CORS_ORIGINS: ' http://127.0.0.1:8790 , https://ops.example/ ' }).corsOrigins).toEqual(['http://127.0.0.1:8790', 'https://ops.example']);
    expect(() => parseRelayConfig({ AEP_CORS_ORIGINS: 'http://127.0.0.1:8790/console' })).toThrow(ConfigError);
    expect(() => parseRelayConfig({ AEP_CORS_ORIGINS: '*' })).toThrow(/is not an origin/);
  });

  it('echoes a listed origin, names the first listed one to anyone else, on preflight, JSON and SSE replies', async () => {
    const relay = await startRelay({ port: 0, token: 't', drainMs: 50, corsOrigins: ['http://127.0.0.1:8790', 'http://localhost:8790'] });
    cleanups.push(() => relay.close());
    const pre = await fetch(`${relay.url}/stream`, { method: 'OPTIONS', headers: { origin: 'http://localhost:8790' } });
    expect([pre.status, pre.headers.get('access-control-allow-origin'), pre.headers.get('vary')]).toEqual([204, 'http://localhost:8790', 'Origin']);
    const foreign = await fetch(`${relay.url}/stream`, { headers: { origin: 'https://evil.example' } });
    expect([foreign.status, foreign.headers.get('access-control-allow-origin')]).toEqual([401, 'http://127.0.0.1:8790']);
    const ac = new AbortController();
    const sse = await fetch(`${relay.url}/stream`, { headers: { origin: 'http://127.0.0.1:8790', authorization: 'Bearer t' }, signal: ac.signal });
    expect([sse.status, sse.headers.get('access-control-allow-origin')]).toEqual([200, 'http://127.0.0.1:8790']);
    ac.abort();
  });

  it('keeps * when unset', async () => {
    const relay = await startRelay({ port: 0, drainMs: 50 });
    cleanups.push(() => relay.close());
    const res = await fetch(`${relay.url}/healthz`, { headers: { origin: 'https://any.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('refuses a socket upgrade from an unlisted page origin, byte for byte; a listed one and a non-browser client pass', async () => {
    const relay = await startRelay({ port: 0, drainMs: 50, corsOrigins: ['http://127.0.0.1:8790'] });
    cleanups.push(() => relay.close());
    const upgrade = (origin: string) => `GET /socket HTTP/1.1\r\nHost: 127.0.0.1:${relay.port}\r\n${origin}Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`;
    const body = `{"error":"forbidden-origin","detail":"a page from https://evil.example may not open this relay's socket; AEP_CORS_ORIGINS lists the allowed origins"}\n`;
    expect(await raw(relay.port, upgrade('Origin: https://evil.example\r\n'))).toBe(`HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    const firstLine = (text: string) => text.split('\r\n')[0];
    const probe = (origin: string) =>
      new Promise<string>((resolve) => {
        const s = connect(relay.port, '127.0.0.1', () => s.write(upgrade(origin)));
        s.once('data', (d) => (resolve(firstLine(d.toString())!), s.destroy()));
      });
    expect(await probe('Origin: http://127.0.0.1:8790\r\n')).toBe('HTTP/1.1 101 Switching Protocols');
    expect(await probe('')).toBe('HTTP/1.1 101 Switching Protocols');
  });
});
