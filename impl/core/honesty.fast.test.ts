/**
 * The capture-honesty walk builds JSON paths only for findings now (a stack of steps instead of
 * a path string per member it descends into). Against the walk as it was, on generated payloads
 * shaped by every registered type's own annotations, at every declared level, with and without
 * `first`: the same findings, in the same order, with the same paths.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TYPES } from '../../spec/registry.js';
import { type CaptureLevel, captureRank, isPlainObject } from './event.js';
import { compileGates, findOverCapture, gatesForType, type CaptureFinding, type CaptureGates } from './honesty.js';
import { childPath } from './issue.js';

/** The walk before the change, verbatim in behaviour. */
function referenceFind(data: Record<string, unknown>, gates: CaptureGates, declared: CaptureLevel, first: boolean): CaptureFinding[] {
  const rank = captureRank(declared);
  const found: CaptureFinding[] = [];
  const above = (key: string): CaptureLevel | undefined => {
    const level = gates.levels.get(key);
    return level !== undefined && captureRank(level) > rank ? level : undefined;
  };
  const walk = (node: Record<string, unknown>, prefix: string, path: string): boolean => {
    for (const name of Object.keys(node)) {
      const key = prefix === '' ? name : `${prefix}.${name}`;
      const level = above(key);
      if (level !== undefined) {
        found.push({ path: childPath(path, name), level });
        if (first) return true;
        continue;
      }
      if (!gates.parents.has(key)) continue;
      const value = node[name];
      if (isPlainObject(value)) {
        if (walk(value, key, childPath(path, name))) return true;
      } else if (Array.isArray(value)) {
        const items = `${key}[]`;
        const itemLevel = above(items);
        if (itemLevel === undefined && !gates.parents.has(items)) continue;
        const array = childPath(path, name);
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          if (itemLevel !== undefined) {
            found.push({ path: childPath(array, i), level: itemLevel, array });
            if (first) return true;
          } else if (isPlainObject(item) && walk(item, items, childPath(array, i))) return true;
        }
      }
    }
    return false;
  };
  if (rank > 0 && gates.top > rank) walk(data, '', '$.data');
  return found;
}

const annotated = TYPES.filter((t) => t.payload !== false).map((t) => t.type).filter((type) => gatesForType(type).levels.size > 0);
const names = [...new Set(annotated.flatMap((type) => [...gatesForType(type).levels.keys(), ...gatesForType(type).parents].flatMap((p) => p.split(/\.|\[\]/)).filter(Boolean)))];

const payload: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ obj: Record<string, unknown>; v: unknown }>((tie) => ({
  obj: fc.dictionary(fc.oneof(fc.constantFrom(...names), fc.constantFrom('x', 'a b', '0', '__proto__')), tie('v'), { maxKeys: 5 }),
  v: fc.oneof({ depthSize: 'small' }, fc.constantFrom('text', 1, null, true), tie('obj'), fc.array(tie('v'), { maxLength: 3 })),
})).obj;

/** A payload holding the annotated paths `paths` (e.g. `documents[].content`), each at `copies` items per array. */
function materialize(paths: readonly string[], copies: number, leaf: unknown): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  const put = (node: Record<string, unknown>, tokens: string[]): void => {
    const [head, ...rest] = tokens as [string, ...string[]];
    const isArray = head.endsWith('[]');
    const name = isArray ? head.slice(0, -2) : head;
    if (!isArray) {
      if (rest.length === 0) node[name] = leaf;
      else put((node[name] = isPlainObject(node[name]) ? node[name] : {}) as Record<string, unknown>, rest);
      return;
    }
    const items = (node[name] = Array.isArray(node[name]) ? node[name] : Array.from({ length: copies }, () => (rest.length === 0 ? leaf : {}))) as unknown[];
    if (rest.length > 0) for (const item of items) if (isPlainObject(item)) put(item, rest);
  };
  for (const p of paths) if (p !== '') put(root, p.split('.'));
  return root;
}

const shaped = fc
  .tuple(fc.constantFrom(...annotated), fc.nat(), fc.integer({ min: 1, max: 3 }), fc.constantFrom<unknown>('text', 1, { k: 'v' }, ['a']), payload)
  .map(([type, pick, copies, leaf, extra]) => {
    const paths = [...gatesForType(type).levels.keys()].filter((_, i) => (pick >> (i % 16)) & 1);
    return { type, data: { ...extra, ...materialize(paths, copies, leaf) } };
  });

