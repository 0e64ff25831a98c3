/**
 * The hook endpoint's edge timeouts (the same Node options every inbound surface uses,
 * impl/http/server.ts): a head or a body that trickles in is cut with 408, and a held reply,
 * whose request was read whole, is not bound by them.
 */
import { connect } from 'node:net';
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { adapter as claudeCode } from '../adapters/claude-code/adapter.js';
import { startAdapter, type RunningAdapter } from './daemon.js';
import { tempHome } from './test-utils/daemon-harness.js';

let running: RunningAdapter | null = null;
afterEach(async () => {
  await running?.close();
  running = null;
});

async function start(): Promise<RunningAdapter> {
  running = await startAdapter(claudeCode, {
    port: 0,
    home: tempHome(),
    attentionTimeoutMs: 1_500,
    linkGraceMs: 0,
    edge: { headersTimeoutMs: 300, bodyTimeoutMs: 600 },
  });
  return running;
}

/** Write `text` on a raw connection and read until the server closes it (or 5 s pass). */
function raw(port: number, text: string): Promise<{ reply: string; ms: number }> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    let reply = '';
    const sock = connect(port, '127.0.0.1', () => sock.write(text));
    sock.setEncoding('utf8');
    sock.on('data', (c: string) => (reply += c));
    const done = (): void => resolve({ reply, ms: Date.now() - t0 });
    sock.on('close', done);
    sock.on('error', () => undefined);
    setTimeout(() => sock.destroy(), 5_000).unref();
  });
}

describe('adapter daemon: the hook endpoint edge timeouts', () => {
  it('a body that stops arriving is answered 408 and the connection closed', async () => {
    const { port } = await start();
    const { reply, ms } = await raw(port, 'POST /hook/Stop HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"session_id":');
    expect(reply.startsWith('HTTP/1.1 408 ')).toBe(true);
    expect(ms).toBeLessThan(4_000);
  });

  it('a head that stops arriving is answered 408 and the connection closed', async () => {
    const { port } = await start();
    const { reply, ms } = await raw(port, 'POST /hook/Stop HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(reply.startsWith('HTTP/1.1 408 ')).toBe(true);
    expect(ms).toBeLessThan(4_000);
  });

  it('a held hook is answered after the body timeout has long passed', async () => {
    const { port } = await start();
    const t0 = Date.now();
    const body = JSON.stringify({ session_id: 's-edge', hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'ls' } });
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/hook/PermissionRequest', headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThan(1_000); // held past the 600 ms body timeout, answered at the hold's end
  });
});
