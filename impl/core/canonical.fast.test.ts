/**
 * `canonicalJson` takes a recursive fast path for plain JSON data and leaves everything else to
 * its iterative reference walk. Both must produce exactly the bytes of an independent oracle
 * (keys sorted by UTF-16 code units, `JSON.stringify` scalars), and every value the fast path
 * declines must still come out right (toJSON, BigInt and cycle errors, deep nesting).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical.js';

/** Independent oracle for JSON data (no toJSON, no BigInt, no cycles). */
function oracle(v: unknown): string | undefined {
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return undefined;
  if (typeof v === 'number') return Number.isFinite(v) ? JSON.stringify(v) : 'null';
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map((i) => oracle(i) ?? 'null').join(',')}]`;
  const keys = Object.keys(v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const parts: string[] = [];
  for (const k of keys) {
    const t = oracle((v as Record<string, unknown>)[k]);
    if (t !== undefined) parts.push(`${JSON.stringify(k)}:${t}`);
  }
  return `{${parts.join(',')}}`;
}

const key = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('__proto__', '10', '9', '0', 'é', 'Z', 'z', '\u{1F600}', '\uFFFF', '\uD800', '"', '\\'));
const json: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constantFrom(-0, NaN, Infinity, 1e21, undefined)),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.array(fc.tuple(key, tie('v')), { maxLength: 4 }).map((members) => {
      const o: Record<string, unknown> = {};
      for (const [k, v] of members) Object.defineProperty(o, k, { value: v, enumerable: true, configurable: true, writable: true });
      return o;
    }),
  ),
})).v;

describe('canonicalJson fast path', () => {
  it('matches the oracle byte for byte on generated JSON data', () => {
    fc.assert(
      fc.property(json, (v) => {
        const expected = oracle(v);
        if (expected === undefined) expect(() => canonicalJson(v)).toThrow(TypeError);
        else expect(canonicalJson(v)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('matches the oracle on parsed JSON text, the relay and validator input', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const v: unknown = JSON.parse(text);
        expect(canonicalJson(v)).toBe(oracle(v));
      }),
      { numRuns: 2000 },
    );
  });

  it('hands toJSON anywhere in the value to the reference walk, called once', () => {
    let calls = 0;
    const inner = { toJSON: () => (calls++, { y: 2, x: [1, new Date(0)] }) };
    expect(canonicalJson({ b: 1, a: { deep: [inner] } })).toBe('{"a":{"deep":[{"x":[1,"1970-01-01T00:00:00.000Z"],"y":2}]},"b":1}');
    expect(calls).toBe(1);
  });

  it('still names the path of a BigInt or a cycle found past plain members', () => {
    expect(() => canonicalJson({ a: 1, b: [{ c: 2n }] })).toThrow(new TypeError('canonicalJson: BigInt at $.b[0].c has no JSON form; convert it to a number or string first'));
    const cyclic: Record<string, unknown> = { z: [1, 2] };
    cyclic.y = { back: cyclic };
    expect(() => canonicalJson(cyclic)).toThrow(new TypeError('canonicalJson: cycle at $.y.back; JSON cannot represent a value that contains itself'));
  });

  it('serializes nesting past the fast depth (iterative reference) identically', () => {
    let deep: unknown = { end: [true] };
    for (let i = 0; i < 5000; i++) deep = i % 2 ? { a: deep } : [deep];
    const text = canonicalJson(deep);
    expect(text.startsWith('{"a":[{"a":[')).toBe(true);
    let expected = '{"end":[true]}';
    for (let i = 0; i < 5000; i++) expected = i % 2 ? `{"a":${expected}}` : `[${expected}]`;
    expect(text).toBe(expected);
    let mid: unknown = { z: 1, a: [2, { y: null, b: 'x' }] };
    for (let i = 0; i < 600; i++) mid = i % 2 ? { k: mid, c: i } : [mid, i];
    expect(canonicalJson(mid)).toBe(oracle(mid));
  });
});
