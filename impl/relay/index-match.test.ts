/**
 * A replay filtered on the index keys (session, agent, type, id) matches on the held record's own
 * fields and parses no event; every other filter reads the event. Both select the same events.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AepEvent } from '../core/event.js';
import { INDEX_KEYS, onIndex, type Received } from './buffer.js';
import { Hub } from './hub.js';

const TYPES = ['tool.completed', 'tool.started', 'progress.status', 'attention.requested'];
function rec(i: number): Received {
  const event = {
    aep: '0.1', id: `ix-${i}`, type: TYPES[i % TYPES.length]!, time: '2026-11-30T05:20:00Z', source: `aep://ix/${i % 3}`,
    agent: i % 5 === 0 ? 'b' : 'a', session: `s${i % 2}`, seq: i, epoch: 0, ...(i % 7 === 0 ? { severity: 'warning' } : {}),
  } as AepEvent;
  return { event, raw: JSON.stringify(event) };
}

const FILTERS: Array<Record<string, unknown>> = [
  {}, { session: 's1' }, { agent: 'b' }, { type: 'tool.*' }, { type: ['progress.status', 'attention.*'], agent: 'a' },
  { id: ['ix-3', 'ix-4', 'ix-99'] }, { session: 's0', type: 'tool.completed' }, { agent: 'nobody' }, { type: 'tool' },
  { severity: 'warning' }, { source: 'aep://ix/1', type: 'tool.*' }, { capture: 'metadata' },
];

afterEach(() => vi.restoreAllMocks());

describe('replay filtering on the held index', () => {
  it('names the index keys, and only those make a filter index-only', () => {
    expect(INDEX_KEYS).toEqual(['session', 'agent', 'type', 'id']);
    expect(onIndex({})).toBe(true);
    expect(onIndex({ session: 's', agent: 'a', type: 'x.*', id: 'i' })).toBe(true);
    for (const key of ['severity', 'source', 'capture', 'epoch', 'raw', 'seq', 'parsed']) expect(onIndex({ type: 't', [key]: 'x' })).toBe(false);
  });

  it('selects exactly what the event-reading path selects, for replay-all and resume alike', () => {
    const hub = new Hub(100, 10);
    hub.publishAll(Array.from({ length: 60 }, (_, i) => rec(i)));
    for (const filter of FILTERS) {
      const ids = (indexOnly: boolean, request: Parameters<Hub['plan']>[0]): string[] => hub.plan(request, filter, indexOnly).events.map((h) => h.event.id);
      for (const request of [{ kind: 'all' } as const, { kind: 'positions', points: [{ session: 's1', epoch: 0, seq: 9 }, { session: 's0', epoch: 0, seq: 40 }] } as const]) {
        const byEvent = ids(false, request);
        if (onIndex(filter)) expect(ids(true, request), JSON.stringify(filter)).toEqual(byEvent);
        expect(ids(onIndex(filter), request)).toEqual(byEvent);
      }
    }
    // The planted selections are not empty or whole by accident.
    expect(hub.plan({ kind: 'all' }, { agent: 'b' }).events).toHaveLength(12);
    expect(hub.plan({ kind: 'all' }, { type: 'tool.*', session: 's1' }).events.map((h) => h.event.id)).toEqual(Array.from({ length: 60 }, (_, i) => i).filter((i) => i % 2 === 1 && i % 4 < 2).map((i) => `ix-${i}`));
  });

  it('parses no held event for an index-only filter, and parses them for any other', () => {
    const hub = new Hub(100, 10);
    hub.publishAll(Array.from({ length: 40 }, (_, i) => rec(i)));
    const parse = vi.spyOn(JSON, 'parse');
    expect(hub.plan({ kind: 'all' }, { agent: 'a', type: ['tool.*', 'progress.status'] }).events.length).toBeGreaterThan(0);
    expect(parse).not.toHaveBeenCalled();
    expect(hub.plan({ kind: 'all' }, { severity: 'warning' }).events.length).toBeGreaterThan(0);
    expect(parse).toHaveBeenCalled();
  });
});
