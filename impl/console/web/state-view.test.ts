import { describe, expect, it } from 'vitest';
import { applyOp, stateOf } from './state-view.js';

const snap = (state: unknown, key = 'k') => ({ type: 'state.snapshot', data: { key, state } });
const delta = (ops: unknown[] | undefined, extra: Record<string, unknown> = {}) => ({ type: 'state.delta', data: { key: 'k', ...(ops ? { delta: ops } : {}), ...extra } });

describe('state view', () => {
  it('applies add, replace and remove; skips move, copy, test and what does not apply', () => {
    const [c] = stateOf([
      snap({ a: 1, list: [1, 2] }),
      delta([
        { op: 'add', path: '/b', value: { x: 1 } },
        { op: 'replace', path: '/a', value: 2 },
        { op: 'remove', path: '/list/0' },
        { op: 'add', path: '/list/-', value: 9 },
        { op: 'add', path: '/b/y~1z', value: true },
        { op: 'copy', from: '/a', path: '/c' },
        { op: 'move', from: '/a', path: '/d' },
        { op: 'test', path: '/a', value: 2 },
        { op: 'replace', path: '/nope', value: 1 },
        { op: 'remove', path: '/list/7' },
        { op: 'add', path: 'no-slash', value: 1 },
        { op: 'add', path: '/__proto__', value: { polluted: true } },
      ]),
    ]);
    expect(c).toMatchObject({ key: 'k', value: { a: 2, list: [2, 9], b: { x: 1, 'y/z': true } }, applied: 5, skipped: 7, gatedPatches: 0 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('counts gated patches and their declared ops, and registers a withheld snapshot without inventing a value', () => {
    const [c] = stateOf([{ type: 'state.snapshot', data: { key: 'k', rev: 3 } }, delta(undefined, { ops: 4 }), delta(undefined), delta([{ op: 'add', path: '/a', value: 1 }])]);
    expect(c).toMatchObject({ withheld: true, value: undefined, gatedPatches: 2, gatedOps: 4, applied: 0, skipped: 1, rev: 3 });
  });

  it('keeps one channel per key and replaces the whole document at the root pointer', () => {
    expect(applyOp({ a: 1 }, { op: 'replace', path: '', value: [1] })).toEqual({ ok: true, doc: [1] });
    const chans = stateOf([snap({ a: 1 }, 'x'), snap({ b: 2 }, 'y'), delta([{ op: 'remove', path: '/a' }])]);
    expect(chans.map((c) => [c.key, c.value])).toEqual([['x', { a: 1 }], ['y', { b: 2 }], ['k', undefined]]);
    expect(chans[2]!.skipped).toBe(1);
  });
});
