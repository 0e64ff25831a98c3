/**
 * Within one fan-out, a selection whose records all sit in a larger one built at the same ceiling
 * is cut from that one's bytes (`batchBytes` with a shared list): the cut bytes are exactly the
 * reference messages, for adjacent and scattered records, every ceiling, any digit count, and
 * records the larger batch does not hold (built instead); non-ASCII text is never cut.
 */
import { describe, expect, it } from 'vitest';
import type { Received } from './buffer.js';
import { renderAt } from './render.js';
import { batchBytes, type SharedBatches } from './sse-bytes.js';
import { sseEvent } from './sse-format.js';

const SEQS = [0, 9, 10, 99, 100, 12345, 9007199254740991, 3, 1000000];

function rec(i: number, text = 'secret'): Received {
  const event: Record<string, unknown> = { aep: '0.1', id: `c-${i}`, type: i % 3 === 0 ? 'progress.status' : 'tool.completed', time: '2026-11-30T06:00:00.000Z', source: 'aep://h/agent/a/session/s', agent: 'a', session: i % 4 === 3 ? 'bad\rname' : `s${i % 2}`, seq: SEQS[i % SEQS.length], epoch: i % 5 === 2 ? 17 : 0, capture: 'full', data: i % 3 === 0 ? { phase: 'working', message: `${text} ${i}` } : { tool: { name: 'Edit', call_id: `k${i}` }, status: 'success', result: `${text} ${i}` } };
  if (i % 7 === 6) delete event.seq;
  if (i % 8 === 5) delete event.epoch;
  const raw = JSON.stringify(event);
  return { event: JSON.parse(raw), raw } as Received;
}

const reference = (recs: readonly Received[], ceiling: (typeof CEILINGS)[number]): string => recs.map((r) => sseEvent(r.event, renderAt(r, ceiling))).join('');
const CEILINGS = [undefined, 'full', 'redacted', 'metadata', 'none'] as const;

describe('batchBytes cut from a larger selection of the same fan-out', () => {
  const all = Array.from({ length: 30 }, (_, i) => rec(i));
  const subsets: Array<readonly Received[]> = [
    all.slice(4, 9), // adjacent: a view of the larger bytes
    all.filter((_, i) => i % 2 === 0),
    all.filter((_, i) => i % 7 === 6 || i === 29),
    [all[0]!],
    [all[29]!],
    all.slice(0, 29),
  ];

  it('cuts exactly the reference messages at every ceiling', () => {
    for (const ceiling of CEILINGS) {
      const shared: SharedBatches = [];
      const whole = batchBytes(all, ceiling, shared);
      expect(whole.toString('utf8')).toBe(reference(all, ceiling));
      for (const sub of subsets) {
        const bytes = batchBytes(sub, ceiling, shared);
        expect([ceiling, bytes.toString('utf8')]).toEqual([ceiling, reference(sub, ceiling)]);
        expect(bytes.buffer === whole.buffer || sub.length > 1).toBe(true);
        expect(batchBytes([...sub], ceiling, shared)).toBe(bytes);
      }
      expect(batchBytes(all.slice(4, 9), ceiling, shared).buffer).toBe(whole.buffer);
    }
  });

  it('builds anew what the larger selection does not hold, out of order, or at another ceiling', () => {
    const shared: SharedBatches = [];
    batchBytes(all, undefined, shared);
    const other = rec(31);
    for (const sub of [[all[3]!, other], [all[5]!, all[2]!]]) expect(batchBytes(sub, undefined, shared).toString('utf8')).toBe(reference(sub, undefined));
    expect(batchBytes(subsets[1]!, 'metadata', shared).toString('utf8')).toBe(reference(subsets[1]!, 'metadata'));
  });

  it('never cuts from a batch with non-ASCII text, and still writes the reference bytes', () => {
    const wide = Array.from({ length: 12 }, (_, i) => rec(i, i === 4 ? 'sécret ü 😀' : 'secret'));
    for (const ceiling of CEILINGS) {
      const shared: SharedBatches = [];
      const whole = batchBytes(wide, ceiling, shared);
      const sub = wide.filter((_, i) => i % 3 !== 1);
      const bytes = batchBytes(sub, ceiling, shared);
      expect(bytes.toString('utf8')).toBe(reference(sub, ceiling));
      expect(bytes.buffer === whole.buffer && bytes.byteOffset >= whole.byteOffset && bytes.byteOffset < whole.byteOffset + whole.length).toBe(false);
    }
  });
});
