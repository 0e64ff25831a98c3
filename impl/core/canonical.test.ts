import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical.js';

describe('canonicalJson', () => {
  it.each<[unknown, string]>([
    [{ b: 1, a: [3, { d: true, c: null }] }, '{"a":[3,{"c":null,"d":true}],"b":1}'],
    [{ é: 1, z: 2, Z: 3, '10': 4, '9': 5 }, '{"10":4,"9":5,"Z":3,"z":2,"é":1}'],
    [{ '\u{1F600}': 1, '\uFFFF': 2 }, '{"\u{1F600}":1,"\uFFFF":2}'], // UTF-16 code-unit order: surrogate 0xD83D < 0xFFFF
    [[1e21, 1e-7, -0, 0.1 + 0.2, 5.0, NaN, Infinity], '[1e+21,1e-7,0,0.30000000000000004,5,null,null]'],
    ['line\n"quote"\u2028\u0007', '"line\\n\\"quote\\"\u2028\\u0007"'],
    [{ a: undefined, b: () => 1, c: Symbol('s'), d: 1 }, '{"d":1}'],
    [[undefined, () => 1, Symbol('s')], '[null,null,null]'],
    [new Date(Date.UTC(2026, 10, 30)), '"2026-11-30T00:00:00.000Z"'],
    [{ t: { toJSON: () => ({ y: 2, x: 1 }) } }, '{"t":{"x":1,"y":2}}'],
    [null, 'null'],
    [{}, '{}'],
    [[], '[]'],
  ])('%#', (value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  it('allows a shared (non-cyclic) reference twice', () => {
    const shared = { k: 1 };
    expect(canonicalJson({ a: shared, b: [shared] })).toBe('{"a":{"k":1},"b":[{"k":1}]}');
  });

  it('throws a TypeError naming the path for a cycle or a BigInt', () => {
    const cyclic: Record<string, unknown> = { a: { b: {} } };
    (cyclic.a as Record<string, Record<string, unknown>>).b!.back = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(new TypeError('canonicalJson: cycle at $.a.b.back; JSON cannot represent a value that contains itself'));
    expect(() => canonicalJson({ n: [10n] })).toThrow(/BigInt at \$\.n\[0\]/);
  });

  it('throws for top-level values without a JSON form', () => {
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    expect(() => canonicalJson(() => 1)).toThrow(/top-level function/);
  });
});
