import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../core/event.js';
import { ReplayBuffer, type Held, type Received } from './buffer.js';
import { comparePositions, type Position, type ResumePoint } from './positions.js';

let n = 0;
function rec(session: string | undefined, seq: number | undefined, extra: Partial<AepEvent> = {}): Received {
  const event = { aep: '0.1', id: `e${++n}`, type: 'progress.status', time: 't', source: 'src', agent: 'a', session, seq, epoch: 0, ...extra } as AepEvent;
  if (session === undefined) delete event.session;
  if (seq === undefined) delete event.seq;
  return { event, raw: JSON.stringify(event) };
}
const seqs = (list: readonly { event: AepEvent }[]): Array<number | undefined> => list.map((r) => r.event.seq);

describe('ReplayBuffer', () => {
  it('dedupes on (source, id) at admission, not on id alone', () => {
    const b = new ReplayBuffer(10, 10);
    const a = rec('s', 0);
    expect(b.admit(a).buffered).toBe(true);
    expect(b.admit(a).buffered).toBe(false);
    const sameIdOtherSource = { ...a, event: { ...a.event, source: 'other', seq: 1 } };
    expect(b.admit(sameIdOtherSource).buffered).toBe(true);
    expect(b.stats()).toEqual({ sessions: 1, events: 2 });
  });

  it('orders by (epoch, seq) whatever the arrival order', () => {
    const b = new ReplayBuffer(10, 10);
    for (const r of [rec('s', 2), rec('s', 0, { epoch: 1 }), rec('s', 1), rec('s', 0)]) b.admit(r);
    const all = b.replayAll();
    expect(all.map((h) => [h.pos.epoch, h.pos.seq])).toEqual([[0, 0], [0, 1], [0, 2], [1, 0]]);
  });

  it('evicts the earliest position first and marks exhaustion for positions at or before the evicted high', () => {
    const b = new ReplayBuffer(3, 10);
    for (let s = 0; s <= 5; s++) b.admit(rec('s', s));
    expect(seqs(b.replayAll())).toEqual([3, 4, 5]);
    const early = b.replay({ session: 's', epoch: 0, seq: 1 });
    expect(early.exhausted).toEqual({ epoch: 0, seq: 3 });
    expect(seqs(early.events)).toEqual([3, 4, 5]);
    expect(b.replay({ session: 's', epoch: 0, seq: 2 }).exhausted).toEqual({ epoch: 0, seq: 3 });
    expect(b.replay({ session: 's', epoch: 0, seq: 3 }).exhausted).toBeUndefined();
    expect(seqs(b.replay({ session: 's', epoch: 0, seq: 4 }).events)).toEqual([5]);
    expect(b.replay({ session: 'none', epoch: 0, seq: 0 })).toEqual({ events: [], unanchored: true });
  });

  it('marks a resume that lies before the earliest held position unless it is its predecessor (after a restart)', () => {
    const b = new ReplayBuffer(100, 10);
    for (let s = 100; s <= 102; s++) b.admit(rec('r', s));
    expect(b.replay({ session: 'r', epoch: 0, seq: 49 }).exhausted).toEqual({ epoch: 0, seq: 100 });
    expect(seqs(b.replay({ session: 'r', epoch: 0, seq: 49 }).events)).toEqual([100, 101, 102]);
    expect(b.replay({ session: 'r', epoch: 0, seq: 99 }).exhausted).toBeUndefined();
    expect(b.replay({ session: 'r', epoch: 0, seq: 100 }).exhausted).toBeUndefined();
    expect(b.replay({ session: 'r', epoch: 0, seq: 150 })).toEqual({ events: [] });
  });

  it('remembers a session evicted whole: a resume into it is exhausted, also once it comes back', () => {
    const b = new ReplayBuffer(10, 1);
    for (let s = 0; s <= 4; s++) b.admit(rec('gone', s));
    b.admit(rec('other', 0));
    expect(b.replay({ session: 'gone', epoch: 0, seq: 2 })).toEqual({ events: [], exhausted: { epoch: 0, seq: 5 } });
    expect(b.replay({ session: 'gone', epoch: 0, seq: 4 })).toEqual({ events: [] });
    b.admit(rec('gone', 9));
    expect(b.replay({ session: 'gone', epoch: 0, seq: 3 }).exhausted).toEqual({ epoch: 0, seq: 9 });
    expect(b.replay({ session: 'never', epoch: 0, seq: 3 })).toEqual({ events: [], unanchored: true });
  });

  it('evicts the least recently written session at the session cap', () => {
    const b = new ReplayBuffer(10, 2);
    b.admit(rec('a', 0));
    b.admit(rec('b', 0));
    b.admit(rec('a', 1)); // a is now the most recent
    b.admit(rec('c', 0)); // evicts b
    expect(b.replayAll().map((h) => h.session)).toEqual(['a', 'a', 'c']);
    expect(b.stats().sessions).toBe(2);
  });

  it('never buffers agent-scoped events', () => {
    const b = new ReplayBuffer(10, 10);
    expect(b.admit(rec(undefined, undefined, { type: 'agent.heartbeat' })).buffered).toBe(false);
    expect(b.stats()).toEqual({ sessions: 0, events: 0 });
  });

  it('holds seq-less events right after the high-water position at arrival', () => {
    const b = new ReplayBuffer(10, 10);
    b.admit(rec('s', 0));
    b.admit(rec('s', 1));
    const cmd = rec('s', undefined, { type: 'control.cancel' });
    const held = b.admit(cmd).held!;
    expect(held.positioned).toBe(false);
    expect(held.pos).toEqual({ epoch: 0, seq: 1 });
    b.admit(rec('s', 2));
    expect(b.replayAll().map((h) => h.event.id)).toEqual([expect.any(String), expect.any(String), cmd.event.id, expect.any(String)]);
    expect(b.replay({ session: 's', epoch: 0, seq: 1 }).events.map((h) => h.event.seq)).toEqual([2]);
    expect(b.replay({ session: 's', epoch: 0, seq: 0 }).events.map((h) => h.event.id)).toContain(cmd.event.id);
  });

  it('dedupes at the eviction boundary: a held pair is a duplicate, an evicted one is new again', () => {
    const b = new ReplayBuffer(3, 10);
    const first = rec('s', 0);
    for (const r of [first, rec('s', 1), rec('s', 2)]) b.admit(r);
    expect(b.admit(first).buffered).toBe(false); // still held: the oldest one
    b.admit(rec('s', 3)); // evicts seq 0
    expect(seqs(b.replayAll())).toEqual([1, 2, 3]);
    expect(b.admit(first).buffered).toBe(true); // its key left with it
    // Re-admitted below the window, so it is evicted again at once.
    expect(seqs(b.replayAll())).toEqual([1, 2, 3]);
    expect(b.stats().events).toBe(3);
  });

  it('keeps a pair held when the same id from another source is evicted', () => {
    const b = new ReplayBuffer(2, 10);
    const a = rec('s', 0, { id: 'shared', source: 'src-a' });
    const other = rec('s', 1, { id: 'shared', source: 'src-b' });
    expect(b.admit(a).buffered).toBe(true);
    expect(b.admit(other).buffered).toBe(true);
    b.admit(rec('s', 2)); // evicts a
    expect(b.admit(other).buffered).toBe(false); // still held
    expect(b.admit(a).buffered).toBe(true); // gone, so new again (and evicted at once: seq 0)
    b.admit(rec('s', 3)); // evicts other
    expect(b.admit(other).buffered).toBe(true);
  });

  it('backfills an out-of-order event into its place and keeps the exhaustion marker right', () => {
    const b = new ReplayBuffer(4, 10);
    for (const s of [10, 11, 13, 14]) b.admit(rec('s', s));
    b.admit(rec('s', 12)); // full: lands between 11 and 13, then 10 is evicted
    expect(seqs(b.replayAll())).toEqual([11, 12, 13, 14]);
    expect(b.replay({ session: 's', epoch: 0, seq: 9 }).exhausted).toEqual({ epoch: 0, seq: 11 });
    expect(b.replay({ session: 's', epoch: 0, seq: 10 }).exhausted).toEqual({ epoch: 0, seq: 11 });
    expect(b.replay({ session: 's', epoch: 0, seq: 11 }).exhausted).toBeUndefined();
    expect(seqs(b.replay({ session: 's', epoch: 0, seq: 11 }).events)).toEqual([12, 13, 14]);
    b.admit(rec('s', 5)); // far below the window: held for no time at all
    expect(seqs(b.replayAll())).toEqual([11, 12, 13, 14]);
    expect(b.replay({ session: 's', epoch: 0, seq: 9 }).exhausted).toEqual({ epoch: 0, seq: 11 });
  });

  it('behaves exactly like the straightforward implementation over random traffic', () => {
    for (const seed of [3, 11, 99]) {
      const random = rng(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
      const ours = new ReplayBuffer(6, 3);
      const model = new ModelBuffer(6, 3);
      const sent: Received[] = [];
      const seqBySession = new Map<string, number>();
      for (let step = 0; step < 4000; step++) {
        const session = pick(['a', 'b', 'c', 'd', undefined]);
        let r: Received;
        if (sent.length > 0 && random() < 0.1) {
          r = pick(sent); // a retry: same (source, id)
        } else if (session === undefined) {
          r = rec(undefined, undefined, { type: 'agent.heartbeat' });
        } else if (random() < 0.1) {
          r = rec(session, undefined, { type: 'control.cancel', source: pick(['src', 'other']) });
        } else {
          const top = seqBySession.get(session) ?? 0;
          const seq = random() < 0.8 ? top + 1 : Math.max(0, top - Math.floor(random() * 10));
          seqBySession.set(session, Math.max(top, seq));
          // Sometimes reuse an id under another source: (source, id) pairs, not ids, are the keys.
          const id = sent.length > 0 && random() < 0.15 ? { id: pick(sent).event.id } : {};
          r = rec(session, seq, { epoch: random() < 0.05 ? 1 : 0, source: pick(['src', 'src', 'other', 'third']), ...id });
          if (random() < 0.1) r = { ...r, overDeclared: true };
        }
        sent.push(r);
        const got = ours.admit(r);
        const want = model.admit(r);
        expect(got.buffered).toBe(want.buffered);
        expect(got.held && view(got.held)).toEqual(want.held && view(want.held));
        if (step % 7 === 0) {
          const point: ResumePoint = { session: pick(['a', 'b', 'c', 'd']), epoch: pick([0, 0, 1]), seq: Math.floor(random() * 40) };
          const g = ours.replay(point);
          const w = model.replay(point);
          expect(g.events.map(view)).toEqual(w.events.map(view));
          expect(g.exhausted).toEqual(w.exhausted);
          expect(g.unanchored).toEqual(w.unanchored);
        }
        if (step % 50 === 0) {
          expect(ours.replayAll().map(view)).toEqual(model.replayAll().map(view));
          expect(ours.stats()).toEqual(model.stats());
        }
      }
    }
  });
});

const view = (h: Held): unknown => ({ event: h.event, raw: h.raw, overDeclared: h.overDeclared, session: h.session, pos: h.pos, positioned: h.positioned, ord: h.ord });

/** mulberry32: deterministic, so a failing sequence can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The buffer written the obvious way (arrays, linear insertion, shift): the behavior ReplayBuffer must keep. */
class ModelBuffer {
  readonly #sessions = new Map<string, { events: Held[]; keys: Set<string>; highWater?: Position; evictedHigh?: Position }>();
  readonly #evicted = new Map<string, Position>();
  #ord = 0;
  constructor(readonly perSession: number, readonly maxSessions: number) {}

  admit(r: Received): { buffered: boolean; held?: Held } {
    const session = r.event.session;
    if (typeof session !== 'string') return { buffered: false };
    const key = `${r.event.source}\u0000${r.event.id}`;
    let state = this.#sessions.get(session);
    if (state?.keys.has(key)) return { buffered: false };
    if (!state) {
      if (this.#sessions.size >= this.maxSessions) {
        const [name, gone] = this.#sessions.entries().next().value!;
        this.#sessions.delete(name);
        const highs = [gone.highWater, gone.evictedHigh].filter((p): p is Position => p !== undefined).sort(comparePositions);
        if (highs.length > 0) {
          this.#evicted.delete(name);
          this.#evicted.set(name, highs[highs.length - 1]!);
          if (this.#evicted.size > 4 * this.maxSessions) this.#evicted.delete(this.#evicted.keys().next().value!);
        }
      }
      const lost = this.#evicted.get(session);
      this.#evicted.delete(session);
      state = lost ? { events: [], keys: new Set(), evictedHigh: lost } : { events: [], keys: new Set() };
    } else this.#sessions.delete(session);
    this.#sessions.set(session, state);
    const seq = r.event.seq;
    const positioned = typeof seq === 'number';
    const pos = positioned ? { epoch: r.event.epoch ?? 0, seq } : (state.highWater ?? { epoch: -1, seq: -1 });
    const held: Held = { ...r, session, pos, positioned, ord: ++this.#ord };
    if (positioned && (!state.highWater || comparePositions(pos, state.highWater) > 0)) state.highWater = pos;
    let i = state.events.length;
    while (i > 0) {
      const c = comparePositions(state.events[i - 1]!.pos, pos);
      if (c > 0 || (c === 0 && state.events[i - 1]!.ord > held.ord)) i--;
      else break;
    }
    state.events.splice(i, 0, held);
    state.keys.add(key);
    while (state.events.length > this.perSession) {
      const gone = state.events.shift()!;
      state.keys.delete(`${gone.event.source}\u0000${gone.event.id}`);
      if (!state.evictedHigh || comparePositions(gone.pos, state.evictedHigh) > 0) state.evictedHigh = gone.pos;
    }
    return { buffered: true, held };
  }

  replay(point: ResumePoint): { events: Held[]; exhausted?: Position; unanchored?: true } {
    const state = this.#sessions.get(point.session);
    if (!state || state.events.length === 0) {
      const lost = this.#evicted.get(point.session) ?? state?.evictedHigh;
      if (!lost) return { events: [], unanchored: true };
      return comparePositions(point, lost) < 0 ? { events: [], exhausted: { epoch: lost.epoch, seq: lost.seq + 1 } } : { events: [] };
    }
    const events = state.events.filter((h) => comparePositions(h.pos, point) > 0);
    if (state.evictedHigh && comparePositions(point, state.evictedHigh) <= 0) return { events, exhausted: state.events[0]!.pos };
    const earliest = state.events.find((h) => h.positioned);
    const follows = earliest && earliest.pos.epoch === point.epoch && earliest.pos.seq === point.seq + 1;
    if (earliest && comparePositions(point, earliest.pos) < 0 && !follows) return { events, exhausted: earliest.pos };
    return { events };
  }

  replayAll(): Held[] {
    return [...this.#sessions.values()].flatMap((s) => s.events);
  }

  stats(): { sessions: number; events: number } {
    let events = 0;
    for (const s of this.#sessions.values()) events += s.events.length;
    return { sessions: this.#sessions.size, events };
  }
}
