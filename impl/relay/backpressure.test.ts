import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { startRelay, type RunningRelay } from './server.js';
import { helloWs, makeEvent, post, sleep } from './testing.js';

let relay: RunningRelay | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await relay?.close();
  relay = undefined;
});

/** An SSE consumer that never reads: its bytes pile up in the relay. */
function stalledSse(port: number): Promise<void> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1', () => {
      s.write('GET /stream HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n');
      s.once('data', () => {
        s.pause();
        resolve();
      });
    });
    sockets.push(s);
  });
}
const subscribers = async (base: string): Promise<number> => ((await (await fetch(`${base}/healthz`)).json()) as { subscribers: number }).subscribers;
const bulky = (session: string, seq: number, severity: string): string =>
  JSON.stringify(makeEvent({ session, seq, severity, capture: 'redacted', data: { message: 'x'.repeat(256 * 1024) } }));

describe('backpressure (AEP-0003 §8.4)', () => {
  it('drops info for a stalled SSE consumer, and ends its stream rather than drop a notice', async () => {
    relay = await startRelay({ port: 0, slowBytes: 64 * 1024 });
    const base = relay.url;
    await stalledSse(relay.port);
    await sleep(20);
    for (let seq = 0; seq < 40; seq++) await post(base, bulky('bp', seq, 'info'));
    expect(await subscribers(base)).toBe(1);
    await post(base, bulky('bp', 40, 'notice'));
    expect(await subscribers(base)).toBe(0);
  });

  it('counts the messages held for the current batch, so one big batch trips the limit too', async () => {
    relay = await startRelay({ port: 0, slowBytes: 64 * 1024 });
    const base = relay.url;
    await stalledSse(relay.port);
    await sleep(20);
    const chunky = (seq: number, severity: string): string =>
      JSON.stringify(makeEvent({ session: 'bp-batch', seq, severity, capture: 'redacted', data: { message: 'y'.repeat(20 * 1024) } }));
    const infos = Array.from({ length: 10 }, (_, seq) => chunky(seq, 'info'));
    expect((await post(base, infos)).status).toBe(202);
    expect(await subscribers(base)).toBe(1); // over the limit within the batch, but infos are dropped, never fatal
    // The kernel may have taken the first batch off the relay's hands, so this batch must trip the limit by itself.
    const tripping = [...Array.from({ length: 5 }, (_, i) => chunky(10 + i, 'info')), chunky(15, 'warning')];
    expect((await post(base, tripping)).status).toBe(202);
    expect(await subscribers(base)).toBe(0);
  });

  it('closes a stalled WS consumer with a closing frame rather than drop a notice', async () => {
    relay = await startRelay({ port: 0, slowBytes: 64 * 1024 });
    const base = relay.url;
    const c = await helloWs(base);
    c.send({ type: 'subscribe', id: 'slow' });
    await c.waitFor((f) => f?.type === 'subscribed');
    c.ws.pause();
    (c.ws as unknown as { _socket: Socket })._socket.pause();
    for (let seq = 0; seq < 40; seq++) await post(base, bulky('bp-ws', seq, 'info'));
    expect(await subscribers(base)).toBe(1);
    await post(base, bulky('bp-ws', 40, 'error'));
    expect(await subscribers(base)).toBe(0);
    c.ws.terminate();
  });
});
