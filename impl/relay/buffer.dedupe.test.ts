/**
 * Admission dedupe on `(source, id)` does one lookup per event now. Against a plain model
 * (per session, a FIFO of held pairs, since these streams arrive in position order), on
 * generated streams where ids repeat within and across sources and sessions, with eviction.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../core/event.js';
import { ReplayBuffer } from './buffer.js';

describe('ReplayBuffer dedupe', () => {
  it('agrees with a FIFO model of held (source, id) pairs', () => {
    const step = fc.record({ session: fc.constantFrom('s1', 's2', undefined), source: fc.constantFrom('src-a', 'src-b', 'src-c'), id: fc.constantFrom('e1', 'e2', 'e3', 'e4', 'e5'), positioned: fc.boolean() });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), fc.integer({ min: 1, max: 6 }), (steps, perSession) => {
        const buffer = new ReplayBuffer(perSession, 10);
        const model = new Map<string, string[]>();
        let seq = 0;
        for (const s of steps) {
          const event = { aep: '0.1', id: s.id, type: 'progress.status', time: 't', source: s.source, agent: 'a', ...(s.session === undefined ? {} : { session: s.session }), ...(s.positioned ? { seq: seq++ } : {}) } as AepEvent;
          const got = buffer.admit({ event, raw: JSON.stringify(event) }).buffered;
          let want = false;
          if (s.session !== undefined) {
            const held = model.get(s.session) ?? [];
            model.set(s.session, held);
            const pair = `${s.source} ${s.id}`;
            if (!held.includes(pair)) {
              want = true;
              held.push(pair);
              if (held.length > perSession) held.shift();
            }
          }
          expect(got).toBe(want);
        }
        let events = 0;
        for (const held of model.values()) events += held.length;
        expect(buffer.stats().events).toBe(events);
      }),
      { numRuns: 1500 },
    );
  });
});
