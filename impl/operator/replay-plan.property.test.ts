/**
 * `aep replay`'s plan over a capture where several sources share ids and session names, each
 * event recorded more than once: every recorded (source, id) is replayed exactly once, in a new
 * session per recorded (source, session), in that pair's recorded order, and every cause points
 * at the replayed copy of the same source's event.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planReplay } from './replay-plan.js';
import { distinct, emit, key, script, type Ev } from './test-utils/identity-streams.js';

describe('aep replay plan: sources sharing ids and sessions', () => {
  it('replays each (source, id) once, one new session per (source, session), causes within the source', () => {
    fc.assert(
      fc.property(script({ loose: true, restart: false }), fc.nat(), (steps, rot) => {
        const events = emit(steps);
        // The capture holds each event, then copies of some, rotated so copies may come first.
        const capture: Ev[] = [...events, ...events.filter((_, i) => i % 2 === 0)];
        const cut = rot % capture.length;
        const input = [...capture.slice(cut), ...capture.slice(0, cut)];
        let n = 0;
        const plan = planReplay(input, { newId: () => `n${n++}`, now: 0, epoch: 7, source: 'aep://replayer' });
        const out = plan.events.map((p) => p.event);
        const recorded = out.map((e) => `${(events.find((x) => x.id === e.aepreplayid && plan.groups.some((g) => g.replay === e.session && g.source === x.source && g.session === x.session)) ?? { source: '?' }).source} ${String(e.aepreplayid)}`);
        expect(new Set(recorded).size).toBe(out.length);
        expect(new Set(recorded)).toEqual(distinct(events));
        expect(plan.duplicates).toBe(capture.length - events.length);
        expect(new Set(plan.groups.map((g) => `${g.source} ${g.session}`))).toEqual(new Set(events.map((e) => `${e.source} ${e.session}`)));
        const copy = new Map(out.map((e, i) => [recorded[i]!, e]));
        for (const e of events) {
          const mine = copy.get(key(e))!;
          const group = plan.groups.find((g) => g.replay === mine.session)!;
          expect([group.source, group.session]).toEqual([e.source, e.session]);
          if (typeof e.cause === 'string' && events.some((x) => x.source === e.source && x.session === e.session && x.id === e.cause)) {
            expect(mine.cause).toBe(copy.get(`${e.source} ${e.cause}`)!.id);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
