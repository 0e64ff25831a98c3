import { describe, expect, it } from 'vitest';
import { median } from './stats.js';

describe('median', () => {
  it('takes the middle of an odd count, unsorted input', () => {
    expect(median([9, 1, 5])).toBe(5);
  });
  it('averages the two middle values of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
  it('does not reorder its input', () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
  it('refuses an empty list', () => {
    expect(() => median([])).toThrow(RangeError);
  });
});
