/**
 * Load (issue 14, suite part 5): emitters and consumers for a while, with random consumer
 * reconnects that resume from their own positions (SSE `from`, WS `from`). Afterwards every
 * consumer holds every event of its sessions exactly once, in `(epoch, seq)` order per session.
 * 20 emitters x 50 consumers x 60 s in the full run, 10 s in CI.
 */
import { request, type ClientRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startRelay, type RunningRelay } from '../impl/relay/server.js';
import { makeSeries, post, sleep } from '../impl/relay/test-utils/testing.js';
import { heapUsedAfterGc } from './test-utils/heap.js';
import { SOAK, figures } from './test-utils/scale.js';

/**
 * The heap growth allowed after the relay closed and a forced GC, in MB. What may stay: code and
 * data loaded at first use during the soak (modules, compiled validators and schemas, V8's
 * compiled code and inline caches: about 6 MB measured, whatever the number of events), not
 * events: the relay's buffer held every one of the soak's events (tens of thousands, tens of MB
 * of text). A module-level parse memo that kept 16 384 of a closed relay's events measured
 * 11.8 MB here; see docs/reliability.md.
 */
const HEAP_GROWTH_BOUND_MB = 10;

interface Consumer {
  readonly sessions: string[];
  /** Seqs received per session, in arrival order. */
  readonly got: Map<string, number[]>;
  reconnects: number;
  connect(): void;
  disconnect(): void;
}

/** The last position received per session, for the sessions that received anything. */
function positions(c: Consumer): Array<{ session: string; epoch: number; seq: number }> {
  return c.sessions.filter((s) => (c.got.get(s)?.length ?? 0) > 0).map((s) => ({ session: s, epoch: 0, seq: c.got.get(s)!.at(-1)! }));
}

function consumer(base: string, kind: 'sse' | 'ws', sessions: string[]): Consumer {
  let req: ClientRequest | undefined;
  let ws: WebSocket | undefined;
  const c: Consumer = {
    sessions,
    got: new Map(sessions.map((s) => [s, []])),
    reconnects: 0,
    connect() {
      // Sessions seen resume from their last seq; unseen ones replay from the start (from: all is
      // filtered to this consumer's sessions, and seen sessions are excluded by the position list).
      const seen = positions(c);
      const unseen = sessions.filter((s) => !seen.some((p) => p.session === s));
      const record = (event: { session?: string; seq?: number }): void => {
        if (typeof event.session === 'string' && typeof event.seq === 'number') c.got.get(event.session)?.push(event.seq);
      };
      if (kind === 'sse') {
        const parts: Array<{ filter: string[]; from: unknown }> = [];
        if (seen.length > 0) parts.push({ filter: seen.map((p) => p.session), from: seen });
        if (unseen.length > 0) parts.push({ filter: unseen, from: 'all' });
        // One SSE request per part keeps each request's `from` exact.
        const reqs = parts.map((p) => {
          const q = new URLSearchParams({ filter: JSON.stringify({ session: p.filter }), from: typeof p.from === 'string' ? p.from : JSON.stringify(p.from) });
          const r = request(`${base}/stream?${q}`, { headers: { accept: 'text/event-stream' } }, (res) => {
            res.setEncoding('utf8');
            let buf = '';
            res.on('data', (chunk: string) => {
              buf += chunk;
              let i: number;
              while ((i = buf.indexOf('\n\n')) >= 0) {
                const msg = buf.slice(0, i);
                buf = buf.slice(i + 2);
                const data = /^data: (.*)$/m.exec(msg);
                if (data) record(JSON.parse(data[1]!) as { session?: string; seq?: number });
              }
            });
          });
          r.on('error', () => {});
          r.end();
          return r;
        });
        req = { destroy: () => reqs.forEach((r) => r.destroy()) } as unknown as ClientRequest;
      } else {
        const sock = new WebSocket(`${base.replace('http', 'ws')}/socket`);
        ws = sock;
        sock.on('error', () => {});
        sock.on('open', () => sock.send(JSON.stringify({ type: 'hello', versions: ['0.1'], role: 'consumer' })));
        sock.on('message', (data) => {
          const f = JSON.parse(data.toString()) as Record<string, unknown>;
          if (f.type === 'hello') {
            if (seen.length > 0) sock.send(JSON.stringify({ type: 'subscribe', id: 'seen', filter: { session: seen.map((p) => p.session) }, from: seen }));
            if (unseen.length > 0) sock.send(JSON.stringify({ type: 'subscribe', id: 'unseen', filter: { session: unseen }, from: 'all' }));
          } else if (typeof f.aep === 'string') record(f as { session?: string; seq?: number });
        });
      }
    },
    disconnect() {
      req?.destroy();
      ws?.terminate();
      req = undefined;
      ws = undefined;
    },
  };
  return c;
}

