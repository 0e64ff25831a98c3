import { describe, expect, it } from 'vitest';
import { comparePositions, formatEventId, parseEventId, parseFrom } from './positions.js';

describe('positions', () => {
  it('orders by epoch, then seq', () => {
    expect(comparePositions({ epoch: 0, seq: 9 }, { epoch: 1, seq: 0 })).toBeLessThan(0);
    expect(comparePositions({ epoch: 1, seq: 2 }, { epoch: 1, seq: 1 })).toBeGreaterThan(0);
    expect(comparePositions({ epoch: 1, seq: 1 }, { epoch: 1, seq: 1 })).toBe(0);
  });

  it('parses from: all, positions with a default epoch, and keeps the earliest per session', () => {
    expect(parseFrom('all', 5)).toEqual({ kind: 'all' });
    expect(parseFrom([{ session: 'a', seq: 3 }, { session: 'b', epoch: 2, seq: 0 }, { session: 'a', epoch: 0, seq: 1 }], 5)).toEqual({
      kind: 'positions',
      points: [{ session: 'a', epoch: 0, seq: 1 }, { session: 'b', epoch: 2, seq: 0 }],
    });
    expect(parseFrom([], 5)).toEqual({ kind: 'positions', points: [] });
  });

  it.each([
    ['everything', 'invalid-filter', /from must be an array/],
    [{ session: 'a', seq: 1 }, 'invalid-filter', /from must be an array/],
    [[null], 'invalid-filter', /from\[0\] must be an object/],
    [[{ seq: 1 }], 'invalid-filter', /from\[0\]\.session/],
    [[{ session: 'a', epoch: -1, seq: 1 }], 'invalid-filter', /from\[0\]\.epoch/],
    [[{ session: 'a', seq: 1.5 }], 'invalid-filter', /from\[0\]\.seq/],
    [[{ session: 'a', seq: '1' }], 'invalid-filter', /from\[0\]\.seq/],
    [[1, 2, 3].map((seq) => ({ session: 'x', seq })), 'limit-exceeded', /3 positions; this relay replays at most 2 \(AEP_MAX_FROM\)/],
  ])('refuses from %j as %s', (from, code, detail) => {
    const r = parseFrom(from, 2);
    expect(r).toMatchObject({ code });
    expect((r as { detail: string }).detail).toMatch(detail);
  });

  it('formats and parses SSE ids, reading epoch and seq from the right', () => {
    expect(formatEventId('s_1', { epoch: 2, seq: 40 })).toBe('s_1:2:40');
    expect(parseEventId('a:b:c:2:40')).toEqual({ session: 'a:b:c', epoch: 2, seq: 40 });
    expect(formatEventId('line\nbreak', { epoch: 0, seq: 1 })).toBeUndefined();
    for (const bad of ['', 's', 's:1', ':1:2', 's:1:x', 's:-1:2']) expect(parseEventId(bad), bad).toBeUndefined();
  });
});
