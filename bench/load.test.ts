import { describe, expect, it } from 'vitest';
import { rowLoad, withLoad, type LoadProbe } from './load.js';

describe('rowLoad', () => {
  it('is quiet at or below one unit of load per core, at both ends', () => {
    expect(rowLoad(0.4, 2, 2)).toEqual({ start: 0.4, end: 2, cores: 2, noisy: false });
  });
  it('is noisy when the start or the end exceeds one per core', () => {
    expect(rowLoad(2.01, 0.1, 2).noisy).toBe(true);
    expect(rowLoad(0.1, 2.5, 2).noisy).toBe(true);
  });
  it('treats a reading of zero cores as one', () => {
    expect(rowLoad(1.5, 0, 0).noisy).toBe(true);
  });
});

describe('withLoad', () => {
  it('reads the probe before and after the work', async () => {
    const readings = [0.3, 3.1];
    const probe: LoadProbe = { load: () => readings.shift()!, cores: () => 2 };
    const order: string[] = [];
    const { value, load } = await withLoad(probe, async () => {
      order.push(`work after ${readings.length} left`);
      return 7;
    });
    expect(value).toBe(7);
    expect(order).toEqual(['work after 1 left']);
    expect(load).toEqual({ start: 0.3, end: 3.1, cores: 2, noisy: true });
  });
});
