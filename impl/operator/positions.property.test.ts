/**
 * `aep tail`'s resume core (positions.ts `Resume`, the state file) against streams from several
 * sources that share ids and session names, with redeliveries and restarts: every distinct
 * (source, id) the resume contract can reach is printed exactly once.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LEGACY, Resume, SeenIds, advance, clonePositions, covers, emptyPositions, parseState, renderState, toFrom } from './positions.js';
import { SOURCES, distinct, emit, key, relayReplay, repeated, script, type Ev } from './test-utils/identity-streams.js';

/** Runs tail's core over a script; returns what it printed and what it had to print. */
function runTail(steps: Parameters<typeof emit>[0]): { printed: Ev[]; must: Set<string> } {
  const events = emit(steps);
  const held: Ev[] = [];
  const printed: Ev[] = [];
  const unreachable = new Set<string>();
  let resume = new Resume(emptyPositions());
  const take = (e: Ev): void => {
    if (resume.admit(e)) printed.push(e);
  };
  events.forEach((e, i) => {
    const s = steps[i]!;
    if (s.restart) {
      // Stop (the state file is written), the event arrives meanwhile, start again from the file.
      const text = renderState(clonePositions(resume.positions), resume.recent());
      held.push(e);
      const saved = parseState(text);
      if (!saved.ok) throw new Error(saved.error);
      // The wire `from` names bare sessions: a source with no saved position in the session cannot be asked for.
      // An unpositioned event is held right after the session's high-water mark, which a resume may already be past.
      if (typeof e.seq !== 'number' || !Object.hasOwn(saved.positions, e.session) || !Object.hasOwn(saved.positions[e.session]!, e.source)) unreachable.add(key(e));
      resume = new Resume(saved.positions, new SeenIds(), saved.recent);
      const from = resume.from();
      for (const r of relayReplay(held, from.length > 0 ? from : 'all')) take(r);
    } else {
      held.push(e);
      take(e);
    }
    if (s.dup !== null && i - s.dup >= 0) take(events[i - s.dup]!);
  });
  return { printed, must: new Set([...distinct(events)].filter((k) => !unreachable.has(k))) };
}

describe('aep tail resume core: sources sharing ids and sessions', () => {
  it('prints every reachable (source, id) exactly once across redeliveries and restarts, unpositioned events too', () => {
    fc.assert(
      fc.property(script({ loose: true }), (steps) => {
        const { printed, must } = runTail(steps);
        expect(repeated(printed)).toEqual([]);
        const got = distinct(printed);
        expect([...must].filter((k) => !got.has(k))).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('a known case: two sources with the same ids in one session, the second behind the first at a restart', () => {
    const [a, b] = SOURCES;
    const ev = (source: string, id: string, seq: number): Ev => ({ id, source, session: 's', epoch: 1, seq });
    const m = emptyPositions();
    for (const e of [ev(a, 'e0', 0), ev(a, 'e1', 1), ev(a, 'e2', 2), ev(b, 'e0', 0)]) advance(m, e);
    // The relay is asked from the earliest of the two: B's e1 (seq 1) and A's overlap come back; only A's is dropped.
    expect(toFrom(m)).toEqual([{ session: 's', epoch: 1, seq: 0 }]);
    const saved = parseState(renderState(m));
    if (!saved.ok) throw new Error(saved.error);
    const r = new Resume(saved.positions);
    expect([ev(a, 'e1', 1), ev(b, 'e1', 1), ev(a, 'e2', 2), ev(a, 'e3', 3)].map((e) => r.admit(e))).toEqual([false, true, false, true]);
  });

  it('reads a version-1 state file: resumes from it, never drops by it, replaces it with the first sourced position', () => {
    const v1 = parseState('{"positions":{"s":{"epoch":1,"seq":4}}}');
    expect(v1.ok).toBe(true);
    if (!v1.ok) return;
    expect(v1.version).toBe(1);
    expect(toFrom(v1.positions)).toEqual([{ session: 's', epoch: 1, seq: 4 }]);
    const e = { id: 'e5', source: SOURCES[0], session: 's', epoch: 1, seq: 2 };
    expect(covers(v1.positions, e)).toBe(false);
    expect(new Resume(v1.positions).admit(e)).toBe(true);
    expect(Object.keys(v1.positions.s!)).toEqual([SOURCES[0]]);
    expect(LEGACY).toBe('');
    const v2 = parseState(renderState(v1.positions));
    expect(v2.ok && v2.version).toBe(2);
    expect(parseState('{"version":3,"positions":{}}')).toEqual({ ok: false, error: 'version 3 is not one this aep reads (1 or 2)' });
    expect(parseState('{"version":2,"positions":{"s":{"x":{"epoch":1}}}}')).toEqual({ ok: false, error: 'session "s" of source "x" has no integer epoch and seq' });
  });
});
