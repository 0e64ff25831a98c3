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

describe('pairs whose hashes collide', () => {
  const event = (id: string, seq: number): AepEvent => ({ aep: '0.1', id, type: 'progress.status', time: 't', source: 'src', agent: 'a', session: 's', seq, epoch: 0 }) as AepEvent;
  // Found by search: each pair has one `pairHash` under source `src` (the second one's ids are
  // spelled with an escape in the text, so they are compared through the parse).
  for (const [a, b] of [['c-1039599', 'c-1222382'], ['n\n412789', 'n\n649192']] as const) {
    it(`holds and dedupes ${JSON.stringify(a)} and ${JSON.stringify(b)} apart`, () => {
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
