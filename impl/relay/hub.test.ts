import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../core/event.js';
import type { Received } from './buffer.js';
import { Hub, type Sink } from './hub.js';

let n = 0;
function rec(session: string | undefined, seq?: number): Received {
  const event = { aep: '0.1', id: `hub-${++n}`, type: 'progress.status', time: '2026-11-30T05:20:00Z', source: 'aep://hub-test/a', agent: 'a', epoch: 0 } as AepEvent;
  if (session !== undefined) event.session = session;
  if (seq !== undefined) event.seq = seq;
  return { event, raw: JSON.stringify(event) };
}

/** A sink recording every call as `deliver:{id}` or `flush`. */
function recorder(calls: string[], filter: Record<string, unknown> = {}, onDeliver?: (r: Received) => void): Sink {
  return {
    filter,
    ceiling: undefined,
    deliver(r) {
      calls.push(`deliver:${r.event.id}`);
      onDeliver?.(r);
    },
    flush() {
      calls.push('flush');
    },
  };
}

describe('Hub.publishAll', () => {
  it('delivers every event in order, then flushes each sink once, and counts the new events', () => {
    const hub = new Hub(10, 10);
    const calls: string[] = [];
    const onlyB: string[] = [];
    hub.sinks.add(recorder(calls));
    hub.sinks.add(recorder(onlyB, { session: 'b' }));
    const a0 = rec('a', 0);
    const batch = [a0, rec('b', 0), a0, rec(undefined)]; // a duplicate, and an agent-scoped event (never buffered, still new)
    expect(hub.publishAll(batch)).toBe(3);
    expect(calls).toEqual([...batch.map((r) => `deliver:${r.event.id}`), 'flush']); // duplicates are forwarded live
    expect(onlyB).toEqual([`deliver:${batch[1]!.event.id}`, 'flush']);
    expect(hub.publish(a0)).toBe(false);
    expect(hub.publish(rec('a', 1))).toBe(true);
    expect(calls.slice(5)).toEqual([`deliver:${a0.event.id}`, 'flush', expect.stringMatching(/^deliver:/), 'flush']);
  });

  it('keeps serving the other sinks when one throws, and still flushes every sink', () => {
    const lines: string[] = [];
    const hub = new Hub(10, 10, (line) => lines.push(line));
    const good: string[] = [];
    const bad: string[] = [];
    hub.sinks.add(recorder(bad, {}, () => {
      throw new Error('boom');
    }));
    hub.sinks.add(recorder(good));
    const batch = [rec('a', 0), rec('a', 1)];
    expect(hub.publishAll(batch)).toBe(2);
    expect(good).toEqual([...batch.map((r) => `deliver:${r.event.id}`), 'flush']);
    expect(bad.at(-1)).toBe('flush');
    expect(lines).toEqual(batch.map((r) => `delivery of ${JSON.stringify(r.event.id)} to one subscriber failed: boom`));
  });

  it('stops delivering to a sink removed during the batch', () => {
    const hub = new Hub(10, 10);
    const calls: string[] = [];
    const sink: Sink = recorder(calls, {}, () => hub.sinks.delete(sink));
    hub.sinks.add(sink);
    const batch = [rec('a', 0), rec('a', 1)];
    hub.publishAll(batch);
    expect(calls).toEqual([`deliver:${batch[0]!.event.id}`, 'flush']);
  });

  it('writes straight through to a sink without flush', () => {
    const hub = new Hub(10, 10);
    const got: string[] = [];
    hub.sinks.add({ filter: {}, ceiling: undefined, deliver: (r) => got.push(r.event.id) });
    const batch = [rec('a', 0), rec('a', 1)];
    hub.publishAll(batch);
    expect(got).toEqual(batch.map((r) => r.event.id));
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

  it('answers synchronously: ingest counts, claim allows, ownedElsewhere sees other local claimants', () => {
    const hub = new Hub(4, 4);
    expect(hub.ingest([rec('s', 0), rec('s', 1)])).toBe(2);
    expect(hub.stats()).toEqual({ sessions: 1, events: 2 });
    const owner = peer(['s']);
    const other = peer([]);
    hub.peers.add(owner);
    hub.peers.add(other);
    expect(hub.claim()).toBeUndefined();
    expect(hub.ownedElsewhere(other, 's')).toBe(true);
    expect(hub.ownedElsewhere(owner, 's')).toBe(false);
    hub.leave(owner);
    expect(hub.ownedElsewhere(other, 's')).toBe(false);
  });

  it('dispatches a command to its one owner byte for byte, or refuses it with the routing code', () => {
    const hub = new Hub(4, 4);
    const target = peer(['t'], ['control.cancel']);
    hub.peers.add(target);
    const cmd = command('t');
    expect(hub.dispatch(cmd, false)).toMatchObject({ ok: false, code: 'unauthorized' });
    expect(target.sent).toEqual([]);
    expect(hub.dispatch(cmd, true)).toEqual({ ok: true });
    expect(target.sent).toEqual([cmd.raw]);
    expect(hub.dispatch(command('nobody'), true)).toMatchObject({ ok: false, code: 'no-route' });
    hub.peers.add(peer(['t'], ['control.cancel']));
    expect(hub.dispatch(cmd, true)).toMatchObject({ ok: false, code: 'ambiguous' });
  });
});
