import { describe, expect, it } from 'vitest';
import { InOrder } from './beat-order.js';

describe('InOrder', () => {
  it('the demo play order 2, 3, 5, 4, 1 prints 1..5', () => {
    const o = new InOrder();
    const printed: string[] = [];
    for (const i of [1, 2, 4, 3, 0]) printed.push(...o.add(i, `beat ${i + 1}`));
    expect(printed).toEqual(['beat 1', 'beat 2', 'beat 3', 'beat 4', 'beat 5']);
    expect(o.rest()).toEqual([]);
  });
  it('in order releases at once; what a failure left held comes out in order', () => {
    const o = new InOrder();
    expect(o.add(0, 'a')).toEqual(['a']);
    expect(o.add(3, 'd')).toEqual([]);
    expect(o.add(2, 'c')).toEqual([]);
    expect(o.rest()).toEqual(['c', 'd']);
  });
});
