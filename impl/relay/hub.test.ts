import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../core/event.js';
import type { Received } from './buffer.js';
import { compileFilter } from '../core/filter.js';
import { Hub, type Subscription, type SubscriptionWriter } from './hub.js';

let n = 0;
function rec(session: string | undefined, seq?: number): Received {
  const event = { aep: '0.1', id: `hub-${++n}`, type: 'progress.status', time: '2026-11-30T05:20:00Z', source: 'aep://hub-test/a', agent: 'a', epoch: 0 } as AepEvent;
  if (session !== undefined) event.session = session;
  if (seq !== undefined) event.seq = seq;
  return { event, raw: JSON.stringify(event) };
}

/** A live subscription without replay whose writer records every live call as `deliver:{id}` or `flush`. */
function recorder(hub: Hub, calls: string[], filter: Record<string, unknown> = {}, onDeliver?: (r: Received) => void, withFlush = true): Subscription {
  const writer: SubscriptionWriter = {
    bufferedBytes: () => 0,
    exhausted: () => {},
    replay: () => true,
    replayEnd: () => true,
    drained: async () => {},
    live(r) {
      calls.push(`deliver:${r.event.id}`);
      onDeliver?.(r);
    },
    ...(withFlush ? { flush: () => void calls.push('flush') } : {}),
    end: (reason) => void calls.push(`end:${reason}`),
  };
  return hub.subscribe({ filter, match: compileFilter(filter), ceiling: undefined, replay: { kind: 'none' }, live: true, slowBytes: 1024 }, writer);
}

describe('Hub.publishAll', () => {
  it('delivers every event in order, then flushes each sink once, and counts the new events', () => {
    const hub = new Hub(10, 10);
    const calls: string[] = [];
    const onlyB: string[] = [];
    recorder(hub, calls);
    recorder(hub, onlyB, { session: 'b' });
    expect(hub.stats().subscribers).toBe(2);
    const a0 = rec('a', 0);
    const batch = [a0, rec('b', 0), a0, rec(undefined)]; // a duplicate, and an agent-scoped event (never buffered, still new)
    expect(hub.publishAll(batch)).toBe(3);
    expect(calls).toEqual([...batch.map((r) => `deliver:${r.event.id}`), 'flush']); // duplicates are forwarded live
    expect(onlyB).toEqual([`deliver:${batch[1]!.event.id}`, 'flush']);
    expect(hub.publish(a0)).toBe(false);
    expect(hub.publish(rec('a', 1))).toBe(true);
    expect(calls.slice(5)).toEqual([`deliver:${a0.event.id}`, 'flush', expect.stringMatching(/^deliver:/), 'flush']);
  });

  it('hands every flush of one fan-out the same shared list, empty at its start, and a new list to the next fan-out', () => {
    const hub = new Hub(10, 10);
    const seen: Array<{ list: unknown[]; length: number }> = [];
    for (let i = 0; i < 3; i++) {
      const writer: SubscriptionWriter = {
        bufferedBytes: () => 0, exhausted: () => {}, replay: () => true, replayEnd: () => true, drained: async () => {}, live: () => {},
        flush: (shared) => {
          seen.push({ list: shared!, length: shared!.length });
          shared!.push(i);
        },
        end: () => {},
      };
      hub.subscribe({ filter: {}, match: compileFilter({}), ceiling: undefined, replay: { kind: 'none' }, live: true, slowBytes: 1024 }, writer);
    }
    hub.publishAll([rec('a', 0)]);
    hub.publishAll([rec('a', 1)]);
    expect(seen.map((s) => s.length)).toEqual([0, 1, 2, 0, 1, 2]);
    expect(seen[1]!.list).toBe(seen[0]!.list);
    expect(seen[2]!.list).toBe(seen[0]!.list);
    expect(seen[3]!.list).not.toBe(seen[0]!.list);
  });

  it('keeps serving the other sinks when one throws, and still flushes every sink', () => {
    const lines: string[] = [];
    const hub = new Hub(10, 10, (line) => lines.push(line));
    const good: string[] = [];
    const bad: string[] = [];
    recorder(hub, bad, {}, () => {
      throw new Error('boom');
    });
    recorder(hub, good);
    const batch = [rec('a', 0), rec('a', 1)];
    expect(hub.publishAll(batch)).toBe(2);
    expect(good).toEqual([...batch.map((r) => `deliver:${r.event.id}`), 'flush']);
    expect(bad.at(-1)).toBe('flush');
    expect(lines).toEqual(batch.map((r) => `delivery of ${JSON.stringify(r.event.id)} to one subscriber failed: boom`));
  });

  it('stops delivering to a subscription closed during the batch, and does not flush it', () => {
    const hub = new Hub(10, 10);
    const calls: string[] = [];
    const sub: Subscription = recorder(hub, calls, {}, () => sub.close());
    const batch = [rec('a', 0), rec('a', 1)];
    hub.publishAll(batch);
    expect(calls).toEqual([`deliver:${batch[0]!.event.id}`]);
    expect(hub.stats().subscribers).toBe(0);
  });

  it('writes straight through to a sink without flush', () => {
    const hub = new Hub(10, 10);
    const got: string[] = [];
    recorder(hub, got, {}, undefined, false);
    const batch = [rec('a', 0), rec('a', 1)];
    hub.publishAll(batch);
    expect(got).toEqual(batch.map((r) => `deliver:${r.event.id}`));
  });
});

