import { describe, expect, it } from 'vitest';
import { SortedDeque } from './sorted-deque.js';

/** Items are `[key, tag]`: the key orders them, the tag tells equal keys apart. */
type Item = readonly [number, string];
const make = (): SortedDeque<Item, number> => new SortedDeque<Item, number>((i) => i[0], (a, b) => a - b);

/** A tiny deterministic PRNG (mulberry32), so a failing sequence can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('SortedDeque', () => {
  it('starts empty', () => {
    const d = make();
    expect(d.length).toBe(0);
    expect(d.first()).toBeUndefined();
    expect(d.shift()).toBeUndefined();
    expect(d.toArray()).toEqual([]);
    expect(d.after(0)).toEqual([]);
  });

  it('keeps key order whatever the insertion order, equal keys in insertion order', () => {
    const d = make();
    for (const item of [[5, 'a'], [1, 'b'], [5, 'c'], [3, 'd'], [1, 'e'], [9, 'f'], [0, 'g'], [5, 'h']] as Item[]) d.insert(item);
    expect(d.toArray().map((i) => i[1]).join('')).toBe('gbedachf');
    expect(d.length).toBe(8);
    expect(d.first()).toEqual([0, 'g']);
  });

  it('shifts from the front and stays ordered across compactions', () => {
    const d = make();
    for (let k = 0; k < 200; k++) d.insert([k, `${k}`]);
    for (let k = 0; k < 150; k++) expect(d.shift()).toEqual([k, `${k}`]);
    expect(d.length).toBe(50);
    d.insert([10, 'early']); // below everything held: goes first
    d.insert([175, 'mid']);
    expect(d.first()).toEqual([10, 'early']);
    expect(d.toArray().map((i) => i[0])).toEqual([10, ...Array.from({ length: 26 }, (_, i) => 150 + i), 175, ...Array.from({ length: 24 }, (_, i) => 176 + i)]);
    while (d.length > 0) d.shift();
    expect(d.first()).toBeUndefined();
    d.insert([1, 'again']);
    expect(d.toArray()).toEqual([[1, 'again']]);
  });

  it('after(key) returns exactly the items strictly above key, at every boundary', () => {
    const d = make();
    for (const k of [2, 4, 4, 6]) d.insert([k, `${k}`]);
    d.shift(); // the held part no longer starts at index 0
    expect(d.after(1).map((i) => i[0])).toEqual([4, 4, 6]);
    expect(d.after(2).map((i) => i[0])).toEqual([4, 4, 6]); // 2 was shifted out: not returned
    expect(d.after(3).map((i) => i[0])).toEqual([4, 4, 6]);
    expect(d.after(4).map((i) => i[0])).toEqual([6]);
    expect(d.after(6)).toEqual([]);
    expect(d.after(99)).toEqual([]);
  });

  it('matches a naive sorted array over random inserts and shifts', () => {
    for (const seed of [1, 7, 42, 1234]) {
      const random = rng(seed);
      const d = make();
      const model: Item[] = [];
      let tag = 0;
      for (let step = 0; step < 3000; step++) {
        const r = random();
        if (r < 0.55) {
          // Mostly in order (near the top), sometimes far back: the relay's arrival pattern.
          const top = model.length > 0 ? model[model.length - 1]![0] : 0;
          const key = random() < 0.8 ? top + Math.floor(random() * 3) : Math.floor(random() * (top + 1));
          const item: Item = [key, `t${tag++}`];
          d.insert(item);
          let i = model.length;
          while (i > 0 && model[i - 1]![0] > key) i--;
          model.splice(i, 0, item);
        } else if (r < 0.95) {
          expect(d.shift()).toBe(model.shift());
        } else {
          const probe = Math.floor(random() * 50);
          expect(d.after(probe)).toEqual(model.filter((i) => i[0] > probe));
        }
        expect(d.length).toBe(model.length);
        expect(d.first()).toBe(model[0]);
      }
      expect(d.toArray()).toEqual(model);
    }
  });
});
