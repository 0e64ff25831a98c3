/**
 * The fast paths of json-shape.ts against their references: `jsonTextProblem` must say exactly
 * what `scanJsonText` says, on generated and hostile texts (duplicate names spelled with and
 * without escapes, quotes, colons and backslashes inside strings, surrogates, whitespace, deep
 * nesting); `tooDeepAt` must name the same container as a plain recursive walk.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, jsonTextProblem, scanJsonText, textMembers, tooDeepAt } from './json-shape.js';
import { childPath } from './issue.js';

/** A JSON tree whose objects are member lists, so a name may repeat (JSON.parse keeps the last). */
type Tree = { kind: 'scalar'; text: string } | { kind: 'array'; items: Tree[] } | { kind: 'object'; members: Array<[string, Tree]> };

/** Names chosen to collide, to need escapes, and to look like JSON syntax. */
const NAMES = ['a', 'b', 'r', '__proto__', 'constructor', '"', '\\', ':', '","', '{[', 'é', '\u{1F600}', '\uD800', '0', '10', ' ', ''];
const SCALARS = ['1', '-0.5e3', 'true', 'false', 'null', '"x"', '":"', '"\\""', '"\\\\"', '"a\\":{"', '"\\u003a"', '"\\uD83D\\uDE00"', '"}]"'];

/** A JSON string for `s`, escaped in one of several legal ways. */
function spell(s: string, style: number): string {
  if (style % 3 === 0) return JSON.stringify(s);
  if (style % 3 === 1) return `"${[...s].map((ch) => [...ch].map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')).join('')}"`;
  // Mixed: escape every other code unit that is a letter.
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const u = s[i]!;
    out += /[a-z]/.test(u) && i % 2 === 0 ? `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}` : JSON.stringify(u).slice(1, -1);
  }
  return `${out}"`;
}

const tree: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...SCALARS).map((text): Tree => ({ kind: 'scalar', text })),
    fc.array(tie('tree'), { maxLength: 4 }).map((items): Tree => ({ kind: 'array', items })),
    fc.array(fc.tuple(fc.constantFrom(...NAMES), tie('tree')), { maxLength: 5 }).map((members): Tree => ({ kind: 'object', members })),
  ),
})).tree;

/** Render a tree as JSON text, with whitespace and escape styles drawn from `noise`. */
function render(t: Tree, noise: number[]): string {
  let k = 0;
  const next = (): number => noise[k++ % noise.length]!;
  const ws = (): string => [' ', '', '\n', '', '\t ', ''][next() % 6]!;
  const go = (node: Tree): string => {
    if (node.kind === 'scalar') return node.text;
    if (node.kind === 'array') return `[${ws()}${node.items.map((i) => `${go(i)}${ws()}`).join(`,${ws()}`)}]`;
    return `{${ws()}${node.members.map(([name, v]) => `${spell(name, next())}${ws()}:${ws()}${go(v)}`).join(`,${ws()}`)}${ws()}}`;
  };
  return go(t);
}

const members = (t: Tree): number => (t.kind === 'scalar' ? 0 : t.kind === 'array' ? t.items.reduce((n, i) => n + members(i), 0) : t.members.reduce((n, [, v]) => n + 1 + members(v), 0));

/** Plain recursive reference for `tooDeepAt` on small values. */
function deepRef(value: unknown, maxDepth: number, depth = 1, path = '$'): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (depth > maxDepth) return path;
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.keys(value).map((key) => [key, (value as Record<string, unknown>)[key]]);
  for (const [at, v] of entries) {
    const found = deepRef(v, maxDepth, depth + 1, typeof at === 'number' ? `${path}[${at}]` : childPath(path, at));
    if (found !== undefined) return found;
  }
  return undefined;
}

describe('textMembers', () => {
  it('counts the members of generated texts, whatever their strings hold', () => {
    fc.assert(
      fc.property(tree, fc.array(fc.nat(), { minLength: 1, maxLength: 16 }), (t, noise) => {
        expect(textMembers(render(t, noise))).toBe(members(t));
      }),
      { numRuns: 2000 },
    );
  });
  it('skips escaped quotes by the parity of the backslash run', () => {
    expect(textMembers('{"a\\\\":1,"b\\\\\\":":2}')).toBe(2);
    expect(textMembers('"x:y"')).toBe(0);
    expect(textMembers('{"a":"unclosed')).toBe(-1);
  });
});