describe('Hub.publishAll, subscriptions that take events one by one', () => {
  it('interleaves them per event in joining order, as one socket with several subscriptions always saw them', () => {
    // Writers without `liveAll` (the WebSocket binding's) write each event as it comes: their order is the wire's.
    const hub = new Hub(10, 10);
    const timeline: string[] = [];
    recorder(hub, [], {}, (r) => timeline.push(`all:${r.event.id}`));
    recorder(hub, [], { session: 'a' }, (r) => timeline.push(`a:${r.event.id}`));
    recorder(hub, [], {}, (r) => timeline.push(`all2:${r.event.id}`));
    const batch = [rec('a', 0), rec('b', 0), rec('a', 1)];
    hub.publishAll(batch);
    const [a0, b0, a1] = batch.map((r) => r.event.id);
    expect(timeline).toEqual([`all:${a0}`, `a:${a0}`, `all2:${a0}`, `all:${b0}`, `all2:${b0}`, `all:${a1}`, `a:${a1}`, `all2:${a1}`]);
  });
});

describe('Hub as the in-memory HubLike', () => {
  const peer = (claims: string[], accepts?: string[]) => {
    const sent: string[] = [];
    return { claims: new Set(claims), accepts, sent, send: (t: string) => void sent.push(t) };
  };
  const command = (session: string): Received => {
    const event = { aep: '0.1', id: `cmd-${++n}`, type: 'control.cancel', time: '2026-11-30T05:20:00Z', source: 'aep://hub-test/op', agent: 'op', session, data: { scope: 'session' } } as AepEvent;
    return { event, raw: JSON.stringify(event) };
  };

  it('answers with data: ingest counts (stored before it returns), claim allows, ownedElsewhere sees other local claimants', async () => {
    const hub = new Hub(4, 4);
    const stored = hub.ingest([rec('s', 0), rec('s', 1)]);
    expect(hub.stats()).toEqual({ sessions: 1, events: 2, subscribers: 0 });
    expect(await stored).toEqual({ ok: true, fresh: 2 });
    const owner = peer(['s']);
    const other = peer([]);
    hub.attach(owner);
    hub.attach(other);
    expect(await hub.claim()).toEqual({ ok: true });
    expect(await hub.ownedElsewhere(other, 's')).toEqual({ ok: true, elsewhere: true });
    expect(await hub.ownedElsewhere(owner, 's')).toEqual({ ok: true, elsewhere: false });
    expect(await hub.roster()).toEqual({ ok: true, entries: [{ session: 's' }] });
    hub.leave(owner);
    expect(await hub.ownedElsewhere(other, 's')).toEqual({ ok: true, elsewhere: false });
    expect(await hub.roster()).toEqual({ ok: true, entries: [] });
  });

  it('dispatches a command to its one owner byte for byte, or refuses it with the routing code', async () => {
    const hub = new Hub(4, 4);
    const target = peer(['t'], ['control.cancel']);
    hub.attach(target);
    const cmd = command('t');
    expect(await hub.dispatch(cmd, false)).toMatchObject({ ok: false, code: 'unauthorized' });
    expect(target.sent).toEqual([]);
    expect(await hub.dispatch(cmd, true)).toEqual({ ok: true });
    expect(target.sent).toEqual([cmd.raw]);
    expect(await hub.dispatch(command('nobody'), true)).toMatchObject({ ok: false, code: 'no-route' });
    hub.attach(peer(['t'], ['control.cancel']));
    expect(await hub.dispatch(cmd, true)).toMatchObject({ ok: false, code: 'ambiguous' });
  });
});
