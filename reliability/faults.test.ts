/**
 * Faults (issue 14, suite part 3), each with its loss count: a consumer killed with SIGKILL
 * reattaches and gets exactly the tail; a relay killed with SIGKILL and restarted on the same
 * port loses nothing an adapter link sent, and doubles nothing; a slow consumer stalls no one and
 * is dropped with a stated reason; a full buffer evicts the oldest and a later resume says so.
 */
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { RelayLink } from '../impl/adapter-kit/relay-link.js';
import { startRelay } from '../impl/relay/server.js';
import { helloWs, makeEvent, makeSeries, openSse, post, sleep } from '../impl/relay/test-utils/testing.js';
import { CI, figures } from './test-utils/scale.js';
import { freePort, seqsOf, spawnRelay, spawnSseConsumer } from './test-utils/processes.js';

const until = async (pred: () => boolean, ms: number, what: string): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
};

describe('faults', () => {
  it('a consumer killed with SIGKILL reattaches with Last-Event-ID and receives exactly the tail', async () => {
    const relay = await startRelay({ port: 0, buffer: 100_000 });
    const total = CI ? 1_000 : 5_000;
    try {
      const first = spawnSseConsumer(`${relay.url}/stream?filter=${encodeURIComponent('{"session":"kt"}')}`);
      await first.waitLine((l) => l === 'connected');
      let sent = 0;
      const emitting = (async () => {
        while (sent < total) {
          const batch = makeSeries('kt', sent, Math.min(sent + 9, total - 1));
          expect((await post(relay.url, batch)).status).toBe(202);
          sent += batch.length;
          await sleep(1);
        }
      })();
      await first.waitLine((l) => l.startsWith('kt:') && Number(l.split(':')[2]) >= total / 4);
      await first.kill9();
      const seen = first.lines.filter((l) => l.startsWith('kt:'));
      const last = seen[seen.length - 1]!;
      const second = spawnSseConsumer(`${relay.url}/stream?filter=${encodeURIComponent('{"session":"kt"}')}`, last);
      await emitting;
      await second.waitLine((l) => l === `kt:0:${total - 1}`, 30_000);
      await second.kill9();
      const tail = second.lines.filter((l) => l.startsWith('kt:'));
      const all = [...seen, ...tail].map((l) => Number(l.split(':')[2]));
      const lost = total - new Set(all).size;
      const doubled = all.length - new Set(all).size;
      expect(tail[0]).toBe(`kt:0:${Number(last.split(':')[2]) + 1}`);
      expect(all).toEqual(Array.from({ length: total }, (_, i) => i));
      figures('consumer-kill9', { events: total, killedAfter: seen.length, reattachedFrom: last, lost, doubled });
    } finally {
      await relay.close();
    }
  });

  it('a relay killed with SIGKILL mid-stream and restarted on its port: the adapter link resends, nothing lost, nothing doubled', async () => {
    const port = await freePort();
    const total = CI ? 1_500 : 6_000;
    let relay = await spawnRelay(port, { AEP_BUFFER: '100000' });
    const watcherA = await openSse(`${relay.url}/stream`);
    const hello = { type: 'hello', versions: ['0.1'], role: 'emitter', identity: { agent: 'fault' }, capabilities: {} };
    const link = new RelayLink({ url: relay.url, hello, onCommand: () => {}, log: () => {}, ackDelayMs: 5 }).start();
    try {
      await until(() => link.connected, 10_000, 'the link');
      let killedAt = -1;
      for (let n = 0; n < total; n++) {
        link.send(JSON.stringify(makeEvent({ id: `fault-${n}`, session: 'rr', seq: n, source: 'aep://fault/agent/a' })));
        if (n % 20 === 0) await sleep(1);
        if (n === Math.floor(total * 0.4)) {
          killedAt = n;
          await relay.child.kill9();
          relay = await spawnRelay(port, { AEP_BUFFER: '100000' });
        }
      }
      await until(() => link.connected && link.pending === 0, 60_000, 'every event acknowledged');
      const textB = await (await fetch(`${relay.url}/stream?from=all&live=0`)).text();
      const inA = seqsOf(watcherA.text(), 'rr');
      const inB = seqsOf(textB, 'rr');
      const union = new Set([...inA, ...inB]);
      const lost = total - union.size;
      const doubledInB = inB.length - new Set(inB).size;
      expect(lost).toBe(0);
      expect(doubledInB).toBe(0);
      expect(inB).toEqual([...inB].sort((a, b) => a - b));
      figures('relay-kill9', { events: total, killedAt, seenByOldRelay: inA.length, heldByNewRelay: inB.length, resentOverlap: inA.filter((s) => inB.includes(s)).length, lost, doubled: doubledInB });
    } finally {
      watcherA.close();
      await link.close();
      await relay.child.kill9();
    }
  }, 120_000);

  it('a slow consumer stalls no one: its queue is bounded and it is dropped with a stated reason', async () => {
    const relay = await startRelay({ port: 0, slowBytes: 2 * 1024 * 1024, buffer: 100_000 });
    try {
      const slow = await helloWs(relay.url);
      slow.send({ type: 'subscribe', id: 'slow' });
      await slow.waitFor((f) => f?.type === 'subscribed');
      (slow.ws as unknown as { _socket: Socket })._socket.pause();
      const fast = await openSse(`${relay.url}/stream`);
      const total = CI ? 1_000 : 4_000;
      const t0 = performance.now();
      for (let i = 0; i < total; i += 50) expect((await post(relay.url, Array.from({ length: 50 }, (_, k) => JSON.stringify(makeEvent({ session: 'sc', seq: i + k, data: { phase: 'p'.repeat(16_384) } }))))).status).toBe(202);
      const ms = performance.now() - t0;
      await fast.waitFor((t) => t.slice(-40_000).includes(`id: sc:0:${total - 1}\n`), 60_000);
      const got = seqsOf(fast.text(), 'sc');
      expect(got).toEqual(Array.from({ length: total }, (_, i) => i));
      const health = (await (await fetch(`${relay.url}/healthz`)).json()) as { subscribers: number };
      expect(health.subscribers).toBe(1);
      (slow.ws as unknown as { _socket: Socket })._socket.resume();
      const closing = JSON.parse(await slow.waitFor((f) => f?.type === 'closing', 10_000));
      expect(closing.reason).toBe('slow-consumer');
      figures('slow-consumer', { events: total, ingestMs: Math.round(ms), fastConsumerLost: total - got.length, slowDroppedWith: closing.reason, slowBoundBytes: 2 * 1024 * 1024 });
      fast.close();
      slow.ws.terminate();
    } finally {
      await relay.close();
    }
  });

  it('a full buffer evicts the oldest events, and a later resume says replay-exhausted', async () => {
    const relay = await startRelay({ port: 0, buffer: 100 });
    try {
      expect((await post(relay.url, makeSeries('ev', 0, 299))).status).toBe(202);
      const text = await (await fetch(`${relay.url}/stream?live=0&from=${encodeURIComponent(JSON.stringify([{ session: 'ev', epoch: 0, seq: 10 }]))}`)).text();
      expect(text.startsWith(': replay-exhausted ev 0:200\n\n')).toBe(true);
      expect(seqsOf(text, 'ev')).toEqual(Array.from({ length: 100 }, (_, i) => 200 + i));
      figures('eviction', { posted: 300, held: 100, marker: 'replay-exhausted ev 0:200', silentGaps: 0 });
    } finally {
      await relay.close();
    }
  });
});
