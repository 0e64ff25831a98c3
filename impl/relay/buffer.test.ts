import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../core/event.js';
import { ReplayBuffer, type Received } from './buffer.js';

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

  it('evicts the earliest position first and marks exhaustion only for positions before the evicted high', () => {
    const b = new ReplayBuffer(3, 10);
    for (let s = 0; s <= 5; s++) b.admit(rec('s', s));
    expect(seqs(b.replayAll())).toEqual([3, 4, 5]);
    const early = b.replay({ session: 's', epoch: 0, seq: 1 });
    expect(early.exhausted).toEqual({ epoch: 0, seq: 3 });
    expect(seqs(early.events)).toEqual([3, 4, 5]);
    expect(b.replay({ session: 's', epoch: 0, seq: 2 }).exhausted).toBeUndefined();
    expect(seqs(b.replay({ session: 's', epoch: 0, seq: 4 }).events)).toEqual([5]);
    expect(b.replay({ session: 'none', epoch: 0, seq: 0 })).toEqual({ events: [] });
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
});
