/**
 * The shared replay-then-live logic (subscription.ts), through a fake writer that encodes as SSE
 * does (sse-format.ts) and records every call: exact bytes and exact call order.
 */
import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../core/event.js';
import { compileFilter } from '../core/filter.js';
import type { Received } from './buffer.js';
import { Hub } from './hub.js';
import type { Position, ReplayRequest } from './positions.js';
import { sseEvent, sseExhausted } from './sse-format.js';
import type { EndReason, SubscribeSpec, Subscription, SubscriptionWriter } from './subscription.js';

let n = 0;
function rec(session: string, seq: number): Received {
  const event = { aep: '0.1', id: `sub-${++n}`, type: 'progress.status', time: '2026-12-02T04:00:00Z', source: 'aep://sub-test/a', agent: 'a', session, epoch: 0, seq, data: { n } } as AepEvent;
  return { event, raw: JSON.stringify(event) };
}
const bytes = (r: Received): string => sseEvent(r.event, r.raw);

/** A writer that appends SSE text to `out`; `stall()` makes the next replay write report high water until `release()`. */
class FakeWriter implements SubscriptionWriter {
  out = '';
  readonly calls: string[] = [];
  readonly ends: EndReason[] = [];
  buffered = 0;
  #stallNext = false;
  #release: (() => void) | undefined;

  stall(): void {
    this.#stallNext = true;
  }
  release(): void {
    const r = this.#release;
    this.#release = undefined;
    r?.();
  }
  get waiting(): boolean {
    return this.#release !== undefined;
  }

