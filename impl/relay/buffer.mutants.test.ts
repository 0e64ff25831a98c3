/**
 * The replay buffer's edges a subscriber relies on, each pinned by an exact answer: what a resume
 * replays and when it is marked `replay-exhausted`, dedupe, eviction of events and of whole
 * sessions, the bounded memory of evicted sessions, and the parse memo. Written to kill the
 * mutants Stryker finds in `buffer.ts` (docs/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../core/event.js';
import { MATERIALIZED, ReplayBuffer, isHeldRecord, isSuccessor, type Received } from './buffer.js';

let n = 0;
function rec(session: string | undefined, seq: number | undefined, extra: Partial<AepEvent> = {}): Received {
  const event = { aep: '0.1', id: `m${++n}`, type: 'progress.status', time: 't', source: 'src', agent: 'a', ...(session === undefined ? {} : { session }), ...(seq === undefined ? {} : { seq }), epoch: 0, ...extra } as AepEvent;
  return { event, raw: JSON.stringify(event) };
}
const ids = (list: readonly { event: AepEvent }[]): string[] => list.map((r) => r.event.id);
const seqs = (list: readonly { event: AepEvent }[]): Array<number | undefined> => list.map((r) => r.event.seq);

describe('isSuccessor', () => {
  it('is the next seq of the same epoch, nothing else', () => {
    expect(isSuccessor({ epoch: 2, seq: 7 }, { epoch: 2, seq: 8 })).toBe(true);
    expect(isSuccessor({ epoch: 2, seq: 7 }, { epoch: 2, seq: 7 })).toBe(false);
    expect(isSuccessor({ epoch: 2, seq: 7 }, { epoch: 2, seq: 9 })).toBe(false);
    expect(isSuccessor({ epoch: 2, seq: 7 }, { epoch: 2, seq: 6 })).toBe(false);
    expect(isSuccessor({ epoch: 2, seq: 7 }, { epoch: 3, seq: 8 })).toBe(false);
    expect(isSuccessor({ epoch: 2, seq: 7 }, { epoch: 1, seq: 8 })).toBe(false);
  });
});

describe('replay: contents and the exhaustion marker', () => {
  it('marks a resume from the previous epoch, even at the seq right before the earliest held one', () => {
    const b = new ReplayBuffer(10, 10);
    for (const s of [100, 101]) b.admit(rec('s', s, { epoch: 1 }));
    expect(b.replay({ session: 's', epoch: 0, seq: 99 })).toEqual({ events: expect.any(Array), exhausted: { epoch: 1, seq: 100 } });
    expect(seqs(b.replay({ session: 's', epoch: 0, seq: 99 }).events)).toEqual([100, 101]);
    expect(b.replay({ session: 's', epoch: 1, seq: 99 })).toEqual({ events: expect.any(Array) });
  });

  it('judges the gap from the earliest positioned event, not from a seq-less one held before it', () => {
    const b = new ReplayBuffer(10, 10);
    const cmd = rec('s', undefined, { type: 'control.cancel' });
    b.admit(cmd); // no position yet: held before everything
    for (const s of [100, 101]) b.admit(rec('s', s));
    expect(ids(b.replayAll())[0]).toBe(cmd.event.id);
    const far = b.replay({ session: 's', epoch: 0, seq: 49 });
    expect(far.exhausted).toEqual({ epoch: 0, seq: 100 });
    expect(seqs(far.events)).toEqual([100, 101]);
    const next = b.replay({ session: 's', epoch: 0, seq: 99 });
    expect(next.exhausted).toBeUndefined();
    expect(seqs(next.events)).toEqual([100, 101]);
  });

  it('a session holding only seq-less events is anchored: a resume gets nothing, unmarked', () => {
    const b = new ReplayBuffer(10, 10);
    const a = rec('s', undefined, { type: 'control.cancel' });
    const c = rec('s', undefined, { type: 'control.cancel' });
    b.admit(a);
    b.admit(c);
    expect(b.replay({ session: 's', epoch: 0, seq: 5 })).toEqual({ events: [] });
    expect(ids(b.replayAll())).toEqual([a.event.id, c.event.id]);
  });

  it('marks from the first held event once something was evicted, with the events after the point', () => {
    const b = new ReplayBuffer(2, 10);
    for (const s of [1, 2, 3, 4]) b.admit(rec('s', s));
    expect(b.replay({ session: 's', epoch: 0, seq: 2 })).toEqual({ events: [expect.anything(), expect.anything()], exhausted: { epoch: 0, seq: 3 } });
    const at = b.replay({ session: 's', epoch: 0, seq: 3 });
    expect(at.exhausted).toBeUndefined();
    expect(seqs(at.events)).toEqual([4]);
  });

  it('the evicted high is the highest position evicted, not the last one', () => {
    const b = new ReplayBuffer(2, 10);
    for (const s of [10, 11]) b.admit(rec('s', s));
    b.admit(rec('s', 12)); // evicts 10
    b.admit(rec('s', 3)); // below the window: evicted at once, but 10 stays the evicted high
    expect(b.replay({ session: 's', epoch: 0, seq: 10 }).exhausted).toEqual({ epoch: 0, seq: 11 });
    expect(b.replay({ session: 's', epoch: 0, seq: 11 }).exhausted).toBeUndefined();
  });
});

describe('sessions evicted whole', () => {
  it('a session evicted whole is remembered at its highest position, in epochs too', () => {
    const b = new ReplayBuffer(10, 1);
    b.admit(rec('gone', 7, { epoch: 2 }));
    b.admit(rec('gone', 3, { epoch: 2 }));
    b.admit(rec('other', 0));
    expect(b.replay({ session: 'gone', epoch: 2, seq: 6 })).toEqual({ events: [], exhausted: { epoch: 2, seq: 8 } });
    expect(b.replay({ session: 'gone', epoch: 2, seq: 7 })).toEqual({ events: [] });
    expect(b.replay({ session: 'gone', epoch: 1, seq: 50 })).toEqual({ events: [], exhausted: { epoch: 2, seq: 8 } });
  });

  it('remembers what the evicted session had already lost when that is the higher position', () => {
    const b = new ReplayBuffer(1, 1);
    b.admit(rec('gone', 9));
    b.admit(rec('gone', 4)); // held for no time: 9 stays; 4 is evicted
    b.admit(rec('other', 0)); // evicts 'gone' whole, holding 9
    expect(b.replay({ session: 'gone', epoch: 0, seq: 8 }).exhausted).toEqual({ epoch: 0, seq: 10 });
  });

  it('a session of seq-less events only, evicted whole, is not remembered', () => {
    const b = new ReplayBuffer(10, 1);
    b.admit(rec('cmds', undefined, { type: 'control.cancel' }));
    b.admit(rec('other', 0));
    expect(b.replay({ session: 'cmds', epoch: 0, seq: 0 })).toEqual({ events: [], unanchored: true });
  });

  it('remembers the last 4 x maxSessions sessions evicted whole, the least recently evicted forgotten first', () => {
    const b = new ReplayBuffer(10, 1);
    for (let i = 0; i <= 5; i++) b.admit(rec(`s${i}`, 10));
    // s0..s4 evicted (five), four remembered: s1..s4.
    expect(b.replay({ session: 's0', epoch: 0, seq: 1 })).toEqual({ events: [], unanchored: true });
    for (let i = 1; i <= 4; i++) expect(b.replay({ session: `s${i}`, epoch: 0, seq: 1 })).toEqual({ events: [], exhausted: { epoch: 0, seq: 11 } });
  });

  it('holds exactly 4 x maxSessions evicted names (two sessions: eight)', () => {
    const b = new ReplayBuffer(10, 2);
    for (let i = 0; i <= 9; i++) b.admit(rec(`t${i}`, 1));
    // t0..t7 evicted: exactly eight, all remembered.
    for (let i = 0; i <= 7; i++) expect(b.replay({ session: `t${i}`, epoch: 0, seq: 0 }).exhausted).toEqual({ epoch: 0, seq: 2 });
    b.admit(rec('t10', 1)); // t8 evicted: t0 forgotten
    expect(b.replay({ session: 't0', epoch: 0, seq: 0 })).toEqual({ events: [], unanchored: true });
    expect(b.replay({ session: 't1', epoch: 0, seq: 0 }).exhausted).toEqual({ epoch: 0, seq: 2 });
  });

  it('a session evicted again is remembered afresh: it is forgotten after those evicted before it', () => {
    const b = new ReplayBuffer(10, 1);
    b.admit(rec('a', 1));
    b.admit(rec('b', 1)); // evicts a: [a]
    b.admit(rec('c', 1)); // evicts b: [a, b]
    b.admit(rec('a', 2)); // evicts c: [b, c]; a comes back knowing it lost 1
    expect(b.replay({ session: 'a', epoch: 0, seq: 0 }).exhausted).toEqual({ epoch: 0, seq: 2 });
    b.admit(rec('d', 1)); // evicts a: [b, c, a]
    b.admit(rec('e', 1)); // [b, c, a, d]
    b.admit(rec('f', 1)); // [c, a, d, e]: b forgotten
    b.admit(rec('g', 1)); // [a, d, e, f]: c forgotten
    expect(b.replay({ session: 'b', epoch: 0, seq: 0 }).unanchored).toBe(true);
    expect(b.replay({ session: 'c', epoch: 0, seq: 0 }).unanchored).toBe(true);
    expect(b.replay({ session: 'a', epoch: 0, seq: 1 })).toEqual({ events: [], exhausted: { epoch: 0, seq: 3 } });
    b.admit(rec('h', 1)); // [d, e, f, g]: a forgotten
    expect(b.replay({ session: 'a', epoch: 0, seq: 1 }).unanchored).toBe(true);
  });

  it('keeps the recency order across a run of writes to one session', () => {
    const b = new ReplayBuffer(10, 2);
    b.admit(rec('a', 0));
    b.admit(rec('b', 0));
    b.admit(rec('b', 1));
    b.admit(rec('a', 1));
    b.admit(rec('a', 2));
    b.admit(rec('c', 0)); // evicts b, the least recently written
    expect(b.replayAll().map((h) => h.session)).toEqual(['a', 'a', 'a', 'c']);
    expect(b.replay({ session: 'b', epoch: 0, seq: 0 }).exhausted).toEqual({ epoch: 0, seq: 2 });
  });
});

describe('dedupe and has()', () => {
  it('has() answers for the held (source, id) pair only', () => {
    const b = new ReplayBuffer(10, 10);
    const a = rec('s', 1, { source: 'x' });
    expect(b.has(a.event)).toBe(false);
    b.admit(a);
    expect(b.has(a.event)).toBe(true);
    expect(b.has({ ...a.event, source: 'y' })).toBe(false);
    expect(b.has({ ...a.event, id: 'other' })).toBe(false);
    expect(b.has({ ...a.event, session: 'elsewhere' })).toBe(false);
    const agentScoped = { ...a.event };
    delete (agentScoped as { session?: string }).session;
    expect(b.has(agentScoped)).toBe(false);
    // Two sources share the id: each pair is held on its own.
    b.admit(rec('s', 2, { id: a.event.id, source: 'y' }));
    expect(b.has({ ...a.event, source: 'y' })).toBe(true);
    expect(b.has({ ...a.event, source: 'z' })).toBe(false);
    expect(b.admit(rec('s', 3, { id: a.event.id, source: 'z' })).buffered).toBe(true);
    expect(b.admit(rec('s', 4, { id: a.event.id, source: 'y' })).buffered).toBe(false);
  });

  it('forgets an id shared by several sources once every one of them is evicted', () => {
    const b = new ReplayBuffer(2, 10);
    const x = rec('s', 1, { id: 'dup', source: 'x' });
    const y = rec('s', 2, { id: 'dup', source: 'y' });
    b.admit(x);
    b.admit(y);
    b.admit(rec('s', 3)); // evicts x
    expect(b.has(x.event)).toBe(false);
    expect(b.has(y.event)).toBe(true);
    b.admit(rec('s', 4)); // evicts y
    expect(b.has(y.event)).toBe(false);
    expect(b.admit(rec('s', 5, { id: 'dup', source: 'y' })).buffered).toBe(true);
    expect(b.has(y.event)).toBe(true);
    expect(b.has(x.event)).toBe(false);
  });

  it('records the source of each event in a run from alternating sources', () => {
    const b = new ReplayBuffer(10, 10);
    const events = [rec('s', 1, { source: 'p' }), rec('s', 2, { source: 'q' }), rec('s', 3, { source: 'p' }), rec('s', 4, { source: 'q' })];
    for (const r of events) b.admit(r);
    for (const r of events) {
      expect(b.has(r.event)).toBe(true);
      expect(b.has({ ...r.event, source: r.event.source === 'p' ? 'q' : 'p' })).toBe(false);
    }
  });
});

describe('held records', () => {
  it('carries the text, session, position, arrival and over-declared mark it was admitted with', () => {
    const b = new ReplayBuffer(10, 10);
    const r = { ...rec('s', 4, { epoch: 3 }), overDeclared: true };
    const held = b.admit(r).held!;
    expect(held.raw).toBe(r.raw);
    expect(held.session).toBe('s');
    expect(held.pos).toEqual({ epoch: 3, seq: 4 });
    expect(held.positioned).toBe(true);
    expect(held.overDeclared).toBe(true);
    const plain = b.admit(rec('s', 5, { epoch: 3 })).held!;
    expect(plain.overDeclared).toBeUndefined();
    expect('overDeclared' in plain && Object.hasOwn(plain, 'overDeclared')).toBe(false);
    expect(plain.ord).toBe(held.ord + 1);
    const cmd = b.admit(rec('s', undefined, { type: 'control.cancel' })).held!;
    expect(cmd.positioned).toBe(false);
    expect(cmd.ord).toBe(plain.ord + 1);
    expect(cmd.pos).toEqual({ epoch: 3, seq: 5 });
  });

  it('a position without an epoch is epoch 0', () => {
    const b = new ReplayBuffer(10, 10);
    const r = rec('s', 6);
    delete (r.event as { epoch?: number }).epoch;
    expect(b.admit({ event: r.event, raw: JSON.stringify(r.event) }).held!.pos).toEqual({ epoch: 0, seq: 6 });
  });

  it('is recognised as held; a live record is not', () => {
    const b = new ReplayBuffer(10, 10);
    const live = rec('s', 1);
    expect(isHeldRecord(b.admit(live).held!)).toBe(true);
    expect(isHeldRecord(live)).toBe(false);
  });

  it('parses its text once while memoized, and again once the memo has moved on', () => {
    const b = new ReplayBuffer(MATERIALIZED + 2, 1);
    const first = b.admit(rec('s', 0)).held!;
    const event = first.event;
    expect(event).toEqual(JSON.parse(first.raw));
    expect(first.event).toBe(event);
    const rest = [];
    for (let seq = 1; seq <= MATERIALIZED; seq++) rest.push(b.admit(rec('s', seq)).held!);
    for (const h of rest.slice(0, MATERIALIZED - 1)) void h.event;
    // The memo holds MATERIALIZED parses: with the first one it is full, so it is still kept.
    expect(first.event).toBe(event);
    void rest[MATERIALIZED - 1]!.event; // one more: the oldest parse goes
    const again = first.event;
    expect(again).not.toBe(event);
    expect(again).toEqual(event);
  });
});

describe('stats', () => {
  it('counts held sessions and events', () => {
    const b = new ReplayBuffer(2, 2);
    expect(b.stats()).toEqual({ sessions: 0, events: 0 });
    for (const s of [1, 2, 3]) b.admit(rec('a', s));
    b.admit(rec('b', 1));
    expect(b.stats()).toEqual({ sessions: 2, events: 3 });
  });
});