describe('findOverCapture (paths built only for findings)', () => {
  it('finds what the previous walk found on payloads built from each type\'s annotated paths', () => {
    let nested = 0;
    fc.assert(
      fc.property(shaped, fc.constantFrom<CaptureLevel>('metadata', 'redacted'), fc.boolean(), ({ type, data }, declared, first) => {
        const gates = gatesForType(type);
        const want = referenceFind(data, gates, declared, first);
        expect(findOverCapture(data, gates, declared, { first })).toEqual(want);
        if (want.some((f) => f.path.split(/[.[]/).length > 3)) nested++;
      }),
      { numRuns: 4000 },
    );
    expect(nested).toBeGreaterThan(100);
  });

  it('has annotated types to test', () => {
    expect(annotated.length).toBeGreaterThan(5);
  });
  it('finds what the previous walk found, in order, on generated payloads of every annotated type', () => {
    fc.assert(
      fc.property(fc.constantFrom(...annotated), payload, fc.constantFrom<CaptureLevel>('none', 'metadata', 'redacted', 'full'), fc.boolean(), (type, data, declared, first) => {
        const gates = gatesForType(type);
        expect(findOverCapture(data, gates, declared, { first })).toEqual(referenceFind(data, gates, declared, first));
        if (!first) expect(findOverCapture(data, gates, declared)).toEqual(referenceFind(data, gates, declared, false));
      }),
      { numRuns: 4000 },
    );
  });
});

describe('findOverCapture (the tree walk that proves a payload clean without building a key)', () => {
  it('finds what the string keys find when member names hold `.` or `[]` or are empty', () => {
    const gates = compileGates({ 'a.b': 'full', 'c[].d': 'redacted', 'e[]': 'full', '.f': 'full', 'g..h': 'full', 'i[][]': 'full' });
    const cases: Record<string, unknown>[] = [
      { 'a.b': 1 },
      { a: { b: 1 } },
      { 'c[].d': 1 },
      { c: [{ d: 'x' }] },
      { 'c[]': { d: 1 } },
      { e: [] },
      { e: [1] },
      { '': { f: 1 } },
      { f: 1 },
      { g: { '': { h: 1 } } },
      { 'g.': { h: 1 } },
      { i: [[1]] },
      { i: [[]] },
      { a: { c: 1 }, x: 1 },
    ];
    for (const data of cases) {
      for (const first of [false, true]) expect(findOverCapture(data, gates, 'metadata', { first })).toEqual(referenceFind(data, gates, 'metadata', first));
    }
    expect(findOverCapture({ 'a.b': 1 }, gates, 'metadata')).toHaveLength(1); // a dotted name matches the dotted key, as before
    expect(findOverCapture({ a: { b: 1 } }, gates, 'metadata')).toHaveLength(1);
    expect(findOverCapture({ a: { c: 1 }, x: 1 }, gates, 'metadata')).toEqual([]);
  });

  it('agrees with the string keys on generated payloads with such names and such annotations', () => {
    const odd = fc.constantFrom('a', 'b', 'a.b', '', 'b[]', '[', ']', '.');
    const paths = fc.array(fc.tuple(fc.array(fc.oneof(odd, fc.constant('[]')), { minLength: 1, maxLength: 4 }), fc.constantFrom<CaptureLevel>('redacted', 'full')), { maxLength: 4 });
    const data: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ obj: Record<string, unknown>; v: unknown }>((tie) => ({
      obj: fc.dictionary(odd, tie('v'), { maxKeys: 4 }),
      v: fc.oneof({ depthSize: 'small' }, fc.constant(1), tie('obj'), fc.array(tie('v'), { maxLength: 2 })),
    })).obj;
    fc.assert(fc.property(paths, data, fc.boolean(), (annotations, payload, first) => {
      const gates = compileGates(Object.fromEntries(annotations.map(([steps, level]) => [steps.map((s, i) => (s === '[]' || i === 0 ? s : `.${s}`)).join(''), level])));
      expect(findOverCapture(payload, gates, 'metadata', { first })).toEqual(referenceFind(payload, gates, 'metadata', first));
    }), { numRuns: 5000 });
  });
});
