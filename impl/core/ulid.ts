/**
 * ULIDs (https://github.com/ulid/spec): 26 Crockford base32 characters, a 48-bit
 * millisecond timestamp followed by 80 random bits. AEP recommends them as event ids
 * (AEP-0001 §5.1) but never requires them, so validators must not enforce this shape.
 */
import { getRandomValues } from 'node:crypto';

/** Crockford base32: digits and uppercase letters without I, L, O and U. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const MAX_TIME = 2 ** 48 - 1;
const RANDOM_BYTES = 10;

/** Supplies the 10 random bytes of one ULID. Injected in tests; defaults to node:crypto. */
export type RandomSource = () => Uint8Array;

/**
 * Bytes drawn from node:crypto per refill of the default source. One `getRandomValues` call costs
 * about 6 µs whatever its size (most of it the call, not the bytes), so drawing 10 bytes per id
 * made minting an id cost as much as mapping the hook it names; one call per 409 ids does not.
 * The bytes are as random as before: each is handed out once and the pool is refilled when spent.
 */
const POOL_BYTES = 4096;
let pool: Uint8Array = new Uint8Array(0);
let taken = 0;

/** The default source: the next 10 unused bytes of a pool filled from node:crypto. */
export const cryptoRandom: RandomSource = () => {
  if (taken + RANDOM_BYTES > pool.length) {
    pool = getRandomValues(new Uint8Array(POOL_BYTES)) as Uint8Array;
    taken = 0;
  }
  taken += RANDOM_BYTES;
  return pool.subarray(taken - RANDOM_BYTES, taken);
};

/**
 * Mint one ULID.
 * @param now milliseconds since the Unix epoch; default `Date.now()`. Must be an integer in [0, 2^48).
 * @param random source of 10 random bytes; default node:crypto `getRandomValues`.
 * @throws RangeError on a timestamp out of range or a random source returning fewer than 10 bytes.
 */
export function ulid(now: number = Date.now(), random: RandomSource = cryptoRandom): string {
  return encodeTime(now) + encodeRandom(takeBytes(random));
}

/**
 * A ULID factory that stays strictly increasing within one process: when called again in the
 * same millisecond (or after the clock stepped back), it reuses the previous timestamp and
 * increments the previous 80-bit random part by one, as the ULID spec's monotonic mode says.
 * @param random source of 10 random bytes; default node:crypto.
 * @returns a function taking an optional `now` (default `Date.now()`); it throws RangeError
 *   in the (practically unreachable) case of 2^80 ids within one millisecond.
 */
export function monotonicUlid(random: RandomSource = cryptoRandom): (now?: number) => string {
  let lastTime = -1;
  let lastRandom: Uint8Array = new Uint8Array(RANDOM_BYTES);
  return (now: number = Date.now()) => {
    if (now <= lastTime) {
      lastRandom = increment(lastRandom);
    } else {
      lastTime = now;
      lastRandom = takeBytes(random);
    }
    return encodeTime(lastTime) + encodeRandom(lastRandom);
  };
}

/** True when `s` is a canonical (uppercase) ULID whose timestamp fits 48 bits. */
export function isUlid(s: unknown): s is string {
  return typeof s === 'string' && /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(s);
}

/** The millisecond timestamp a ULID carries, or undefined when `s` is not a ULID. */
export function ulidTime(s: string): number | undefined {
  if (!isUlid(s)) return undefined;
  let t = 0;
  for (const ch of s.slice(0, 10)) t = t * 32 + ALPHABET.indexOf(ch);
  return t;
}

function encodeTime(now: number): string {
  if (!Number.isInteger(now) || now < 0 || now > MAX_TIME) {
    throw new RangeError(`ulid: timestamp ${now} is not an integer millisecond in [0, 2^48)`);
  }
  let out = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[t % 32]! + out;
    t = Math.floor(t / 32);
  }
  return out;
}

function encodeRandom(bytes: Uint8Array): string {
  // 80 bits = 16 groups of 5 bits, read most significant first.
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(acc >> bits) & 31];
    }
    acc &= (1 << bits) - 1;
  }
  return out;
}

function takeBytes(random: RandomSource): Uint8Array {
  const bytes = random();
  if (bytes.length < RANDOM_BYTES) throw new RangeError(`ulid: random source returned ${bytes.length} bytes, need ${RANDOM_BYTES}`);
  return bytes.slice(0, RANDOM_BYTES);
}

function increment(bytes: Uint8Array): Uint8Array {
  const next = bytes.slice();
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i]! < 255) {
      next[i]! += 1;
      return next;
    }
    next[i] = 0;
  }
  throw new RangeError('ulid: random part overflowed within one millisecond');
}
