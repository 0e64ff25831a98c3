/**
 * The events of the frames of one tick reach a hub that ingests in the call (`ingestNow`) as one
 * batch, and nothing a peer or a subscriber can see differs from the reference path (one
 * `ingest` per event): the same replies, the same deliveries, interleaved in the same order,
 * and the same buffer. Driven through a stand-in socket, frame by frame as `ws` emits them.
 */
import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { compileFilter } from '../core/filter.js';
import type { Received } from './buffer.js';
import { DEFAULTS } from './config.js';
import { Hub, type HubLike, type SubscriptionWriter } from './hub.js';
import { SocketSession } from './socket.js';
import { makeEvent, sleep } from './test-utils/testing.js';

/** A socket stand-in: what the session sends goes to `timeline` as `sent:{frame}`. */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  readonly bufferedAmount = 0;
  constructor(private readonly timeline: string[]) {
    super();
  }
  send(text: string): void {
    this.timeline.push(`sent:${text}`);
  }
  close(code: number): void {
    this.timeline.push(`close:${code}`);
    this.readyState = 3;
  }
  receive(value: unknown): void {
    this.emit('message', Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)), false);
  }
}

/** A live subscriber of everything: each delivery goes to `timeline` as `event:{id}`, each fan-out's end as `flush`. */
function watch(hub: Hub, timeline: string[]): void {
  const writer: SubscriptionWriter = {
    bufferedBytes: () => 0,
    exhausted: () => {},
    replay: () => true,
    replayEnd: () => true,
    drained: async () => {},
    live: (r: Received) => void timeline.push(`event:${r.event.id}`),
    flush: () => void timeline.push('flush'),
    end: (reason) => void timeline.push(`end:${reason}`),
  };
  hub.subscribe({ filter: {}, match: compileFilter({}), ceiling: undefined, replay: { kind: 'none' }, live: true, slowBytes: 1 << 20 }, writer);
}

/** The same hub without `ingestNow`: every event goes through `ingest`, one at a time (the reference path). */
function perEvent(hub: Hub): HubLike {
  return {
    stats: () => hub.stats(),
    subscribe: (spec, writer) => hub.subscribe(spec, writer),
    ingest: (recs) => hub.ingest(recs),
    attach: (peer) => hub.attach(peer),
    leave: (peer) => hub.leave(peer),
    claim: () => hub.claim(),
    ownedElsewhere: (peer, session) => hub.ownedElsewhere(peer, session),
    dispatch: (command, authenticated) => hub.dispatch(command, authenticated),
    roster: () => hub.roster(),
    close: () => hub.close(),
  };
}

interface Run {
  /** Replies and deliveries, in the order they happened (the hello's reply first). */
  readonly timeline: string[];
  /** The buffer's held texts, in order. */
  readonly held: string[];
  /** `ingestNow` calls and their sizes. */
  readonly batches: number[];
}

/** Send `ticks` (each a list of frames emitted in one tick, as one socket read) through a session. */
async function run(batched: boolean, ticks: readonly (readonly unknown[])[]): Promise<Run> {
  const timeline: string[] = [];
  const batches: number[] = [];
  const hub = new Hub(100, 10);
  const ingestNow = hub.ingestNow.bind(hub);
  hub.ingestNow = (recs) => (batches.push(recs.length), ingestNow(recs));
  watch(hub, timeline);
  await sleep(1); // the (empty) replay ends: the subscription is live
  const ws = new FakeSocket(timeline);
  new SocketSession(ws as unknown as WebSocket, { config: DEFAULTS, hub: batched ? hub : perEvent(hub), authenticated: true, instance: 'test/1', log: () => {}, slowBytes: 1 << 20 });
  ws.receive({ type: 'hello', versions: ['0.1'], role: 'both' });
  for (const frames of ticks) {
    for (const f of frames) ws.receive(f);
    await sleep(1);
  }
  return { timeline, held: hub.buffer.replayAll().map((h) => h.raw), batches };
}

const ev = (session: string, seq: number, extra: Record<string, unknown> = {}): Record<string, unknown> => makeEvent({ id: `${session}-${seq}`, session, seq, ...extra });

describe('frames of one tick, one hub batch', () => {
  it('hands the events of one tick to the hub together, in order, fanned out in one flush', async () => {
    const ticks = [[ev('b1', 0)], [ev('b1', 1), ev('b1', 2), ev('b1', 3)], [ev('b1', 4), ev('b1', 5)]];
    const got = await run(true, ticks);
    expect(got.batches).toEqual([1, 3, 2]);
    expect(got.timeline.filter((t) => !t.startsWith('sent:'))).toEqual(['event:b1-0', 'flush', 'event:b1-1', 'event:b1-2', 'event:b1-3', 'flush', 'event:b1-4', 'event:b1-5', 'flush']);
    expect(got.held).toEqual((await run(false, ticks)).held);
  });

  it('answers and delivers exactly as one ingest per event does, whatever the frames between the events', async () => {
    const invalid = ev('b2', 3, { seq: 'seven' });
    const ticks: unknown[][] = [
      [ev('b2', 0)],
      // a refused event, a ping, a duplicate, a frame that is not JSON, an unknown frame, a second session's first event (a claim)
      [ev('b2', 1), ev('b2', 2), invalid, ev('b2', 4), { type: 'ping', t: 1 }, ev('b2', 5), ev('b2', 2), '{not json', ev('b2', 6), { type: 'mystery' }, ev('b2', 7)],
      [ev('b2', 8), ev('b3', 0), ev('b2', 9), ev('b3', 1), { type: 'ping', t: 2 }],
      // a command (routed to this connection, which owns b2), an ack, a subscribe and the events after it, a roster request
      [ev('b2', 10), makeEvent({ id: 'cmd-1', type: 'control.cancel', session: 'b2', seq: undefined, epoch: undefined, data: { scope: 'session' } }), ev('b2', 11)],
      [makeEvent({ id: 'ack-1', type: 'control.accepted', session: 'b2', seq: 12, cause: 'cmd-1', data: {} }), ev('b2', 13), { type: 'subscribe', id: 's-1' }, ev('b2', 14), ev('b2', 15), { type: 'roster', id: 'r-1' }, ev('b2', 16)],
      [ev('b2', 17), { type: 'unsubscribe', id: 's-1' }, ev('b2', 18), { type: 'ping', t: 3 }],
    ];
    const batched = await run(true, ticks);
    const reference = await run(false, ticks);
    expect(reference.batches).toEqual([]);
    expect(batched.batches.some((n) => n > 1)).toBe(true);
    // Fan-outs are grouped differently ('flush' marks each), everything else is the same, in the same order.
    const seen = (r: Run): string[] => r.timeline.filter((t) => t !== 'flush');
    expect(seen(batched)).toEqual(seen(reference));
    expect(seen(batched).filter((t) => t.startsWith('sent:{"type":"pong"'))).toHaveLength(3);
    expect(seen(batched).some((t) => t.includes('"cause":"b2-3"') && t.includes('"code":"invalid-event"'))).toBe(true);
    expect(batched.held).toEqual(reference.held);
  });

  it('hands each event over at once on a connection that also subscribes (its own subscription may close it mid-batch)', async () => {
    const got = await run(true, [[{ type: 'subscribe', id: 'own' }], [ev('b4', 0)], [ev('b4', 1), ev('b4', 2)]]);
    expect(got.batches).toEqual([1, 1, 1]);
  });
});
