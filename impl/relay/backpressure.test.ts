import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { startRelay, type RunningRelay } from './server.js';
import { helloWs, makeEvent, post, sleep } from './test-utils/testing.js';

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

describe('backpressure (AEP-0003 §8.4): a slow consumer is dropped with a stated reason, never skipped silently', () => {
  it('ends a stalled SSE consumer once it falls behind, whatever the severity', async () => {
    relay = await startRelay({ port: 0, slowBytes: 64 * 1024 });
    const base = relay.url;
    await stalledSse(relay.port);
    await sleep(20);
    let seq = 0;
    // The kernel takes some bytes off the relay's hands first; info events alone must trip it.
    while ((await subscribers(base)) === 1 && seq < 200) await post(base, bulky('bp', seq++, 'info'));
    expect(await subscribers(base)).toBe(0);
    expect(seq).toBeLessThan(200);
  });

  it('counts the messages held for the current batch, so one big batch trips the limit too', async () => {
    relay = await startRelay({ port: 0, slowBytes: 64 * 1024 });
    const base = relay.url;
    await stalledSse(relay.port);
    await sleep(20);
    const chunky = (seq: number): string => JSON.stringify(makeEvent({ session: 'bp-batch', seq, severity: 'info', capture: 'redacted', data: { message: 'y'.repeat(20 * 1024) } }));
    let seq = 0;
    for (let round = 0; round < 20 && (await subscribers(base)) === 1; round++) {
      const batch = Array.from({ length: 10 }, () => chunky(seq++));
      expect((await post(base, batch)).status).toBe(202);
    }
    expect(await subscribers(base)).toBe(0);
  });

  it('closes a stalled WS consumer with a closing frame (reason slow-consumer) rather than skip an info event', async () => {
    relay = await startRelay({ port: 0, slowBytes: 64 * 1024 });
    const base = relay.url;
    const c = await helloWs(base);
    c.send({ type: 'subscribe', id: 'slow' });
    await c.waitFor((f) => f?.type === 'subscribed');
    (c.ws as unknown as { _socket: Socket })._socket.pause();
    let seq = 0;
    while ((await subscribers(base)) === 1 && seq < 200) await post(base, bulky('bp-ws', seq++, 'info'));
    expect(await subscribers(base)).toBe(0);
    (c.ws as unknown as { _socket: Socket })._socket.resume();
    const closing = JSON.parse(await c.waitFor((f) => f?.type === 'closing', 5000));
    expect(closing.reason).toBe('slow-consumer');
    // Everything before the position it names arrived; the consumer resumes from there exactly.
    const last = closing.delivered.find((d: { session: string }) => d.session === 'bp-ws');
    const got = c.frames.map((f) => JSON.parse(f)).filter((f) => f.session === 'bp-ws').map((f) => f.seq);
    expect(got).toEqual(Array.from({ length: last.seq + 1 }, (_, i) => i));
    c.ws.terminate();
  });
});