describe('jsonTextProblem agrees with scanJsonText', () => {
  it('on generated texts with repeated and escaped names, at every depth bound', () => {
    fc.assert(
      fc.property(tree, fc.array(fc.nat(), { minLength: 1, maxLength: 16 }), fc.integer({ min: 1, max: 8 }), (t, noise, maxDepth) => {
        const text = render(t, noise);
        const value: unknown = JSON.parse(text);
        expect(jsonTextProblem(text, value, maxDepth)).toEqual(scanJsonText(text, maxDepth));
        expect(jsonTextProblem(text, value)).toEqual(scanJsonText(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('on deep nesting around the bound, with a duplicate planted at a random level', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_DEPTH + 8 }), fc.integer({ min: 0, max: MAX_DEPTH + 8 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), (depth, dupAt, kinds) => {
        let text = '1';
        for (let level = depth; level >= 1; level--) {
          const object = kinds[level % kinds.length]!;
          const dup = level === dupAt ? (object ? ',"k":0' : '') : '';
          text = object ? `{"k":${text}${dup}}` : `[${text}]`;
        }
        const value: unknown = JSON.parse(text);
        expect(jsonTextProblem(text, value, MAX_DEPTH)).toEqual(scanJsonText(text, MAX_DEPTH));
      }),
      { numRuns: 1000 },
    );
  });

  it('on the cases that matter: duplicates the parse hides, escaped names, __proto__, scalars', () => {
    const cases = [
      '{"data":{"result":"S3CR3T"},"data":{"ok":true}}',
      '{"a":1,"\\u0061":2}',
      '{"__proto__":1,"__proto__":2}',
      '{"__proto__":{"x":1}}',
      '{"a":{"b":{"c":1,"d":2,"c":3}}}',
      '[{"x":1},{"x":2,"y":{"r":1,"r\\u0020":2,"\\u0072":3}}]',
      '{"a":"x\\",\\"a\\":{[","b":"\\\\","c":"}]"}',
      '{"\\uD83D\\uDE00":1,"\uD83D\uDE00":2}',
      '"a:b"',
      '12',
      '{ "a" : 1 , "a" : 2 }',
      `${'['.repeat(MAX_DEPTH + 1)}${']'.repeat(MAX_DEPTH + 1)}`,
      `${'['.repeat(MAX_DEPTH)}${']'.repeat(MAX_DEPTH)}`,
    ];
    for (const text of cases) expect(jsonTextProblem(text, JSON.parse(text))).toEqual(scanJsonText(text));
    expect(jsonTextProblem(cases[0]!, JSON.parse(cases[0]!))).toEqual({ kind: 'duplicate', path: '$.data', key: 'data' });
    expect(jsonTextProblem(cases[4]!, JSON.parse(cases[4]!))).toEqual({ kind: 'duplicate', path: '$.a.b.c', key: 'c' });
  });

  it('takes the reference path for bounds past its recursion limit', () => {
    const text = `${'['.repeat(3000)}${']'.repeat(3000)}`;
    expect(jsonTextProblem(text, JSON.parse(text), 100_000)).toBeNull();
    expect(jsonTextProblem(text, JSON.parse(text), 2999)?.kind).toBe('depth');
  });
});

describe('tooDeepAt (fast check first, path only on a finding)', () => {
  const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
    v: fc.oneof({ depthSize: 'small' }, fc.constantFrom(1, 'x', null, true), fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b', '__proto__', '0', 'k.j', ''), tie('v'), { maxKeys: 3 })),
  })).v;
  it('names the same container as a recursive walk', () => {
    fc.assert(
      fc.property(value, fc.integer({ min: 1, max: 6 }), (v, maxDepth) => {
        expect(tooDeepAt(v, maxDepth)).toBe(deepRef(v, maxDepth));
      }),
      { numRuns: 3000 },
    );
  });
  it('still bounds a cycle and an endless chain', () => {
    const cyclic: Record<string, unknown> = { a: [] };
    (cyclic.a as unknown[]).push(cyclic);
    expect(tooDeepAt(cyclic, 4)).toBe('$.a[0].a[0]');
    expect(tooDeepAt(cyclic, 1000)).toBeDefined();
  });
});

describe('jsonTextProblem with an enumerable member planted on Object.prototype', () => {
  it('still finds the duplicate the inherited name would hide from a for...in count', () => {
    const proto = Object.prototype as Record<string, unknown>;
    Object.defineProperty(proto, 'planted', { value: { deep: {} }, enumerable: true, configurable: true, writable: true });
    try {
      const text = '{"a":1,"a":2,"b":{"c":1}}';
      expect(jsonTextProblem(text, JSON.parse(text))).toEqual({ kind: 'duplicate', path: '$.a', key: 'a' });
      expect(jsonTextProblem('{"a":1}', JSON.parse('{"a":1}'))).toBeNull();
      expect(tooDeepAt({ a: { b: 1 } }, 2)).toBeUndefined(); // the inherited object is visited, then the exact walk clears it
      expect(tooDeepAt({ a: { b: {} } }, 2)).toBe('$.a.b');
    } finally {
      delete proto.planted;
    }
  });
});
