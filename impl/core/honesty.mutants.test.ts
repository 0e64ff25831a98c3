/**
 * Whole-output tests of the capture-honesty walk, written against the mutants `npm run mutate`
 * left alive in honesty.ts (docs/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import { compileGates, findOverCapture } from './honesty.js';

const paths = (found: readonly { path: string }[]) => found.map((f) => f.path);

describe('findOverCapture', () => {
  it('looks at own members only', () => {
    expect(findOverCapture(Object.create({ x: 1 }) as Record<string, unknown>, compileGates({ x: 'full' }), 'metadata')).toStrictEqual([]);
  });
  it('descends only where an annotation can be, so a cycle or a deep value elsewhere is never walked', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(findOverCapture(cyclic, compileGates({ x: 'full' }), 'metadata')).toStrictEqual([]);
  });
  it('with `first`, stops at the first finding, however deep', () => {
    const first = { first: true };
    expect(paths(findOverCapture({ a: { b: { c: 1 } }, d: 2 }, compileGates({ 'a.b.c': 'full', d: 'full' }), 'metadata', first))).toStrictEqual(['$.data.a.b.c']);
    expect(paths(findOverCapture({ a: { b: [1] }, c: 1 }, compileGates({ 'a.b[]': 'full', c: 'full' }), 'metadata', first))).toStrictEqual(['$.data.a.b[0]']);
    expect(paths(findOverCapture({ a: [{ b: [{ c: 1 }] }, { b: [{ c: 2 }] }] }, compileGates({ 'a[].b[].c': 'full' }), 'metadata', first))).toStrictEqual(['$.data.a[0].b[0].c']);
    // Without it, every finding, each at its own path.
    expect(paths(findOverCapture({ a: { b: { c: 1 } }, d: 2 }, compileGates({ 'a.b.c': 'full', d: 'full' }), 'metadata'))).toStrictEqual(['$.data.a.b.c', '$.data.d']);
  });
});
