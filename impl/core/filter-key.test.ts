/**
 * `filterKey`: matchers compiled from the same filter share a key (the hub's fan-out matches once
 * for them); and the specialized single-value and list matchers answer as `attrMatch` does.
 */
import { describe, expect, it } from 'vitest';
import { attrMatch, compileFilter, filterKey } from './filter.js';

describe('filterKey', () => {
  it('is the filter text for a compiled matcher, undefined for an invalid filter or a foreign function', () => {
    expect(filterKey(compileFilter({ session: 'a' }))).toBe('{"session":"a"}');
    expect(filterKey(compileFilter({ session: 'a' }))).toBe(filterKey(compileFilter({ session: 'a' })));
    expect(filterKey(compileFilter({}))).toBe('{}');
    expect(filterKey(compileFilter({ session: 'a', type: 'x.*' }))).not.toBe(filterKey(compileFilter({ type: 'x.*', session: 'b' })));
    expect(filterKey(compileFilter({ nope_: 1 }))).toBeUndefined();
    expect(filterKey(() => true)).toBeUndefined();
  });

  it('compiled single values, lists and patterns answer as attrMatch on every value kind', () => {
    const filters = [{ session: 'a' }, { epoch: 0 }, { epoch: 1 }, { flag: true }, { n: 1 }, { session: ['a', 'b'] }, { epoch: [0, 2] }, { type: ['x.*', 'y.z'] }, { type: 'x.*' }, { severity: 'info' }, { capture: 'metadata' }, { session: 'a', epoch: 0 }];
    const values = ['a', 'b', 'A', '', 0, -0, 1, '1', true, 'true', null, undefined, 'x.y', 'x.', 'y.z', 'info', 'metadata', 2];
    const keys = ['session', 'epoch', 'flag', 'n', 'type', 'severity', 'capture'];
    for (const filter of filters) {
      const match = compileFilter(filter);
      for (const key of keys) {
        for (const value of values) {
          const event: Record<string, unknown> = { session: 'a', type: 'x.y' };
          if (value === undefined) delete event[key];
          else event[key] = value;
          expect([filter, key, value, match(event)]).toEqual([filter, key, value, attrMatch(filter, event)]);
        }
      }
    }
  });
});
