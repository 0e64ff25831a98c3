/**
 * Example tests that hold, on their own, what the property tests (json-shape.fast.test.ts, not run
 * by Stryker) hold: the fast paths give the reference verdicts, string escapes are honoured, and
 * nothing recurses deeply when the bound is large.
 */
import { describe, expect, it } from 'vitest';
import { cloneJson, defineMember, jsonTextProblem, scanJsonText, textMembers, tooDeepAt } from './json-shape.js';

const nestArrays = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

/** `{"a":{"a":...{}}}`: `levels` objects, the innermost empty. */
function chainText(levels: number): string {
  return '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);
}

/** The same chain as a value, built without recursion. */
function chainValue(levels: number): Record<string, unknown> {
  let v: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) v = { a: v };
  return v;
}

/** Arrays nested `levels` deep, built without recursion. */
function arrayChain(levels: number): unknown[] {
  let v: unknown[] = [];
  for (let i = 1; i < levels; i++) v = [v];
  return v;
}

/** Run `fn` while Object.prototype carries an enumerable member (as a polluted runtime might). */
function withPollutedPrototype<T>(fn: () => T): T {
  Object.defineProperty(Object.prototype, 'injected', { value: 'x', enumerable: true, configurable: true, writable: true });
  try {
    return fn();
  } finally {
    delete (Object.prototype as Record<string, unknown>).injected;
  }
}

describe('scanJsonText: where strings end', () => {
  it('an escaped quote does not end a member name', () => {
    expect(scanJsonText('{"a\\"":1,"a\\"":2}')).toEqual({ kind: 'duplicate', path: '$["a\\""]', key: 'a"' });
  });
  it('a quote after an escaped backslash does end a member name', () => {
    expect(scanJsonText('{"a\\\\":1,"a\\\\":2}')).toEqual({ kind: 'duplicate', path: '$["a\\\\"]', key: 'a\\' });
    expect(scanJsonText('{"a\\\\":1,"b":2}')).toBeNull();
  });
  it('a string that never closes ends the scan with no finding', () => {
    expect(scanJsonText('{"a')).toBeNull();
    expect(scanJsonText('["x')).toBeNull();
  });
});

describe('scanJsonText: a string value is not a member name', () => {
  it('reads the string after a colon as the value, so a value equal to a later name is no duplicate', () => {
    expect(scanJsonText('{"a":"a"}')).toBeNull();
    expect(scanJsonText('{"x":"y","y":1,"z":1,"z":2}')).toEqual({ kind: 'duplicate', path: '$.z', key: 'z' });
  });
});

describe('scanJsonText: member names on text JSON.parse refuses', () => {
  it('a name with a malformed escape ends the scan with no finding', () => {
    expect(scanJsonText('{"\\x":1,"a":1,"a":2}')).toBeNull();
  });
  it('a name without a backslash is compared as written', () => {
    expect(scanJsonText('{"\t":1,"\t":2}')).toEqual({ kind: 'duplicate', path: '$["\\t"]', key: '\t' });
  });
});

describe('textMembers', () => {
  it('counts the colons outside strings, at every level', () => {
    expect(textMembers('{"a":1,"b":{"c":[{"d":2}]}}')).toBe(4);
    expect(textMembers('[1,2,"x"]')).toBe(0);
    expect(textMembers('')).toBe(0);
  });
  it('skips colons inside strings, including after escaped quotes', () => {
    expect(textMembers('{"a:b":"c:d"}')).toBe(1);
    expect(textMembers('{"a\\":b":1}')).toBe(1);
    expect(textMembers('{"a\\\\":1,"b":2}')).toBe(2);
    expect(textMembers('{"a\\\\\\":":1}')).toBe(1);
  });
  it('is -1 when a string never closes', () => {
    expect(textMembers('{"a":"b')).toBe(-1);
    expect(textMembers('"')).toBe(-1);
  });
});

