/**
 * Audit of AEP-0003 §9.3 digests and the canonical JSON they hash (RFC 8785 shape, our stated
 * reading of "canonical JSON"), plus the ULID ids AEP-0001 §5.1 recommends.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical.js';
import { argsDigest, digest, queryDigest, resultDigest, textDigest } from './digest.js';
import { isUlid, ulid, ulidTime } from './ulid.js';

const sha16 = (bytes: string): string => createHash('sha256').update(Buffer.from(bytes, 'utf8')).digest('hex').slice(0, 32);

describe('canonical JSON (RFC 8785 shape)', () => {
  it('sorts keys recursively by UTF-16 code units and drops whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 0, y: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":1,"z":0}]},"b":1}');
    // U+FFFF sorts after U+1F600 by code units (0xD83D < 0xFFFF), unlike code-point order.
    expect(canonicalJson({ '\uffff': 1, '\u{1f600}': 2, Z: 3, a: 4, é: 5 })).toBe('{"Z":3,"a":4,"é":5,"😀":2,"\uffff":1}');
  });
  it('formats numbers as ECMAScript does', () => {
    expect(canonicalJson([1e21, 1e-7, 0.1 + 0.2, -0, 100, 1.5e300])).toBe('[1e+21,1e-7,0.30000000000000004,0,100,1.5e+300]');
  });
  it('escapes strings minimally', () => {
    expect(canonicalJson('a"b\\c\n\u0001é/')).toBe('"a\\"b\\\\c\\n\\u0001é/"');
  });
});

describe('§9.3 digests: SHA-256 over canonical JSON, first 16 bytes, lowercase hex', () => {
  it('a string hashes as its quoted JSON form', () => {
    expect(digest('git status')).toBe(sha16('"git status"'));
    expect(textDigest('git status')).toBe(digest('git status'));
  });
  it('objects hash by canonical form, so member order does not matter', () => {
    expect(argsDigest({ path: 'src', recursive: true })).toBe(sha16('{"path":"src","recursive":true}'));
    expect(argsDigest({ recursive: true, path: 'src' })).toBe(argsDigest({ path: 'src', recursive: true }));
  });
  it('is 32 lowercase hex characters and type-sensitive', () => {
    expect(resultDigest({ ok: 1 })).toMatch(/^[0-9a-f]{32}$/);
    expect(queryDigest('1')).not.toBe(queryDigest(1));
  });
  it('hashes the original content: a redacted copy digests differently', () => {
    expect(digest('token=abc123')).not.toBe(digest('token=[REDACTED:secret]'));
  });
});

describe('ULIDs', () => {
  it('encode the millisecond timestamp in the first 10 characters and round-trip it', () => {
    const id = ulid(1_783_073_704_221, () => new Uint8Array(10)); // expected value computed independently (Python base32)
    expect(id).toBe('01KWKQK28X0000000000000000');
    expect(isUlid(id)).toBe(true);
    expect(ulidTime(id)).toBe(1_783_073_704_221);
  });
  it('sort lexically by time', () => {
    const a = ulid(1_000, () => new Uint8Array(10).fill(255));
    const b = ulid(1_001, () => new Uint8Array(10));
    expect(a < b).toBe(true);
  });
  it('reject non-canonical shapes', () => {
    for (const s of ['01kwkqk28x0000000000000000', '81KWKQK28X0000000000000000', '01KWKQK28X000000000000000', '01KWKQK28X000000000000000I']) expect(isUlid(s), s).toBe(false);
  });
});
