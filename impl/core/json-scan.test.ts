/**
 * `scanJson` says exactly what `JSON.parse` followed by `scanJsonText` says: the same refusals
 * (syntax with the engine's message, the same duplicate or depth problem at the same path) and,
 * on success, the same value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, scanJsonText } from './json-shape.js';
import { scanJson, type JsonScan } from './json-scan.js';

/** The two-step reference: the relay's check before the scanner existed. */
function reference(text: string, maxDepth = MAX_DEPTH): JsonScan {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: { kind: 'syntax', message: (err as Error).message } };
  }
  const problem = scanJsonText(text, maxDepth);
  return problem === null ? { ok: true, value } : { ok: false, problem };
}

const NAMES = ['a', 'b', 'a\\u0061', '\\u0061', '__proto__', 'constructor', ':', '\\"', 'é', ''];

/** JSON-ish texts: objects with colliding names (plain and escaped), nesting, and broken fragments. */
const text: fc.Arbitrary<string> = fc.letrec<{ v: string }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('1', 'true', 'null', '"x"', '"a:b"', '-0.5e3', '01', '"\\x"', '[', '}', '"\u0001"', 'tru'),
    fc.array(tie('v'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc.array(fc.tuple(fc.constantFrom(...NAMES), tie('v'), fc.constantFrom('', ' ', '\n', '\r\t')), { maxLength: 5 }).map((members) => `{${members.map(([k, v, ws]) => `${ws}"${k}"${ws}:${v}`).join(',')}}`),
  ),
})).v;

describe('scanJson', () => {
  it('agrees with JSON.parse + scanJsonText on generated texts', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 6 }), (t, depth) => {
        expect(scanJson(t, depth)).toEqual(reference(t, depth));
      }),
      { numRuns: 2000 },
    );
  });

  it('names the problem: syntax, duplicate (decoded names), depth', () => {
    expect(scanJson('{"a":1,}')).toMatchObject({ ok: false, problem: { kind: 'syntax' } });
    expect(scanJson('{"a":1,"\\u0061":2}')).toEqual({ ok: false, problem: { kind: 'duplicate', path: '$.a', key: 'a' } });
    expect(scanJson('{"d":{"x":[{"y":1,"y":2}]}}')).toEqual({ ok: false, problem: { kind: 'duplicate', path: '$.d.x[0].y', key: 'y' } });
    expect(scanJson(`${'['.repeat(MAX_DEPTH + 1)}${']'.repeat(MAX_DEPTH + 1)}`)).toMatchObject({ ok: false, problem: { kind: 'depth' } });
    expect(scanJson(`${'['.repeat(MAX_DEPTH)}${']'.repeat(MAX_DEPTH)}`).ok).toBe(true);
    expect(scanJson('{"__proto__":{"x":1},"b":[1,2]}')).toEqual({ ok: true, value: JSON.parse('{"__proto__":{"x":1},"b":[1,2]}') });
  });
});