describe('jsonTextProblem gives scanJsonText\'s verdict', () => {
  const verdict = (text: string, maxDepth?: number) => jsonTextProblem(text, JSON.parse(text) as unknown, maxDepth);
  it('clean texts are clean', () => {
    expect(verdict('{"a":1,"b":{"c":[{"d":2},{"d":3}]}}')).toBeNull();
    expect(verdict('[1,[2,[3]],{"x":null}]')).toBeNull();
    expect(verdict('"s"')).toBeNull();
    expect(verdict('7')).toBeNull();
  });
  it('finds a duplicate at the top, in arrays and in objects', () => {
    expect(verdict('{"a":1,"a":2}')).toEqual({ kind: 'duplicate', path: '$.a', key: 'a' });
    expect(verdict('[{"x":{"a":1}},{"y":1,"y":{"z":1}}]')).toEqual({ kind: 'duplicate', path: '$[1].y', key: 'y' });
    expect(verdict('{"d":{"k":{"p":1,"q":2},"k":{"r":3}}}')).toEqual({ kind: 'duplicate', path: '$.d.k', key: 'k' });
  });
  it('finds nesting past the bound, in objects and in arrays', () => {
    expect(verdict(chainText(4), 3)).toEqual({ kind: 'depth', path: '$.a.a.a' });
    expect(verdict(chainText(3), 3)).toBeNull();
    expect(verdict(nestArrays(4), 3)).toEqual({ kind: 'depth', path: '$[0][0][0]' });
    expect(verdict(nestArrays(3), 3)).toBeNull();
    expect(verdict('{"a":[{"b":[]}]}', 3)).toEqual({ kind: 'depth', path: '$.a[0].b' });
  });
  it('a bound past the recursion limit is checked without recursion', () => {
    const depth = 50_000;
    expect(jsonTextProblem(nestArrays(depth), arrayChain(depth), 2 * depth)).toBeNull();
    expect(jsonTextProblem(chainText(depth), chainValue(depth), 2 * depth)).toBeNull();
    expect(jsonTextProblem(nestArrays(300), arrayChain(300), 299)).toEqual({ kind: 'depth', path: `$${'[0]'.repeat(299)}` });
  });
});

describe('jsonTextProblem counts own members only', () => {
  it('a polluted Object.prototype hides no duplicate', () => {
    const text = '{"a":1,"a":2}';
    expect(withPollutedPrototype(() => jsonTextProblem(text, JSON.parse(text) as unknown))).toEqual({ kind: 'duplicate', path: '$.a', key: 'a' });
  });
  it('a polluted Object.prototype hides no nested duplicate and no depth', () => {
    const dup = '{"undefined":{"a":1},"e":{},"b":1,"b":2}';
    expect(withPollutedPrototype(() => jsonTextProblem(dup, JSON.parse(dup) as unknown))).toEqual({ kind: 'duplicate', path: '$.b', key: 'b' });
    expect(withPollutedPrototype(() => jsonTextProblem(chainText(4), chainValue(4), 3))).toEqual({ kind: 'depth', path: '$.a.a.a' });
  });
  it('a polluted Object.prototype leaves clean texts clean', () => {
    const text = '{"a":{"b":[{"c":1}]},"e":{}}';
    const counted = countedText(text);
    expect(withPollutedPrototype(() => jsonTextProblem(counted.text, JSON.parse(text) as unknown))).toBeNull();
    expect(counted.cuts()).toBe(0);
  });
  it('members a value inherits from its own prototype are not counted', () => {
    const value = Object.assign(Object.create({ inherited: 1 }) as Record<string, unknown>, { a: 2 });
    expect(jsonTextProblem('{"a":1,"a":2}', value)).toEqual({ kind: 'duplicate', path: '$.a', key: 'a' });
  });
});

describe('tooDeepAt', () => {
  it('finds arrays past the bound and names the first in document order', () => {
    expect(tooDeepAt(arrayChain(4), 3)).toBe('$[0][0][0]');
    expect(tooDeepAt(arrayChain(3), 3)).toBeUndefined();
    expect(tooDeepAt([[1], [[2], [[]]]], 3)).toBe('$[1][1][0]');
    expect(tooDeepAt({ a: [{ b: [] }] }, 3)).toBe('$.a[0].b');
    expect(tooDeepAt([[[]], { x: { y: {} } }], 2)).toBe('$[0][0]');
  });
  it('a bound past the recursion limit is checked without recursion', () => {
    const deep = chainValue(50_000);
    expect(tooDeepAt(deep, 400_000)).toBeUndefined();
    expect(tooDeepAt(arrayChain(50_000), 400_000)).toBeUndefined();
    expect(tooDeepAt({ a: [1, { b: 2 }] }, 1000)).toBeUndefined();
    expect(tooDeepAt(arrayChain(300), 299)).toBe(`$${'[0]'.repeat(299)}`);
    expect(tooDeepAt([{ a: [] }, [[1, [[]]]]], 300)).toBeUndefined();
  });
  it('scalars and null have no depth', () => {
    expect(tooDeepAt(null, 0)).toBeUndefined();
    expect(tooDeepAt(3, 0)).toBeUndefined();
  });
});

