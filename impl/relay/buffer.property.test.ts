/**
 * The bytes-first `ReplayBuffer` against the buffer it replaced (`test-utils/buffer-reference.ts`, which
 * holds every parsed event), driven side by side over random streams: several sessions and
 * sources, ids shared across sources and sessions, exact duplicates, seq-less events, positions
 * out of order and across epochs, evictions by `perSession` and by `maxSessions`, and restarts
 * (both replaced by fresh buffers, then resumed from positions the old ones handed out).
 *
 * After every step both must agree on: what was admitted, every replay (same events, same bytes,
 * same order, same index), the `replay-exhausted` position and the unanchored answer, replay-all,
 * `has` and the counts.
 *
 * The columnar layout (`held-columns.ts`) is driven through its corners: runs that `store` and
 * `settle` at random points (the hub's path: several events per text chunk, chunks evicted before
 * they are sealed) and runs that `admit` and never settle (chunks sealed by size or by a read); ids its text does not spell verbatim (escapes) or spells elsewhere
 * first; non-ASCII text; seqs past 32 bits (the seq column widens).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../core/event.js';
import { MATERIALIZED, ReplayBuffer, type Held, type Received, type Replay } from './buffer.js';
import { ReferenceReplayBuffer } from './test-utils/buffer-reference.js';
import type { ResumePoint } from './positions.js';

const SESSIONS = ['s1', 's2', 's3', 's4', 's5'] as const;
const SOURCES = ['aep://h/agent/a/session/x', 'aep://h/agent/b', 'src-c'] as const;
const IDS = ['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8', 'e\n9', 'é10', 'a', 'e"11'] as const;
const TYPES = ['progress.status', 'tool.completed', 'control.cancel', 'agent.heartbeat'] as const;

type Step =
  | { readonly kind: 'admit'; readonly session: string | undefined; readonly source: string; readonly id: string; readonly type: string; readonly seq: number | undefined; readonly epoch: number; readonly text: string; readonly over: boolean | undefined; readonly spaced: boolean }
  | { readonly kind: 'again'; readonly back: number }
  | { readonly kind: 'replay'; readonly point: ResumePoint }
  | { readonly kind: 'all' }
  | { readonly kind: 'restart' }
  | { readonly kind: 'settle' };

const admit = fc.record({
  kind: fc.constant('admit' as const),
  session: fc.option(fc.constantFrom(...SESSIONS), { nil: undefined, freq: 8 }),
  source: fc.constantFrom(...SOURCES),
  id: fc.constantFrom(...IDS),
  type: fc.constantFrom(...TYPES),
  seq: fc.option(fc.oneof({ arbitrary: fc.integer({ min: 0, max: 12 }), weight: 12 }, { arbitrary: fc.constantFrom(2 ** 31, 2 ** 40 + 1), weight: 1 }), { nil: undefined, freq: 6 }),
  epoch: fc.constantFrom(0, 0, 0, 1),
  // Content whose bytes differ from its characters (multi-byte UTF-8, escapes, astral code points).
  text: fc.string({ unit: 'binary', maxLength: 12 }),
  over: fc.option(fc.boolean(), { nil: undefined, freq: 3 }),
  spaced: fc.boolean(),
});
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: admit, weight: 12 },
  { arbitrary: fc.record({ kind: fc.constant('again' as const), back: fc.nat(20) }), weight: 2 },
  {
    arbitrary: fc.record({ kind: fc.constant('replay' as const), point: fc.record({ session: fc.constantFrom(...SESSIONS), epoch: fc.constantFrom(0, 0, 1), seq: fc.oneof({ arbitrary: fc.integer({ min: 0, max: 13 }), weight: 8 }, { arbitrary: fc.constantFrom(2 ** 31 - 1, 2 ** 31, 2 ** 40, 2 ** 40 + 1), weight: 1 }) }) }),
    weight: 4,
  },
  { arbitrary: fc.constant({ kind: 'all' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'restart' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'settle' as const }), weight: 2 },
);

/** The record a step offers: its raw text is what a relay would hold (spacing kept as sent). */
function record(s: Extract<Step, { kind: 'admit' }>): Received {
  const event = {
    aep: '0.1',
    id: s.id,
    type: s.type,
    time: '2026-12-02T04:00:00.000Z',
    source: s.source,
    agent: 'a',
    ...(s.session === undefined ? {} : { session: s.session }),
    ...(s.seq === undefined ? {} : { seq: s.seq }),
    epoch: s.epoch,
    data: { message: s.text },
  } as AepEvent;
  const raw = s.spaced ? JSON.stringify(event, null, 1).replace(/\n/g, '') : JSON.stringify(event);
  return s.over === undefined ? { event, raw } : { event, raw, overDeclared: s.over };
}

