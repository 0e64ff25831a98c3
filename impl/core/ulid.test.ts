import { describe, expect, it } from 'vitest';
import { cryptoRandom, isUlid, monotonicUlid, ulid, ulidTime } from './ulid.js';

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
  it('hands out each pooled random byte once, across refills of the pool', () => {
    // 2,000 draws of 10 bytes cross the 4,096-byte pool's refill four times.
    const draws = Array.from({ length: 2_000 }, () => cryptoRandom());
    for (const d of draws) expect(d).toHaveLength(10);
    expect(new Set(draws.map((d) => Buffer.from(d).toString('hex'))).size).toBe(2_000);
    const ids = Array.from({ length: 2_000 }, () => ulid(5));
    expect(new Set(ids).size).toBe(2_000);
    // The monotonic factory keeps its own copy of the last random part: draws from the pool in
    // between do not change what it increments.
    let next = monotonicUlid();
    let a = next(9);
    // (A last character Z would carry into the one before it; draw again, so the expected id is simple.)
    while (a.endsWith('Z')) a = (next = monotonicUlid())(9);
    for (let i = 0; i < 1_000; i++) cryptoRandom();
    expect(next(9)).toBe(a.slice(0, 25) + '0123456789ABCDEFGHJKMNPQRSTVWXYZ'['0123456789ABCDEFGHJKMNPQRSTVWXYZ'.indexOf(a[25]!) + 1]);
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