describe('soak', () => {
  it(`${SOAK.emitters} emitters x ${SOAK.consumers} consumers for ${SOAK.seconds} s with random reconnects: every event exactly once, in order`, async () => {
    const heapBefore = await heapUsedAfterGc();
    let relay: RunningRelay | undefined = await startRelay({ port: 0, buffer: 1_000_000, maxSessions: 1_000 });
    const relayRef = new WeakRef(relay);
    const url = relay.url;
    const sessions = Array.from({ length: SOAK.emitters }, (_, i) => `soak-${i}`);
    const sent = new Map(sessions.map((s) => [s, 0]));
    let random = 42;
    const rand = (): number => ((random = (random * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const consumers = Array.from({ length: SOAK.consumers }, (_, i) =>
      consumer(url, i % 2 === 0 ? 'sse' : 'ws', sessions.filter(() => rand() < 0.3).concat(sessions[i % sessions.length]!).filter((s, k, a) => a.indexOf(s) === k)),
    );
    for (const c of consumers) c.connect();
    await sleep(300);
    const stopAt = Date.now() + SOAK.seconds * 1000;
    const emitters = sessions.map(async (session) => {
      while (Date.now() < stopAt) {
        const from = sent.get(session)!;
        const n = 1 + Math.floor(rand() * 5);
        expect((await post(url, makeSeries(session, from, from + n - 1))).status).toBe(202);
        sent.set(session, from + n);
        await sleep(5 + Math.floor(rand() * 20));
      }
    });
    const churn = (async () => {
      while (Date.now() < stopAt) {
        await sleep(100 + Math.floor(rand() * 300));
        const c = consumers[Math.floor(rand() * consumers.length)]!;
        c.disconnect();
        c.reconnects++;
        await sleep(Math.floor(rand() * 50));
        c.connect();
      }
    })();
    await Promise.all([...emitters, churn]);
    // Let every consumer catch up on the last events.
    const done = (): boolean => consumers.every((c) => c.sessions.every((s) => (c.got.get(s)!.at(-1) ?? -1) >= sent.get(s)! - 1));
    for (let i = 0; i < 300 && !done(); i++) await sleep(100);
    let lost = 0;
    let doubled = 0;
    let outOfOrder = 0;
    let delivered = 0;
    for (const c of consumers) {
      for (const s of c.sessions) {
        const got = c.got.get(s)!;
        delivered += got.length;
        const unique = new Set(got);
        doubled += got.length - unique.size;
        lost += sent.get(s)! - unique.size;
        for (let i = 1; i < got.length; i++) if (got[i]! <= got[i - 1]!) outOfOrder++;
      }
      c.disconnect();
    }
    const events = [...sent.values()].reduce((a, b) => a + b, 0);
    const reconnects = consumers.reduce((a, c) => a + c.reconnects, 0);
    await relay.close();
    relay = undefined;
    // What the test itself kept (every consumer's received seqs) is the test's, not the relay's: drop it too.
    for (const c of consumers) c.got.clear();
    consumers.length = 0;
    const heapAfter = await heapUsedAfterGc();
    const heapGrowthAfterCloseMb = Math.round(((heapAfter - heapBefore) / 2 ** 20) * 10) / 10;
    const relayCollected = relayRef.deref() === undefined;
    figures('soak', { heapGrowthAfterCloseMb, relayCollected: String(relayCollected), emitters: SOAK.emitters, consumers: SOAK.consumers, seconds: SOAK.seconds, events, delivered, reconnects, lost, doubled, outOfOrder });
    expect({ lost, doubled, outOfOrder }).toEqual({ lost: 0, doubled: 0, outOfOrder: 0 });
    // After close and a forced GC nothing of the relay is held (its buffer held every event), and
    // the heap is back within HEAP_GROWTH_BOUND_MB of where it started (docs/reliability.md).
    expect({ relayCollected, heapWithinBound: heapGrowthAfterCloseMb <= HEAP_GROWTH_BOUND_MB }).toEqual({ relayCollected: true, heapWithinBound: true });
  }, (SOAK.seconds + 90) * 1000);
});
