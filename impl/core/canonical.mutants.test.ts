// Example tests that pin down behaviours of canonicalJson that the mutation run found unheld
// (issue 25). Run by Stryker through stryker/vitest.config.ts; no property tests here.
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical.js';

/** A Date: its toJSON sends the whole containing value down the reference walk. */
const EPOCH = new Date(0);
const EPOCH_TEXT = '"1970-01-01T00:00:00.000Z"';

describe('canonicalJson: booleans and strings', () => {
  it('writes both booleans', () => {
    expect(canonicalJson({ no: false, yes: true })).toBe('{"no":false,"yes":true}');
    expect(canonicalJson(false)).toBe('false');
  });

  it('escapes a string made only of characters that need escaping', () => {
    expect(canonicalJson('"')).toBe('"\\""');
    expect(canonicalJson('\\')).toBe('"\\\\"');
    expect(canonicalJson('\n\t')).toBe('"\\n\\t"');
    expect(canonicalJson('\ud800')).toBe('"\\ud800"');
    expect(canonicalJson({ '"': 1, '\n': 2 })).toBe('{"\\n":2,"\\"":1}');
  });

  it('copies plain strings, the empty string and a well-formed surrogate pair verbatim', () => {
    expect(canonicalJson(['', 'a', 'plain text', '\u{1F600}'])).toBe('["","a","plain text","\u{1F600}"]');
  });
});

describe('canonicalJson: member names', () => {
  it('writes a member named "undefined" once', () => {
    expect(canonicalJson({ undefined: 1 })).toBe('{"undefined":1}');
    expect(canonicalJson({ a: 0, undefined: [true] })).toBe('{"a":0,"undefined":[true]}');
  });

  it('writes a member named "undefined" once inside a value with a toJSON', () => {
    expect(canonicalJson({ d: EPOCH, undefined: 1 })).toBe(`{"d":${EPOCH_TEXT},"undefined":1}`);
  });
});

describe('canonicalJson: values with a toJSON (the reference walk)', () => {
  it('writes an array holding a Date as an array, every element once', () => {
    expect(canonicalJson([EPOCH])).toBe(`[${EPOCH_TEXT}]`);
    expect(canonicalJson([1, EPOCH, 'x'])).toBe(`[1,${EPOCH_TEXT},"x"]`);
    expect(canonicalJson({ when: [EPOCH] })).toBe(`{"when":[${EPOCH_TEXT}]}`);
  });

  it('writes null, booleans, strings and numbers beside a Date as JSON.stringify does', () => {
    const value = { d: EPOCH, f: false, n: null, s: 'a"b', x: 1.5, inf: Infinity, nan: NaN };
    expect(canonicalJson(value)).toBe(`{"d":${EPOCH_TEXT},"f":false,"inf":null,"n":null,"nan":null,"s":"a\\"b","x":1.5}`);
    expect(canonicalJson([EPOCH, null, -Infinity])).toBe(`[${EPOCH_TEXT},null,null]`);
  });

  it('omits undefined, function and symbol members beside a Date and writes them as null in arrays', () => {
    const value = { d: EPOCH, u: undefined, fn: () => 1, sym: Symbol('s'), k: 1 };
    expect(canonicalJson(value)).toBe(`{"d":${EPOCH_TEXT},"k":1}`);
    expect(canonicalJson([EPOCH, undefined, () => 1, Symbol('s')])).toBe(`[${EPOCH_TEXT},null,null,null]`);
  });

  it('writes empty containers beside a Date', () => {
    expect(canonicalJson({ a: [], d: EPOCH, o: {} })).toBe(`{"a":[],"d":${EPOCH_TEXT},"o":{}}`);
    expect(canonicalJson([[], EPOCH, {}])).toBe(`[[],${EPOCH_TEXT},{}]`);
  });

  it('calls a top-level toJSON with the empty key, as JSON.stringify does', () => {
    const keyed = { toJSON: (key: string) => `key=${key}` };
    expect(canonicalJson(keyed)).toBe(JSON.stringify(keyed));
    expect(canonicalJson(keyed)).toBe('"key="');
  });
});

describe('canonicalJson: plain data is walked once', () => {
  /** An object whose member `a` counts its reads; `rest` is spread beside it. */
  function counted(rest: Record<string, unknown>): { value: Record<string, unknown>; reads: () => number } {
    let n = 0;
    const value: Record<string, unknown> = { ...rest };
    Object.defineProperty(value, 'a', { enumerable: true, get: () => (n++, 1) });
    return { value, reads: () => n };
  }

  it('reads each member of plain data once', () => {
    const { value, reads } = counted({ b: [1, 'x', true, { c: 2 }] });
    expect(canonicalJson(value)).toBe('{"a":1,"b":[1,"x",true,{"c":2}]}');
    expect(reads()).toBe(1);
  });

  it('reads each member once when the data holds null, undefined, a function or a symbol', () => {
    const { value, reads } = counted({ b: null, c: undefined, d: () => 1, e: Symbol('s'), f: [null, undefined] });
    expect(canonicalJson(value)).toBe('{"a":1,"b":null,"f":[null,null]}');
    expect(reads()).toBe(1);
  });

  it('gives up on a cycle within a few hundred levels, not at the end of the call stack', () => {
    let objectReads = 0;
    const selfObject: Record<string, unknown> = {};
    Object.defineProperty(selfObject, 'me', { enumerable: true, get: () => (objectReads++, selfObject) });
    expect(() => canonicalJson(selfObject)).toThrow(/^canonicalJson: cycle at \$\.me;/);
    expect(objectReads).toBeLessThan(1000);

    let arrayReads = 0;
    const selfArray: unknown[] = [];
    Object.defineProperty(selfArray, 0, { enumerable: true, get: () => (arrayReads++, selfArray) });
    expect(() => canonicalJson(selfArray)).toThrow(/^canonicalJson: cycle at \$\[0\];/);
    expect(arrayReads).toBeLessThan(1000);
  });

  it('serializes nesting deeper than any recursion limit, and a cycle is still named', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 300; i++) deep = i % 2 === 0 ? [deep] : { k: deep };
    const text = canonicalJson(deep);
    expect(text).toBe(JSON.stringify(deep));
    const loop: unknown[] = [];
    loop.push([loop]);
    expect(() => canonicalJson(loop)).toThrow(new TypeError('canonicalJson: cycle at $[0][0]; JSON cannot represent a value that contains itself'));
  });
});