  bufferedBytes(): number {
    return this.buffered;
  }
  exhausted(markers: ReadonlyArray<{ session: string; earliest: Position }>): void {
    this.calls.push(`exhausted:${markers.length}`);
    for (const m of markers) this.out += sseExhausted(m.session, m.earliest);
  }
  replay(r: Received, gap: Position | undefined): boolean {
    this.calls.push(`replay:${r.event.seq}`);
    if (gap) this.out += sseExhausted(r.event.session!, gap);
    this.out += bytes(r);
    if (!this.#stallNext) return true;
    this.#stallNext = false;
    return false;
  }
  replayEnd(): boolean {
    this.calls.push('replayEnd');
    return true;
  }
  drained(): Promise<void> {
    this.calls.push('drained');
    return new Promise((resolve) => (this.#release = resolve));
  }
  live(r: Received, gap: Position | undefined): void {
    this.calls.push(`live:${r.event.seq}`);
    if (gap) this.out += sseExhausted(r.event.session!, gap);
    this.out += bytes(r);
  }
  flush(): void {
    this.calls.push('flush');
  }
  end(reason: EndReason): void {
    this.calls.push(`end:${reason}`);
    this.ends.push(reason);
  }
}

const spec = (replay: ReplayRequest, over: Partial<SubscribeSpec> = {}): SubscribeSpec => ({ filter: {}, match: compileFilter({}), ceiling: undefined, replay, live: true, slowBytes: 1 << 20, ...over });
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

function held(hub: Hub, session: string, seqs: number[]): Received[] {
  const recs = seqs.map((s) => rec(session, s));
  hub.publishAll(recs);
  return recs;
}

describe('Subscription: replay, then what queued meanwhile, then live', () => {
  it('writes the replay, then the live events that arrived while it waited, in order, then goes live', async () => {
    const hub = new Hub(100, 10);
    const old = held(hub, 's', [0, 1, 2]);
    const w = new FakeWriter();
    w.stall(); // the first replay write reports high water
    const sub = hub.subscribe(spec({ kind: 'all' }), w);
    expect(w.waiting).toBe(true);
    expect(hub.stats().subscribers).toBe(1); // live from the start, queued behind the replay
    const during = [rec('s', 3), rec('s', 4)];
    hub.publishAll(during); // fan-out while the replay waits: queued, not written
    expect(w.out).toBe(bytes(old[0]!));
    w.release();
    await tick();
    const after = rec('s', 5);
    hub.publishAll([after]);
    expect(w.out).toBe([...old, ...during, after].map(bytes).join(''));
    expect(w.calls).toEqual(['exhausted:0', 'replay:0', 'drained', 'flush', 'replay:1', 'replay:2', 'replay:3', 'replay:4', 'replayEnd', 'live:5', 'flush']);
    expect(sub.ended).toBe(false);
    expect(w.ends).toEqual([]);
  });

  it('keeps replaying what arrives while the last replay write drains, and switches only when nothing is left', async () => {
    const hub = new Hub(100, 10);
    const old = held(hub, 's', [0]);
    const w = new FakeWriter();
    let refills = 1;
    const extra: Received[] = [];
    // replayEnd reports high water once; during that wait one more live event arrives.
    w.replayEnd = () => {
      w.calls.push('replayEnd');
      return refills-- <= 0;
    };
    hub.subscribe(spec({ kind: 'all' }), w);
    expect(w.waiting).toBe(true);
    extra.push(rec('s', 1));
    hub.publishAll(extra);
    w.release();
    await tick();
    expect(w.out).toBe([...old, ...extra].map(bytes).join(''));
    expect(w.calls).toEqual(['exhausted:0', 'replay:0', 'replayEnd', 'drained', 'flush', 'replay:1', 'replayEnd']);
    hub.publishAll([rec('s', 2)]);
    expect(w.calls.slice(-2)).toEqual(['live:2', 'flush']);
  });

  it('ends a non-live subscription with replay-complete after its replay, and never joins the fan-out', async () => {
    const hub = new Hub(100, 10);
    const old = held(hub, 's', [0, 1]);
    const w = new FakeWriter();
    const sub = hub.subscribe(spec({ kind: 'all' }, { live: false }), w);
    expect(hub.stats().subscribers).toBe(0);
    await tick();
    hub.publishAll([rec('s', 2)]);
    expect(w.out).toBe(old.map(bytes).join(''));
    expect(w.calls).toEqual(['exhausted:0', 'replay:0', 'replay:1', 'replayEnd', 'end:replay-complete']);
    expect(sub.ended).toBe(true);
  });
});

describe('Subscription: the slow-consumer rule', () => {
  it('ends the subscription once the queue behind a waiting replay passes slowBytes, and writes nothing after', async () => {
    const hub = new Hub(100, 10);
    const old = held(hub, 's', [0, 1]);
    const w = new FakeWriter();
    w.stall();
    const one = rec('s', 2);
    const sub = hub.subscribe(spec({ kind: 'all' }, { slowBytes: one.raw.length * 2 }), w);
    hub.publishAll([one, rec('s', 3)]); // exactly slowBytes queued: still within the bound
    expect(w.ends).toEqual([]);
    hub.publishAll([rec('s', 4)]); // one character over
    expect(w.ends).toEqual(['slow-consumer']);
    expect(sub.ended).toBe(true);
    expect(hub.stats().subscribers).toBe(0);
    w.release();
    await tick();
    expect(w.out).toBe(bytes(old[0]!)); // the replay stopped; nothing queued went out
    expect(w.calls).toEqual(['exhausted:0', 'replay:0', 'drained', 'flush', 'end:slow-consumer']);
  });

  it('once live, ends the subscription instead of writing when the writer reports more than slowBytes unsent', () => {
    const hub = new Hub(100, 10);
    const w = new FakeWriter();
    hub.subscribe(spec({ kind: 'none' }, { slowBytes: 100 }), w);
    const first = rec('s', 0);
    w.buffered = 100;
    hub.publishAll([first]);
    w.buffered = 101;
    hub.publishAll([rec('s', 1), rec('s', 2)]);
    expect(w.out).toBe(bytes(first));
    expect(w.calls).toEqual(['exhausted:0', 'replayEnd', 'live:0', 'flush', 'end:slow-consumer']);
    expect(hub.stats().subscribers).toBe(0);
  });
});

describe('Subscription: replay-exhausted markers', () => {
  it('writes the plan markers first, then the replay from the earliest held position', () => {
    const hub = new Hub(2, 10);
    const recs = held(hub, 's', [0, 1, 2, 3]); // 0 and 1 evicted
    const w = new FakeWriter();
    hub.subscribe(spec({ kind: 'positions', points: [{ session: 's', epoch: 0, seq: 0 }] }), w);
    expect(w.out).toBe(sseExhausted('s', { epoch: 0, seq: 2 }) + bytes(recs[2]!) + bytes(recs[3]!));
  });

  it('announces a gap before the first event of a session held nowhere, once, and not when it is continuous', () => {
    const hub = new Hub(100, 10);
    const w = new FakeWriter();
    hub.subscribe(spec({ kind: 'positions', points: [{ session: 'g', epoch: 0, seq: 5 }, { session: 'c', epoch: 0, seq: 5 }] }), w);
    const late = [rec('g', 4), rec('g', 9), rec('g', 10), rec('c', 6)];
    hub.publishAll(late);
    expect(w.out).toBe(bytes(late[0]!) + sseExhausted('g', { epoch: 0, seq: 9 }) + bytes(late[1]!) + bytes(late[2]!) + bytes(late[3]!));
  });

  it('announces the gap inside the replay when the first event of such a session was queued behind it', async () => {
    const hub = new Hub(100, 10);
    const old = held(hub, 's', [0]);
    const w = new FakeWriter();
    w.stall();
    hub.subscribe(spec({ kind: 'positions', points: [{ session: 's', epoch: 0, seq: -1 }, { session: 'g', epoch: 0, seq: 1 }] }), w);
    const gapped = rec('g', 7);
    hub.publishAll([gapped]);
    w.release();
    await tick();
    expect(w.out).toBe(bytes(old[0]!) + sseExhausted('g', { epoch: 0, seq: 7 }) + bytes(gapped));
  });
});

describe('Subscription: closing and positions', () => {
  it('stops the replay and the fan-out when the transport closes it, and keeps the last delivered position per session', async () => {
    const hub = new Hub(100, 10);
    held(hub, 's', [0, 1, 2]);
    const w = new FakeWriter();
    w.stall();
    const sub: Subscription = hub.subscribe(spec({ kind: 'all' }, { positions: true }), w);
    expect([...sub.delivered()]).toEqual([['s', { epoch: 0, seq: 0 }]]);
    sub.close();
    sub.close();
    expect(hub.stats().subscribers).toBe(0);
    w.release();
    await tick();
    hub.publishAll([rec('s', 3)]);
    expect(w.calls).toEqual(['exhausted:0', 'replay:0', 'drained']);
    expect(w.ends).toEqual([]);
  });

  it('ends with failed when a replay write throws, and leaves the fan-out', async () => {
    const hub = new Hub(100, 10);
    held(hub, 's', [0]);
    const w = new FakeWriter();
    w.replay = () => {
      throw new Error('encoding failed');
    };
    const sub = hub.subscribe(spec({ kind: 'all' }), w);
    await tick();
    expect(w.ends).toEqual(['failed']);
    expect(sub.ended).toBe(true);
    expect(hub.stats().subscribers).toBe(0);
  });
});
