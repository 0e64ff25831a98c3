/**
 * Resume positions as a consumer meets them (AEP-0003 §7): the exact refusal text for a bad
 * `from`, the `AEP_MAX_FROM` bound at its edge, and the SSE ids a reconnect sends back.
 */
import { describe, expect, it } from 'vitest';
import { comparePositions, formatEventId, isFromProblem, parseEventId, parseFrom } from './positions.js';

describe('comparePositions', () => {
  it('the epoch decides before the seq, in both directions', () => {
    expect(comparePositions({ epoch: 2, seq: 0 }, { epoch: 1, seq: 50 })).toBeGreaterThan(0);
    expect(comparePositions({ epoch: 1, seq: 50 }, { epoch: 2, seq: 0 })).toBeLessThan(0);
    expect(comparePositions({ epoch: 3, seq: 4 }, { epoch: 3, seq: 9 })).toBeLessThan(0);
  });
});

describe('parseFrom', () => {
  it('accepts exactly AEP_MAX_FROM positions, and refuses one more', () => {
    const three = [1, 2, 3].map((seq) => ({ session: `s${seq}`, seq }));
    expect(parseFrom(three, 3)).toMatchObject({ kind: 'positions' });
    expect(parseFrom(three, 2)).toEqual({ code: 'limit-exceeded', detail: 'from carries 3 positions; this relay replays at most 2 (AEP_MAX_FROM)' });
  });

  it('seq 0 and epoch 0 are valid positions (the start of a session)', () => {
    expect(parseFrom([{ session: 'a', epoch: 0, seq: 0 }], 5)).toEqual({ kind: 'positions', points: [{ session: 'a', epoch: 0, seq: 0 }] });
  });

  it('of several positions for one session, the earliest wins whatever their order', () => {
    const points = (from: unknown[]) => (parseFrom(from, 9) as unknown as { points: unknown[] }).points;
    expect(points([{ session: 'a', epoch: 1, seq: 0 }, { session: 'a', epoch: 0, seq: 7 }])).toEqual([{ session: 'a', epoch: 0, seq: 7 }]);
    expect(points([{ session: 'a', epoch: 0, seq: 7 }, { session: 'a', epoch: 1, seq: 0 }])).toEqual([{ session: 'a', epoch: 0, seq: 7 }]);
    expect(points([{ session: 'a', seq: 5 }, { session: 'a', seq: 5 }])).toEqual([{ session: 'a', epoch: 0, seq: 5 }]);
  });

  it.each([
    ['a string', 'everything', 'from must be an array of {session, epoch, seq} positions or the string "all", got "everything"'],
    ['null', null, 'from must be an array of {session, epoch, seq} positions or the string "all", got null'],
    ['an object', { all: true }, 'from must be an array of {session, epoch, seq} positions or the string "all", got an object'],
    ['nothing', undefined, 'from must be an array of {session, epoch, seq} positions or the string "all", got undefined'],
    ['a number', 7, 'from must be an array of {session, epoch, seq} positions or the string "all", got 7'],
    ['ALL', 'ALL', 'from must be an array of {session, epoch, seq} positions or the string "all", got "ALL"'],
  ])('refuses from as %s, saying what it got', (_what, from, detail) => {
    expect(parseFrom(from, 5)).toEqual({ code: 'invalid-filter', detail });
  });

  it.each([
    [[[1]], 'from[0] must be an object {session, epoch, seq}, got an array'],
    [[{ session: 'a', seq: 1 }, 'x'], 'from[1] must be an object {session, epoch, seq}, got "x"'],
    [[{ session: '', seq: 1 }], 'from[0].session must be a non-empty string'],
    [[{ session: 5, seq: 1 }], 'from[0].session must be a non-empty string'],
    [[{ session: 'a', epoch: 1.5, seq: 1 }], 'from[0].epoch must be a non-negative integer, got 1.5'],
    [[{ session: 'a', epoch: -1, seq: 1 }], 'from[0].epoch must be a non-negative integer, got -1'],
    [[{ session: 'a', epoch: '1', seq: 1 }], 'from[0].epoch must be a non-negative integer, got "1"'],
    [[{ session: 'a', epoch: 2 ** 53, seq: 1 }], 'from[0].epoch must be a non-negative integer, got 9007199254740992'],
    [[{ session: 'a' }], 'from[0].seq must be a non-negative integer, got undefined'],
    [[{ session: 'a', seq: -1 }], 'from[0].seq must be a non-negative integer, got -1'],
    [[{ session: 'a', seq: { n: 1 } }], 'from[0].seq must be a non-negative integer, got an object'],
    [[{ session: 'a', seq: 'x'.repeat(60) }], `from[0].seq must be a non-negative integer, got "${'x'.repeat(39)}...`],
    [[{ session: 'a', seq: 'x'.repeat(38) }], `from[0].seq must be a non-negative integer, got "${'x'.repeat(38)}"`],
  ])('refuses %j with the entry named', (from, detail) => {
    expect(parseFrom(from, 5)).toEqual({ code: 'invalid-filter', detail });
  });

  it('isFromProblem tells a refusal from a replay request', () => {
    expect(isFromProblem(parseFrom('all', 1))).toBe(false);
    expect(isFromProblem(parseFrom([], 1))).toBe(false);
    expect(isFromProblem(parseFrom('x', 1))).toBe(true);
  });
});

describe('SSE ids', () => {
  it('a session with CR, LF or NUL gets no id; others do, colons included', () => {
    for (const s of ['a\rb', 'a\nb', 'a\0b']) expect(formatEventId(s, { epoch: 0, seq: 1 }), JSON.stringify(s)).toBeUndefined();
    expect(formatEventId('a:b', { epoch: 3, seq: 0 })).toBe('a:b:3:0');
  });

  it('parses multi-digit positions and round-trips what it formats', () => {
    expect(parseEventId('sess:12:345')).toEqual({ session: 'sess', epoch: 12, seq: 345 });
    const id = formatEventId('x:y', { epoch: 7, seq: 81 })!;
    expect(parseEventId(id)).toEqual({ session: 'x:y', epoch: 7, seq: 81 });
  });

  it('refuses trailing or leading junk and unsafe numbers', () => {
    for (const bad of ['s:1:2x', 's:1:2\n', 's:1x:2', 's:99999999999999999999:1', 's:1:99999999999999999999']) expect(parseEventId(bad), JSON.stringify(bad)).toBeUndefined();
  });
});
