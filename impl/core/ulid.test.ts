import { describe, expect, it } from 'vitest';
import { isUlid, monotonicUlid, ulid, ulidTime } from './ulid.js';

const zeros = () => new Uint8Array(10);
const ones = () => new Uint8Array(10).fill(255);

describe('ulid', () => {
  it('encodes time and randomness in Crockford base32', () => {
    expect(ulid(0, zeros)).toBe('00000000000000000000000000');
    expect(ulid(2 ** 48 - 1, ones)).toBe('7ZZZZZZZZZZZZZZZZZZZZZZZZZ');
    // 1469918176385 ms is the ULID spec's own example timestamp, 01ARYZ6S41.
    expect(ulid(1469918176385, () => Uint8Array.from([0x80, 0, 0, 0, 0, 0, 0, 0, 0, 1]))).toBe('01ARYZ6S41G000000000000001');
  });
  it('round-trips the timestamp and validates shape', () => {
    const id = ulid(1_764_477_000_123);
    expect(id).toHaveLength(26);
    expect(isUlid(id)).toBe(true);
    expect(ulidTime(id)).toBe(1_764_477_000_123);
    expect(ulidTime('not-a-ulid')).toBeUndefined();
    for (const bad of ['8ZZZZZZZZZZZZZZZZZZZZZZZZZ', '01ARYZ6S41GOLD000000000000', '01aryz6s410000000000000000', 'OOOOOOOOOOOOOOOOOOOOOOOOOO', 42]) expect(isUlid(bad), String(bad)).toBe(false);
  });
  it('uses fresh crypto randomness by default', () => {
    expect(ulid(5)).not.toBe(ulid(5));
  });
  it('rejects bad timestamps and short random sources', () => {
    expect(() => ulid(-1)).toThrow(RangeError);
    expect(() => ulid(2 ** 48)).toThrow(RangeError);
    expect(() => ulid(1.5)).toThrow(RangeError);
    expect(() => ulid(0, () => new Uint8Array(3))).toThrow(/3 bytes/);
  });
});

describe('monotonicUlid', () => {
  it('increments within the same millisecond and after a clock step back', () => {
    const next = monotonicUlid(() => Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0xfe]));
    expect(next(1000)).toBe('00000000Z8000000000000007Y');
    expect(next(1000)).toBe('00000000Z8000000000000007Z');
    expect(next(999)).toBe('00000000Z80000000000000080'); // carries into the next byte
    expect(next(1001)).toBe('00000000Z9000000000000007Y');
  });
  it('stays sorted over many ids and throws on overflow', () => {
    const next = monotonicUlid();
    const ids = Array.from({ length: 200 }, () => next(42));
    expect([...ids].sort()).toEqual(ids);
    const full = monotonicUlid(ones);
    full(7);
    expect(() => full(7)).toThrow(/overflowed/);
  });
});