/** Everything a consumer can observe of a held event. */
const view = (h: Held): unknown => ({ event: h.event, raw: h.raw, overDeclared: h.overDeclared, session: h.session, pos: h.pos, positioned: h.positioned, ord: h.ord });
const replayView = (r: Replay): unknown => ({ events: r.events.map(view), exhausted: r.exhausted, unanchored: r.unanchored });

describe('ReplayBuffer (bytes first) against the reference buffer', () => {
  it('admits, replays and marks exhaustion exactly as the reference does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 4 }), fc.array(step, { minLength: 1, maxLength: 80 }), fc.boolean(), (perSession, maxSessions, steps, batched) => {
        let ours = new ReplayBuffer(perSession, maxSessions);
        let ref = new ReferenceReplayBuffer(perSession, maxSessions);
        const sent: Received[] = [];
        const offer = (rec: Received): void => {
          // Batched: the hub's path (`store`, then `settle` at the end of a batch).
          const stored = batched ? ours.store(rec) : undefined;
          const got = batched ? { buffered: stored !== undefined, held: stored } : ours.admit(rec);
          const want = ref.admit(rec);
          expect(got.buffered).toBe(want.buffered);
          expect(got.held && view(got.held)).toEqual(want.held && view(want.held));
          // Byte identity, not just equal values: the held text is the text received.
          if (got.held) expect(got.held.raw).toBe(rec.raw);
        };
        for (const s of steps) {
          if (s.kind === 'admit') {
            const rec = record(s);
            sent.push(rec);
            offer(rec);
          } else if (s.kind === 'again') {
            // An exact duplicate (or a retry of an evicted event): same record offered again.
            if (sent.length > 0) offer(sent[Math.max(0, sent.length - 1 - (s.back % sent.length))]!);
          } else if (s.kind === 'replay') {
            expect(replayView(ours.replay(s.point))).toEqual(replayView(ref.replay(s.point)));
          } else if (s.kind === 'settle') {
            ours.settle();
          } else if (s.kind === 'all') {
            expect(ours.replayAll().map(view)).toEqual(ref.replayAll().map(view));
          } else {
            // A restart: both come back empty; later resumes use positions the old ones served.
            ours = new ReplayBuffer(perSession, maxSessions);
            ref = new ReferenceReplayBuffer(perSession, maxSessions);
          }
          expect(ours.stats()).toEqual(ref.stats());
        }
        for (const rec of sent) expect(ours.has(rec.event)).toBe(ref.has(rec.event));
        const raws = (list: readonly Held[]): string[] => list.map((h) => h.raw);
        expect(raws(ours.replayAll())).toEqual(raws(ref.replayAll()));
        for (const session of SESSIONS) expect(replayView(ours.replay({ session, epoch: 0, seq: 0 }))).toEqual(replayView(ref.replay({ session, epoch: 0, seq: 0 })));
      }),
      { numRuns: 600 },
    );
  });

  it('keeps at most MATERIALIZED parses: a whole default session (10 000 events) fits', () => {
    expect(MATERIALIZED).toBeGreaterThanOrEqual(10_000);
    const ours = new ReplayBuffer(MATERIALIZED + 1, 1);
    const held: Held[] = [];
    for (let seq = 0; seq <= MATERIALIZED; seq++) {
      const event = { aep: '0.1', id: `m${seq}`, type: 'progress.status', time: 't', source: 'src', agent: 'a', session: 'm', seq, epoch: 0 } as AepEvent;
      held.push(ours.admit({ event, raw: JSON.stringify(event) }).held!);
    }
    const first = held[0]!.event;
    for (const h of held.slice(1, MATERIALIZED)) void h.event;
    expect(held[0]!.event).toBe(first);
    void held[MATERIALIZED]!.event; // one more than the memo holds: the oldest parse goes
    expect(held[0]!.event).not.toBe(first);
    expect(held[0]!.event).toEqual(first);
  });

  it('holds no parsed event: a held record re-parses its own text', () => {
    const ours = new ReplayBuffer(4, 2);
    const event = { aep: '0.1', id: 'x1', type: 'progress.status', time: 't', source: 'src', agent: 'a', session: 's', seq: 1, epoch: 0 } as AepEvent;
    const raw = JSON.stringify(event);
    const { held } = ours.admit({ event, raw });
    expect(held).toBeDefined();
    expect(Object.values(held!)).not.toContain(event);
    expect(held!.event).not.toBe(event);
    expect(held!.event).toEqual(event);
    expect(held!.raw).toBe(raw);
    // A replay reads an event several times (filter, framing, rendering): one parse serves them.
    expect(held!.event).toBe(held!.event);
  });
});
