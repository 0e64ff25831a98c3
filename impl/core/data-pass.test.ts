/**
 * `dataVerdict` walks a payload once for the depth verdict and capture honesty. Its depth bit must
 * be `tooDeepAt`'s verdict, a clear honesty bit must mean `findOverCapture` finds nothing, and
 * `validateEvent` (which trusts both) must report exactly what its reference path reports (a
 * null-prototype copy of the Event takes that path: no fast check accepts it).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TYPES } from '../../spec/registry.js';
import { MAY_OVER_CAPTURE, TOO_DEEP, dataVerdict } from './data-pass.js';
import { validateEvent } from './envelope.js';
import { captureRank, type CaptureLevel } from './event.js';
import { compileGates, findOverCapture, gatesForType } from './honesty.js';
import { tooDeepAt } from './json-shape.js';

function referenceCopy(ev: Record<string, unknown>): Record<string, unknown> {
  const copy = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(ev)) Object.defineProperty(copy, key, { value: ev[key], enumerable: true, writable: true, configurable: true });
  return copy;
}

const annotated = TYPES.filter((t) => t.payload === true && gatesForType(t.type).levels.size > 0).map((t) => t.type);
const names = [...new Set(annotated.flatMap((type) => [...gatesForType(type).levels.keys(), ...gatesForType(type).parents].flatMap((p) => p.split(/\.|\[\]/)).filter(Boolean)))];

function nest(levels: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < levels; i++) v = i % 2 === 0 ? [v] : { k: v };
  return v;
}

const payload: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ obj: Record<string, unknown>; v: unknown }>((tie) => ({
  obj: fc.dictionary(fc.oneof(fc.constantFrom(...names), fc.constantFrom('x', 'a.b', '', 'c[]', '__proto__')), tie('v'), { maxKeys: 5 }),
  v: fc.oneof({ depthSize: 'small' }, fc.constantFrom<unknown>('text', 1, null, true, nest(61, 1), nest(62, 1), nest(63, 1)), tie('obj'), fc.array(tie('v'), { maxLength: 3 })),
})).obj;

/** `extra` with the annotated paths of `type` (every fourth or so) present, holding `leaf`. */
function withAnnotated(type: string, pick: number, leaf: unknown, extra: Record<string, unknown>): Record<string, unknown> {
  const root = structuredClone(extra); // never mutate generated values (or the shared leaves)
  const paths = [...gatesForType(type).levels.keys()].filter((_, i) => (pick >> (i % 16)) & 1);
  for (const path of paths) {
    let node = root;
    const steps = path.split('.');
    steps.forEach((step, i) => {
      const array = step.endsWith('[]');
      const name = array ? step.slice(0, -2) : step;
      const last = i === steps.length - 1;
      if (array) {
        const item: Record<string, unknown> = {};
        node[name] = [last ? structuredClone(leaf) : item];
        node = item;
      } else if (last) node[name] = structuredClone(leaf);
      else node = (node[name] = typeof node[name] === 'object' && node[name] !== null && !Array.isArray(node[name]) ? node[name] : {}) as Record<string, unknown>;
    });
  }
  return root;
}

const shaped = fc.tuple(fc.constantFrom(...annotated), fc.nat(), fc.constantFrom<unknown>('text', { k: 1 }, nest(62, 1)), payload).map(([type, pick, leaf, extra]) => ({ type, data: withAnnotated(type, pick, leaf, extra) }));

const levels = fc.constantFrom<CaptureLevel>('none', 'metadata', 'redacted', 'full');

describe('dataVerdict', () => {
  it('gives tooDeepAt\'s verdict, and a clear honesty bit only where findOverCapture finds nothing', () => {
    let deep = 0;
    let over = 0;
    fc.assert(fc.property(shaped, levels, ({ type, data }, declared) => {
      const gates = gatesForType(type);
      const rank = captureRank(declared);
      const verdict = dataVerdict(data, gates.tree, rank);
      const tooDeep = tooDeepAt({ data }) !== undefined;
      expect((verdict & TOO_DEEP) !== 0).toBe(tooDeep);
      if (tooDeep) deep++;
      else if ((verdict & MAY_OVER_CAPTURE) === 0) expect(findOverCapture(data, gates, declared)).toEqual([]);
      if (!tooDeep && findOverCapture(data, gates, declared).length > 0) over++;
    }), { numRuns: 4000 });
    expect(deep).toBeGreaterThan(100);
    expect(over).toBeGreaterThan(100);
  });

  it('sees both verdicts in one walk: a finding does not hide a later depth violation', () => {
    const gates = compileGates({ secret: 'full' });
    expect(dataVerdict({ secret: 'x', later: nest(63, 1) as Record<string, unknown> }, gates.tree, 1)).toBe(MAY_OVER_CAPTURE | TOO_DEEP);
    expect(dataVerdict({ secret: 'x' }, gates.tree, 1)).toBe(MAY_OVER_CAPTURE);
    expect(dataVerdict({ secret: 'x' }, gates.tree, 3)).toBe(0);
    const items = compileGates({ 'notes[]': 'full', 'tags[]': 'redacted', 'docs[].content': 'redacted', 'a.b': 'full' });
    expect(dataVerdict({ notes: ['a'] }, items.tree, 1)).toBe(MAY_OVER_CAPTURE);
    expect(dataVerdict({ notes: [] }, items.tree, 1)).toBe(0);
    expect(dataVerdict({ tags: ['t'] }, items.tree, 1)).toBe(MAY_OVER_CAPTURE);
    expect(dataVerdict({ tags: ['t'] }, items.tree, 2)).toBe(0);
    expect(dataVerdict({ notes: ['a'] }, items.tree, 3)).toBe(0);
    expect(dataVerdict({ docs: [{ other: 1 }, { content: 'x' }] }, items.tree, 1)).toBe(MAY_OVER_CAPTURE);
    expect(dataVerdict({ docs: [{ other: 1 }, [{ content: 'x' }]] }, items.tree, 1)).toBe(0); // nested arrays are not items
    expect(dataVerdict({ docs: [{ content: 'x' }] }, items.tree, 2)).toBe(0);
    expect(dataVerdict({ a: { b: 1 } }, items.tree, 1)).toBe(MAY_OVER_CAPTURE);
    expect(dataVerdict({ a: { c: 1 }, 'a.b': 1 }, items.tree, 1)).toBe(MAY_OVER_CAPTURE); // read as a key, as the string walk reads it
    expect(dataVerdict({ a: { c: 1 } }, items.tree, 1)).toBe(0);
    expect(dataVerdict({ '': { b: 1 } }, items.tree, 1)).toBe(MAY_OVER_CAPTURE);
    expect(dataVerdict({ other: nest(62, 1) as Record<string, unknown> }, undefined, 1)).toBe(0);
    expect(dataVerdict({ other: nest(63, 1) as Record<string, unknown> }, undefined, 1)).toBe(TOO_DEEP);
  });
});

describe('validateEvent over the one pass', () => {
  it('reports what the reference path reports, on Events of every annotated type at every capture level', () => {
    fc.assert(fc.property(shaped, levels, fc.boolean(), ({ type, data }, capture, declare) => {
      const ev: Record<string, unknown> = { aep: '0.1', id: 'e1', type, time: '2026-07-03T10:15:04Z', source: 'aep://h/a', agent: 'a', session: 's', seq: 1, data };
      if (type.startsWith('agent.')) for (const k of ['session', 'seq']) delete ev[k];
      if (declare) ev.capture = capture;
      expect(validateEvent(ev)).toEqual(validateEvent(referenceCopy(ev)));
    }), { numRuns: 4000 });
  });
});