describe('defineMember', () => {
  it('makes __proto__ an ordinary own data member', () => {
    const target: Record<string, unknown> = {};
    const value = { y: 1 };
    defineMember(target, '__proto__', value);
    expect(Object.getOwnPropertyDescriptor(target, '__proto__')).toEqual({ value, enumerable: true, configurable: true, writable: true });
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
  });
  it('sets other keys as own data members', () => {
    const target: Record<string, unknown> = {};
    defineMember(target, 'constructor', 1);
    expect(Object.getOwnPropertyDescriptor(target, 'constructor')).toEqual({ value: 1, enumerable: true, configurable: true, writable: true });
  });
});

describe('cloneJson', () => {
  it('returns scalars and null as they are', () => {
    expect(cloneJson(5)).toBe(5);
    expect(cloneJson('s')).toBe('s');
    expect(cloneJson(null)).toBeNull();
    expect(cloneJson(true)).toBe(true);
  });
  it('omits members whose value is undefined, keeping undefined array items', () => {
    const copy = cloneJson({ a: 1, u: undefined, list: [undefined, 2] });
    expect(Object.keys(copy)).toEqual(['a', 'list']);
    expect(copy.list).toEqual([undefined, 2]);
    expect(copy.list).toHaveLength(2);
  });
});

/** `text` as a string-like that counts the pieces cut out of it (scanJsonText cuts out every member name; textMembers cuts nothing). */
function countedText(text: string): { text: string; cuts: () => number } {
  let cuts = 0;
  const s = Object.assign(new String(text), {
    slice(start?: number, end?: number): string {
      cuts++;
      return text.slice(start, end);
    },
  });
  return { text: s as unknown as string, cuts: () => cuts };
}

describe('the fast paths are taken in the common case', () => {
  it('jsonTextProblem proves a clean text clean by counting, without cutting out its member names', () => {
    for (const text of ['{"a":[{"b":1},{"c":[2,{"d":{}}]}],"e":"s:\\"x","f":{"g":{"h":[]}}}', '[1,[2,[]],"x",{}]', '{"k":[{}],"m":[[{"n":1}]]}']) {
      const counted = countedText(text);
      expect(jsonTextProblem(counted.text, JSON.parse(text) as unknown)).toBeNull();
      expect(counted.cuts()).toBe(0);
    }
    const atBound = countedText(chainText(3));
    expect(jsonTextProblem(atBound.text, chainValue(3), 3)).toBeNull();
    expect(atBound.cuts()).toBe(0);
    const dup = countedText('{"a":1,"a":2}');
    expect(jsonTextProblem(dup.text, { a: 2 })).toEqual({ kind: 'duplicate', path: '$.a', key: 'a' });
    expect(dup.cuts()).toBeGreaterThan(0);
  });
  it('tooDeepAt reads each member of a value within the bound once', () => {
    let reads = 0;
    const value = [{ get b() { reads++; return { c: [1, { d: null }] }; }, x: 1 }];
    expect(tooDeepAt(value)).toBeUndefined();
    expect(reads).toBe(1);
    let boundReads = 0;
    const atBound = { get b() { boundReads++; return {}; } };
    expect(tooDeepAt(atBound, 2)).toBeUndefined();
    expect(boundReads).toBe(1);
  });
});

describe('jsonTextProblem under a polluted prototype, empty objects', () => {
  it('an empty object is clean', () => {
    expect(withPollutedPrototype(() => jsonTextProblem('{}', {}))).toBeNull();
    expect(withPollutedPrototype(() => jsonTextProblem('[{},{"a":{}}]', [{}, { a: {} }]))).toBeNull();
  });
});
