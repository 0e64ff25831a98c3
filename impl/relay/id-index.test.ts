/**
 * The open-addressing dedupe table against a `Set` model, with hashes forced into a few values so
 * runs, wrap-around and backward-shift deletion are exercised; and `(source, id)` pairs whose
 * 32-bit hashes collide, told apart through the buffer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../core/event.js';
import { ReplayBuffer } from './buffer.js';
import { hashText, IdIndex, pairHash } from './id-index.js';

describe('IdIndex', () => {
  it('finds exactly the slots added and not removed, whatever the collisions', () => {
    const op = fc.record({ add: fc.boolean(), slot: fc.nat(40), hash: fc.constantFrom(0, 1, 7, 8, 15, 16, 0xffffffff) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const index = new IdIndex(41);
        const model = new Map<number, number>();
        for (const o of ops) {
          if (o.add && !model.has(o.slot)) {
            index.add(o.slot, o.hash);
            model.set(o.slot, o.hash);
          } else if (!o.add && model.has(o.slot)) {
            index.remove(o.slot);
            model.delete(o.slot);
          }
          expect(index.size).toBe(model.size);
          for (let slot = 0; slot <= 40; slot++) {
            const hash = model.get(slot);
            if (hash !== undefined) expect(index.find(hash, (s) => s === slot)).toBe(slot);
          }
          for (const hash of [0, 1, 7, 8, 15, 16, 0xffffffff]) {
            const want = [...model].filter(([, h]) => h === hash).map(([s]) => s);
            const got: number[] = [];
            index.find(hash, (s) => (got.push(s), false));
            expect(got.sort((a, b) => a - b)).toEqual(want.sort((a, b) => a - b));
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

/**
 * Two ids starting with `prefix` with one `pairHash` under `source` in this process (its seed is
 * random): a birthday search, expected to succeed within about 77,000 ids. The ids are not
 * `prefix + n`: for about one seed in forty the hash is one-to-one on those two million strings
 * (found by running the search under 40 seeds), and the test failed by chance. Each id here joins
 * `n` to a scrambled copy of it; 600 searches under random seeds all succeeded within 232,000 ids.
 */
function collidingIds(source: string, prefix: string): [string, string] {
  const seen = new Map<number, string>();
  const sourceHash = hashText(source);
  for (let n = 0; n < 2_000_000; n++) {
    const id = `${prefix}${n.toString(36)}.${(Math.imul(n, 0x9e3779b1) >>> 0).toString(36)}`;
    const h = pairHash(sourceHash, id);
    const other = seen.get(h);
    if (other !== undefined) return [other, id];
    seen.set(h, id);
  }
  throw new Error('no collision among 2,000,000 ids: the hash is not 32 bits wide any more?');
}

describe('the hash seed and finish', () => {
  it('is drawn per process, not the plain FNV basis (a chance of 2^-32 that it is)', () => {
    expect(hashText('src')).not.toBe(hashText('src', 0x811c9dc5));
  });

  it('spreads ids that differ only in the high bits of their characters over the table', () => {
    // 4096 ids of 12 characters, each 'a' or 'a' with bit 15 set: FNV-1a alone gives them one value
    // in the low 15 bits (one run of a 16 384-entry table) under every basis.
    const ids: string[] = [];
    for (let m = 0; m < 4096; m++) {
      let id = '';
      for (let bit = 0; bit < 12; bit++) id += String.fromCharCode(m & (1 << bit) ? 0x8061 : 0x61);
      ids.push(id);
    }
    const low = new Set(ids.map((id) => hashText(id, 12345) & 0x7fff));
    expect(low.size).toBe(1); // the weakness the finish removes
    const homes = new Set(ids.map((id) => pairHash(hashText('src'), id) & 0x3fff));
    expect(homes.size).toBeGreaterThan(3000);
  });
});

describe('pairs whose hashes collide', () => {
  const event = (id: string, seq: number): AepEvent => ({ aep: '0.1', id, type: 'progress.status', time: 't', source: 'src', agent: 'a', session: 's', seq, epoch: 0 }) as AepEvent;
  // Found by search in this process: the second pair's ids are spelled with an escape in the text,
  // so they are compared through the parse.
  for (const prefix of ['c-', 'n\n'] as const) {
    it(`holds and dedupes two ids ${JSON.stringify(prefix)}... of one hash apart`, () => {
      const [a, b] = collidingIds('src', prefix);
      expect(pairHash(hashText('src'), a)).toBe(pairHash(hashText('src'), b));
      const buffer = new ReplayBuffer(2, 1);
      const first = event(a, 1);
      expect(buffer.admit({ event: first, raw: JSON.stringify(first) }).buffered).toBe(true);
      expect(buffer.has(event(b, 2))).toBe(false);
      const second = event(b, 2);
      expect(buffer.admit({ event: second, raw: JSON.stringify(second) }).buffered).toBe(true);
      expect(buffer.admit({ event: first, raw: JSON.stringify(first) }).buffered).toBe(false);
      expect(buffer.admit({ event: second, raw: JSON.stringify(second) }).buffered).toBe(false);
      expect(buffer.replayAll().map((h) => h.event.id)).toEqual([a, b]);
      expect(buffer.replayAll().map((h) => (h as unknown as { id: string }).id)).toEqual([a, b]);
      const third = event('other', 3);
      buffer.admit({ event: third, raw: JSON.stringify(third) }); // evicts `a`
      expect(buffer.has(first)).toBe(false);
      expect(buffer.has(second)).toBe(true);
    });
  }
});
