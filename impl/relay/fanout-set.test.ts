/**
 * The grouped fan-out (`FanoutSet`, `Hub.publishAll`, `Subscription.deliverAll`, `SseWriter.liveAll`)
 * and the cut batches (`sse-bytes.ts`) hold to the reference bytes: every stream receives exactly
 * the concatenation of `sseEvent(event, renderAt(rec, ceiling))` over the events its filter
 * selects, whatever the mix of filters and ceilings, and a stream near its slow-consumer bound
 * ends exactly where the event-by-event path ends it.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { CaptureLevel } from '../core/event.js';
import { compileFilter } from '../core/filter.js';
import type { Received } from './buffer.js';
import { FanoutSet } from './fanout-set.js';
import { Hub } from './hub.js';
import { renderAt } from './render.js';
import { SseWriter } from './sse.js';
import { SSE_SLOW_CONSUMER, sseEvent } from './sse-format.js';

const SESSIONS = ['a', 'b', 'c', 'weird\nname'];

function rec(i: number, content = 'secret'): Received {
  const session = SESSIONS[i % SESSIONS.length]!;
  const event: Record<string, unknown> = { aep: '0.1', id: `f-${i}`, type: i % 7 === 3 ? 'progress.status' : 'tool.completed', time: '2026-11-30T06:00:00.000Z', source: `aep://h/agent/a/session/s`, agent: 'a', session, seq: i * 37, epoch: i % 5 === 4 ? 3 : 0, capture: 'full' };
  if (i % 11 === 5) delete event.seq;
  if (i % 13 === 6) delete event.session;
  event.data = event.type === 'tool.completed' ? { tool: { name: 'Edit', call_id: `c${i}` }, status: 'success', duration_ms: i, result: `${content} ${i}` } : { phase: 'working', message: `${content} ${i}` };
  const raw = JSON.stringify(event);
  return { event: JSON.parse(raw), raw } as Received;
}

/** A response stand-in that keeps every chunk written. */
function sink(writable = 0): ServerResponse & { chunks: Buffer[]; text(): string } {
  const res = {
    writableLength: writable,
    chunks: [] as Buffer[],
    write(chunk: string | Buffer): boolean {
      res.chunks.push(Buffer.isBuffer(chunk) ? Buffer.from(chunk) : Buffer.from(chunk, 'utf8'));
      return true;
    },
    text: () => Buffer.concat(res.chunks).toString('utf8'),
  };
  return res as unknown as ServerResponse & { chunks: Buffer[]; text(): string };
}

interface Stream {
  readonly filter: Record<string, unknown>;
  readonly ceiling: CaptureLevel | undefined;
  readonly res: ReturnType<typeof sink>;
}

function open(hub: Hub, filter: Record<string, unknown>, ceiling: CaptureLevel | undefined, slowBytes = 1 << 30, writable = 0): Stream {
  const res = sink(writable);
  hub.subscribe({ filter, match: compileFilter(filter), ceiling, replay: { kind: 'none' }, live: true, slowBytes }, new SseWriter(res, ceiling, () => {}));
  return { filter, ceiling, res };
}

const reference = (recs: readonly Received[], s: Stream): string =>
  recs.filter((r) => compileFilter(s.filter)(r.event)).map((r) => sseEvent(r.event, renderAt(r, s.ceiling))).join('');

const FILTERS: Array<Record<string, unknown>> = [{}, { session: 'a' }, { session: 'b' }, { session: ['a', 'c'] }, { session: 'weird\nname' }, { type: 'tool.*' }, { type: 'progress.status', session: 'a' }, { agent: 'a' }, { session: 'nobody' }];
const CEILINGS = [undefined, 'full', 'redacted', 'metadata', 'none'] as const;

describe('the grouped fan-out', () => {
  it('writes every stream exactly the reference bytes, one write per batch, for every mix of filters and ceilings', async () => {
    const hub = new Hub(1000, 100);
    const streams: Stream[] = [];
    // Each filter and ceiling twice, in an order that mixes groups.
    for (let k = 0; k < 2; k++) for (const ceiling of CEILINGS) for (const filter of FILTERS) streams.push(open(hub, { ...filter }, ceiling));
    await new Promise((r) => setImmediate(r));
    const all: Received[] = [];
    for (let b = 0; b < 4; b++) {
      const batch = Array.from({ length: 40 }, (_, i) => rec(b * 40 + i, b === 2 ? 'sécret ü' : 'secret'));
      const before = streams.map((s) => s.res.chunks.length);
      hub.publishAll(batch);
      all.push(...batch);
      streams.forEach((s, i) => expect(s.res.chunks.length - before[i]!).toBe(reference(batch, s) === '' ? 0 : 1));
    }
    for (const s of streams) expect([s.filter, s.ceiling, s.res.text()]).toEqual([s.filter, s.ceiling, reference(all, s)]);
  });

  it('ends a stream over its slow-consumer bound at the same event as the event-by-event path', async () => {
    const batch = Array.from({ length: 14 }, (_, i) => rec(i * 4)).filter((r) => r.event.session === 'a').slice(0, 12);
    const size = batch[0]!.raw.length;
    for (const queued of [0, 3, 5 * size, 11 * size - 1, 11 * size, 12 * size]) {
      const hub = new Hub(1000, 100);
      const slowBytes = 10 * size;
      const grouped = open(hub, { session: 'a' }, undefined, slowBytes, queued);
      const twin = open(hub, { session: 'a' }, undefined, slowBytes, queued);
      await new Promise((r) => setImmediate(r));
      hub.publishAll(batch);
      // The reference: before each event, what is queued plus the held events' characters against the bound.
      let held = 0;
      let taken = 0;
      for (const r of batch) {
        if (queued + held > slowBytes) break;
        held += r.raw.length;
        taken++;
      }
      const expected = batch.slice(0, taken).map((r) => sseEvent(r.event, r.raw)).join('') + (taken < batch.length ? SSE_SLOW_CONSUMER : '');
      expect([queued, grouped.res.text()]).toEqual([queued, expected]);
      expect(twin.res.text()).toBe(expected);
    }
  });
});

describe('FanoutSet', () => {
  it('groups subscriptions by the filter their matcher was compiled from, and a foreign matcher alone', () => {
    const set = new FanoutSet();
    const sub = (filter: Record<string, unknown>, match = compileFilter(filter)) => ({ match }) as never;
    const a1 = sub({ session: 'a' });
    const all = sub({});
    const a2 = sub({ session: 'a' });
    const foreign1 = sub({ session: 'a' }, () => true);
    const foreign2 = sub({ session: 'a' }, () => true);
    for (const s of [a1, all, a2, foreign1, foreign2]) set.add(s);
    expect(set.groups().map((g) => g.subs)).toEqual([[a1, a2], [all], [foreign1], [foreign2]]);
    const before = set.groups();
    set.delete(a1);
    expect(before[0]!.subs).toEqual([a1, a2]); // a fan-out holding the groups keeps them
    expect(set.groups().map((g) => g.subs)).toEqual([[all], [a2], [foreign1], [foreign2]]);
    expect(set.size).toBe(4);
  });
});
