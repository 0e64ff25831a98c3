/** ULID edges a caller relies on: the error texts, long random sources, the same millisecond. */
import { describe, expect, it } from 'vitest';
import { isUlid, monotonicUlid, ulid, ulidTime } from './ulid.js';

describe('ulid edges', () => {
  it('says which timestamp or random source is wrong', () => {
    expect(() => ulid(-1)).toThrow('ulid: timestamp -1 is not an integer millisecond in [0, 2^48)');
    expect(() => ulid(2 ** 48)).toThrow(`ulid: timestamp ${2 ** 48} is not an integer millisecond in [0, 2^48)`);
    expect(() => ulid(0, () => new Uint8Array(9))).toThrow('ulid: random source returned 9 bytes, need 10');
    const full = monotonicUlid(() => new Uint8Array(10).fill(255));
    full(1);
    expect(() => full(1)).toThrow('ulid: random part overflowed within one millisecond');
  });

  it('the largest timestamp and zero are valid; a longer random source is cut to 10 bytes', () => {
    expect(ulid(2 ** 48 - 1, () => new Uint8Array(10))).toBe('7ZZZZZZZZZ0000000000000000');
    expect(ulid(0, () => Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 255, 255]))).toBe(ulid(0, () => Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])));
    expect(ulid(0, () => Uint8Array.from([0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0]))).toBe('0000000000ZW00000000000000');
  });

  it('monotonic: the same millisecond increments, a later one draws fresh bytes, and the random source is not mutated', () => {
    const source = Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    let calls = 0;
    const next = monotonicUlid(() => {
      calls++;
      return source;
    });
    expect(next(5)).toBe('00000000050000000000000000');
    expect(next(5)).toBe('00000000050000000000000001');
    expect(calls).toBe(1);
    expect([...source]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(next(6)).toBe('00000000060000000000000000');
    expect(calls).toBe(2);
    // the first call, at time 0, draws bytes too (no previous time)
    expect(monotonicUlid(() => new Uint8Array(10).fill(1))(0)).toBe(ulid(0, () => new Uint8Array(10).fill(1)));
  });

  it('monotonic: the carry reaches the first random byte before it overflows', () => {
    const next = monotonicUlid(() => Uint8Array.from([0, 255, 255, 255, 255, 255, 255, 255, 255, 255]));
    next(1);
    expect(next(1)).toBe(ulid(1, () => Uint8Array.from([1, 0, 0, 0, 0, 0, 0, 0, 0, 0])));
  });

  it('reads back every timestamp digit', () => {
    expect(ulidTime('7ZZZZZZZZZ0000000000000000')).toBe(2 ** 48 - 1);
    expect(ulidTime('00000000010000000000000000')).toBe(1);
    expect(ulidTime('00000000100000000000000000')).toBe(32);
    expect(isUlid('0000000000000000000000000')).toBe(false);
    expect(isUlid('000000000000000000000000000')).toBe(false);
    expect(isUlid(' 00000000000000000000000000')).toBe(false);
  });
});
