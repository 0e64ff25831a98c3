/** The fail-open shim against a dead, a stuck, an erroring and a live daemon. */
import { createServer as createHttp } from 'node:http';
import { createServer as createTcp, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { deadPort } from '../test-utils/dead-port.js';
import { SHIM_CONNECT_TIMEOUT_MS, forwardHook } from './shim.js';

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

const body = Buffer.from('{"hook_event_name":"PreToolUse","session_id":"s"}');

describe('forwardHook (fail-open shim)', () => {
  it('with no daemon: the neutral reply, at once', async () => {
    const started = Date.now();
    const out = await forwardHook({ port: await deadPort(), hookEvent: 'PreToolUse', body, neutral: '{}' });
    expect(out.stdout).toBe('{}');
    expect(out.fellBack).toMatch(/unreachable/);
    expect(Date.now() - started).toBeLessThan(SHIM_CONNECT_TIMEOUT_MS);
  });

  it('with a daemon that accepts but never answers: the neutral reply within the fixed 2 s bound', async () => {
    const port = await listen(createTcp((socket) => void sockets.push(socket)));
    const started = Date.now();
    const out = await forwardHook({ port, hookEvent: 'PreToolUse', body, neutral: '{}' });
    const took = Date.now() - started;
    expect(out).toEqual({ stdout: '{}', fellBack: 'the daemon did not answer in time' });
    expect(took).toBeGreaterThanOrEqual(SHIM_CONNECT_TIMEOUT_MS - 50);
    expect(took).toBeLessThan(SHIM_CONNECT_TIMEOUT_MS + 1000);
  });

  it('with a daemon answering an error status: the neutral reply', async () => {
    const port = await listen(createHttp((_req, res) => res.writeHead(500).end('boom')));
    expect(await forwardHook({ port, hookEvent: 'Stop', body, neutral: '{}' })).toEqual({ stdout: '{}', fellBack: 'daemon answered HTTP 500' });
  });

  it('with a live daemon: the reply bytes verbatim, even when held past the connect bound', async () => {
    let seen = '';
    const port = await listen(
      createHttp((req, res) => {
        let text = '';
        req.on('data', (c) => (text += c));
        req.on('end', () => {
          seen = `${req.method} ${req.url} ${text}`;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.flushHeaders();
          setTimeout(() => res.end('{"hookSpecificOutput":{"x":"é"}}'), 300);
        });
      }),
    );
    const out = await forwardHook({ port, hookEvent: 'PermissionRequest', body, neutral: '{}', connectTimeoutMs: 200 });
    expect(out).toEqual({ stdout: '{"hookSpecificOutput":{"x":"é"}}', fellBack: null });
    expect(seen).toBe(`POST /hook/PermissionRequest ${body.toString()}`);
  });

  it('a reply held past the reply bound falls back to neutral', async () => {
    const port = await listen(createHttp((_req, res) => res.writeHead(200).flushHeaders()));
    const out = await forwardHook({ port, hookEvent: 'PermissionRequest', body, neutral: '{}', replyTimeoutMs: 150 });
    expect(out).toEqual({ stdout: '{}', fellBack: 'the daemon held the hook past the reply bound' });
  });
});
