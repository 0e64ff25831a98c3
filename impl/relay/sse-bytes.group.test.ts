/**
 * `batchBytes` builds a batch's text as parts of at most 64 messages, each encoded into one
 * buffer: the bytes are exactly the UTF-8 of the reference messages (`sseEvent(event,
 * renderAt(rec, ceiling))`) for batches around and across part boundaries, ASCII or not
 * (two-byte, Latin-1 and astral characters, in any part), at every ceiling, with and without a
 * fan-out's shared list, and for selections cut from a larger one.
 */
import { describe, expect, it } from 'vitest';
import type { Received } from './buffer.js';
import { renderAt } from './render.js';
import { batchBytes, batchText, type SharedBatches } from './sse-bytes.js';
import { sseEvent } from './sse-format.js';

const CEILINGS = [undefined, 'full', 'redacted', 'metadata', 'none'] as const;
const TEXTS = ['plain', 'caf\u00e9', '\u0141\u00f3d\u017a', 'emoji \u{1F600}', '\u00ff'];

function rec(i: number, nonAscii: ReadonlySet<number>): Received {
  const text = nonAscii.has(i) ? TEXTS[1 + (i % 4)]! : 'plain';
  const event: Record<string, unknown> = { aep: '0.1', id: `g-${i}`, type: 'tool.completed', time: '2026-11-30T06:00:00.000Z', source: 'aep://h/agent/a/session/s', agent: 'a', session: i % 9 === 4 ? 'bad\nname' : `s${i % 3}`, seq: i * 37, epoch: i % 5, capture: 'full', data: { tool: { name: 'Edit', call_id: `k${i}` }, status: 'success', result: `${text} ${i}` } };
  if (i % 11 === 10) delete event.seq;
  const raw = JSON.stringify(event);
  return { event: JSON.parse(raw), raw } as Received;
}

const reference = (recs: readonly Received[], ceiling: (typeof CEILINGS)[number]): Buffer => Buffer.from(recs.map((r) => sseEvent(r.event, renderAt(r, ceiling))).join(''), 'utf8');

describe('batchBytes in parts', () => {
  const sizes = [1, 63, 64, 65, 128, 129, 300];
  const mixes: Array<ReadonlySet<number>> = [new Set(), new Set([0]), new Set([64]), new Set([299, 128]), new Set(Array.from({ length: 300 }, (_, i) => i))];

  it('is exactly the UTF-8 of the reference messages, shared list or not', () => {
    for (const size of sizes) {
      for (const mix of mixes) {
        const recs = Array.from({ length: size }, (_, i) => rec(i, mix));
        for (const ceiling of CEILINGS) {
          const expected = reference(recs, ceiling);
          expect(batchBytes([...recs], ceiling).equals(expected)).toBe(true);
          expect(batchBytes([...recs], ceiling, []).equals(expected)).toBe(true);
          expect(Buffer.from(batchText(recs, ceiling), 'utf8').equals(expected)).toBe(true);
        }
      }
    }
  });

  it('cuts exactly the reference messages from a larger selection of several parts', () => {
    for (const mix of mixes) {
      const all = Array.from({ length: 300 }, (_, i) => rec(i, mix));
      for (const ceiling of CEILINGS) {
        const shared: SharedBatches = [];
        expect(batchBytes(all, ceiling, shared).equals(reference(all, ceiling))).toBe(true);
        for (const sub of [all.slice(60, 70), all.filter((_, i) => i % 3 === 0), all.slice(1)]) {
          expect(batchBytes(sub, ceiling, shared).equals(reference(sub, ceiling))).toBe(true);
        }
      }
    }
  });
});
