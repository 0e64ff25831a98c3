import { describe, expect, it } from 'vitest';
import { WideColumn } from './wide-column.js';

describe('WideColumn', () => {
  it('holds 32-bit values narrow and widens, keeping every value, at the first one past 32 bits', () => {
    const c = new WideColumn(2);
    c.set(0, -5);
    c.set(1, 2 ** 31 - 1);
    expect(c.wide).toBe(false);
    c.grow(4);
    expect([c.get(0), c.get(1), c.length]).toEqual([-5, 2 ** 31 - 1, 4]);
    c.set(2, 2 ** 53 - 1);
    c.set(3, -(2 ** 31) - 1);
    expect(c.wide).toBe(true);
    c.grow(8);
    expect([0, 1, 2, 3].map((i) => c.get(i))).toEqual([-5, 2 ** 31 - 1, 2 ** 53 - 1, -(2 ** 31) - 1]);
  });
});
