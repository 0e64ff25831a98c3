/**
 * `aep timeline`'s core (order, causalTree) over one session name that several sources share,
 * with the same ids minted by each and every event delivered more than once: each (source, id)
 * appears once, each source's events keep their (epoch, seq) order, and every cause resolves to
 * the event of the cause's own source.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { causalTree, order, type TreeNode } from './timeline.js';
import { SOURCES, distinct, emit, key, repeated, script, type Ev } from './test-utils/identity-streams.js';

/** child key → parent key, read off the tree. */
function parents(roots: TreeNode[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (n: TreeNode): void => {
    for (const c of n.children) {
      out.set(key(c.event), key(n.event));
      walk(c);
    }
  };
  for (const r of (roots as { all?: TreeNode[] }).all ?? roots) walk(r);
  return out;
}

describe('aep timeline core: sources sharing ids and a session name', () => {
  it('keeps each (source, id) once, each source in its own order, and hangs each event under its own source\'s cause', () => {
    fc.assert(
      fc.property(script({ loose: true, restart: false }), fc.array(fc.nat(), { maxLength: 20 }), (steps, shuffle) => {
        const events: Ev[] = emit(steps).map((e) => ({ ...e, session: 'shared' }));
        // Delivered shuffled, with copies.
        const input: Ev[] = [...events, ...events.filter((_, i) => i % 3 === 0)];
        for (const [i, n] of shuffle.entries()) {
          const a = i % input.length;
          const b = n % input.length;
          [input[a], input[b]] = [input[b]!, input[a]!];
        }
        const ordered = order(input) as Ev[];
        expect(repeated(ordered)).toEqual([]);
        expect(distinct(ordered)).toEqual(distinct(events));
        for (const source of SOURCES) {
          const mine = ordered.filter((e) => e.source === source && typeof e.seq === 'number').map((e) => [e.epoch as number, e.seq as number]);
          expect(mine).toEqual([...mine].sort((x, y) => x[0]! - y[0]! || x[1]! - y[1]!));
        }
        const up = parents(causalTree(ordered));
        for (const e of events) {
          if (typeof e.cause !== 'string') continue;
          expect(up.get(key(e)), `${key(e)} caused by ${e.cause}`).toBe(`${e.source} ${e.cause}`);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('an ack still hangs under the command another source sent', () => {
    const cmd = { id: 'c1', source: 'aep://operator', type: 'control.cancel', session: 's', time: '2026-01-01T00:00:01Z' };
    const ack = { id: 'a1', source: SOURCES[0], type: 'control.accepted', session: 's', epoch: 1, seq: 1, cause: 'c1', time: '2026-01-01T00:00:02Z' };
    expect(parents(causalTree(order([ack, cmd]))).get(key(ack))).toBe(key(cmd));
  });
});
