/** The fail-open shim against a dead, a stuck, an erroring and a live daemon. */
import { createServer as createHttp } from 'node:http';
import { createServer as createTcp, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { deadPort } from '../test-utils/dead-port.js';
import { ADAPTER_HEADER, HOLD_HEADER, SHIM_CONNECT_TIMEOUT_MS, encodeSegment, forwardHook, readHookInput } from './shim.cjs';

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
    expect(out.fellBack).toMatch(/^no adapter daemon on port \d+ \(ECONNREFUSED\)$/);
    expect(out.severity).toBe('quiet');
    expect(Date.now() - started).toBeLessThan(SHIM_CONNECT_TIMEOUT_MS);
  });

  it('with a daemon that accepts but never answers: the neutral reply within the fixed 2 s bound', async () => {
    const port = await listen(createTcp((socket) => void sockets.push(socket)));
    const started = Date.now();
    const out = await forwardHook({ port, hookEvent: 'PreToolUse', body, neutral: '{}' });
    const took = Date.now() - started;
    expect(out).toEqual({ stdout: '{}', fellBack: `the daemon on port ${port} did not answer within 2000 ms (is it stuck?)`, severity: 'say' });
    expect(took).toBeGreaterThanOrEqual(SHIM_CONNECT_TIMEOUT_MS - 50);
    expect(took).toBeLessThan(SHIM_CONNECT_TIMEOUT_MS + 1000);
  });

  it('with a daemon answering an error status: the neutral reply', async () => {
    const port = await listen(createHttp((_req, res) => res.writeHead(500).end('boom')));
    expect(await forwardHook({ port, hookEvent: 'Stop', body, neutral: '{}' })).toEqual({ stdout: '{}', fellBack: `the daemon on port ${port} refused the hook with HTTP 500: boom`, severity: 'say' });
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
    expect(out).toEqual({ stdout: '{}', fellBack: `the daemon on port ${port} held the hook past the reply bound (150 ms)`, severity: 'say' });
  });

  it('the reply bound follows the hold the daemon announces (x-aep-hold-ms + 5 s), not the caller default', async () => {
    const port = await listen(createHttp((_req, res) => res.writeHead(200, { [ADAPTER_HEADER]: 'claude-code', [HOLD_HEADER]: '1' }).flushHeaders()));
    const started = Date.now();
    const out = await forwardHook({ port, hookEvent: 'PermissionRequest', body, neutral: '{}', adapter: 'claude-code', replyTimeoutMs: 60_000 });
    expect(out.fellBack).toBe(`the daemon on port ${port} held the hook past the reply bound (5001 ms)`);
    expect(Date.now() - started).toBeLessThan(5001 + 1500);
  }, 10_000);

  it('a 404 (a relay, another server on the port) is said as such', async () => {
    const port = await listen(createHttp((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}')));
    expect(await forwardHook({ port, hookEvent: 'Stop', body, neutral: '', adapter: 'codex' })).toEqual({
      stdout: '',
      fellBack: `port ${port} answered HTTP 404 to POST /hook/Stop: it is not an aep adapter daemon (a relay, or another server?)`,
      severity: 'say',
    });
  });

  it('a 400 carries the daemon detail', async () => {
    const port = await listen(createHttp((_req, res) => res.writeHead(400).end('{"error":"invalid-json","detail":"the hook body must be a JSON object"}')));
    const out = await forwardHook({ port, hookEvent: 'Stop', body, neutral: '{}' });
    expect(out.fellBack).toBe(`the daemon on port ${port} refused the hook with HTTP 400: the hook body must be a JSON object`);
  });

  it('sends the expected adapter; a 200 from a daemon naming another adapter, or none, is not used', async () => {
    let asked: string | undefined;
    const other = await listen(
      createHttp((req, res) => {
        asked = req.headers[ADAPTER_HEADER] as string | undefined;
        res.writeHead(200, { [ADAPTER_HEADER]: 'codex' }).end('{"decision":"block"}');
      }),
    );
    expect(await forwardHook({ port: other, hookEvent: 'Stop', body, neutral: '{}', adapter: 'claude-code' })).toEqual({
      stdout: '{}',
      fellBack: `port ${other} is the codex adapter daemon, not claude-code's (two installs on one port?)`,
      severity: 'say',
    });
    expect(asked).toBe('claude-code');
    const anonymous = await listen(createHttp((_req, res) => res.writeHead(200).end('{"decision":"block"}')));
    const out = await forwardHook({ port: anonymous, hookEvent: 'Stop', body, neutral: '{}', adapter: 'claude-code' });
    expect(out.stdout).toBe('{}');
    expect(out.fellBack).toBe(`port ${anonymous} answered without naming its adapter: it is not an aep adapter daemon of this version`);
    const refusing = await listen(createHttp((_req, res) => res.writeHead(409, { [ADAPTER_HEADER]: 'codex' }).end('{}')));
    expect((await forwardHook({ port: refusing, hookEvent: 'Stop', body, neutral: '{}', adapter: 'claude-code' })).fellBack).toBe(
      `port ${refusing} is the codex adapter daemon, not claude-code's (two installs on one port?)`,
    );
  });

  it('a hook event with a lone surrogate is percent-encoded, not thrown', () => {
    expect(encodeSegment('Pre\ud800Tool')).toBe('Pre%EF%BF%BDTool');
    expect(encodeSegment('a/b c')).toBe('a%2Fb%20c');
    expect(encodeSegment('😀')).toBe('%F0%9F%98%80');
  });
});

async function* chunks(...parts: (string | { wait: number })[]): AsyncGenerator<Buffer> {
  for (const p of parts) {
    if (typeof p === 'string') yield Buffer.from(p);
    else await new Promise((r) => setTimeout(r, p.wait));
  }
}

describe('readHookInput (bounded stdin)', () => {
  it('a complete object while the pipe stays open: served at once', async () => {
    const started = Date.now();
    const got = await readHookInput(chunks('{"a":', '1}\n', { wait: 60_000 }), { timeoutMs: 5000 });
    expect(got).toEqual({ ok: true, body: Buffer.from('{"a":1}\n') });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('an incomplete object on an open pipe: refused at the time bound', async () => {
    const started = Date.now();
    const got = await readHookInput(chunks('{"a":', { wait: 60_000 }), { timeoutMs: 200 });
    expect(got).toEqual({ ok: false, why: 'stdin did not close or complete a JSON object within 200 ms (5 bytes read)' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await readHookInput(chunks({ wait: 60_000 }), { timeoutMs: 100 })).toEqual({ ok: false, why: 'stdin stayed open with no hook JSON for 100 ms (the vendor pipes the hook JSON on stdin)' });
  });

  it('more than the byte bound: refused without reading on', async () => {
    expect(await readHookInput(chunks('{"a":"', 'x'.repeat(100), '"}'), { maxBytes: 50 })).toEqual({ ok: false, why: 'stdin holds more than 50 bytes, over the hook bound; not forwarded' });
  });

  it('empty, not JSON, not an object', async () => {
    expect(await readHookInput(chunks())).toEqual({ ok: false, why: 'stdin was empty; the vendor pipes the hook JSON on stdin' });
    expect(await readHookInput(chunks('{"a":'))).toMatchObject({ ok: false, why: expect.stringMatching(/^stdin is not JSON \(/) });
    expect(await readHookInput(chunks('[1]'))).toEqual({ ok: false, why: 'stdin is JSON but not an object; a hook payload is a JSON object' });
  });
});
