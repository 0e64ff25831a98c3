/**
 * `downlevel`: `downlevel(event, 'metadata')` over the golden corpus, against `structuredClone`
 * of each Event (the copy any non-mutating down-leveler makes anyway).
 */
import { captureRank, type AepEvent } from '../../impl/core/event.js';
import { downlevel } from '../../impl/core/capture.js';
import { readGolden } from '../corpus.js';
import type { Benchmark } from '../harness.js';

const PLANTED = 'PLANTED-CONTENT-a-metadata-ceiling-removes';

export const downlevelBench: Benchmark = {
  name: 'downlevel',
  unit: 'events',
  what: "downlevel to 'metadata' (prune by capture annotations, degrade starred fields) vs structuredClone",
  budgetMs: 150,
  async prepare() {
    const events = readGolden() as unknown as AepEvent[];
    const above = events.filter((e) => e.capture === 'redacted' || e.capture === 'full').length;
    if (above === 0) throw new Error('downlevel: the golden corpus has no Event above metadata; nothing would be pruned');
    // Planted content: full-capture tool results carrying a marker a metadata ceiling must remove.
    const planted = events
      .filter((e) => e.capture === 'full' && e.type === 'tool.completed')
      .map((e, i) => ({ ...e, id: `${e.id}-planted-${i}`, data: { ...(e.data as Record<string, unknown>), result: `${PLANTED} ${i}` } }) as AepEvent);
    if (planted.length === 0) throw new Error('downlevel: no full-capture tool.completed Event in the golden corpus to plant content into');
    const checkPlanted = (): void => {
      for (const e of planted) {
        const out = downlevel(e, 'metadata');
        if (JSON.stringify(out).includes(PLANTED)) throw new Error(`downlevel: the planted content of ${e.id} survived the metadata ceiling`);
        if (out.capture !== 'metadata') throw new Error(`downlevel: ${e.id} came out at ${String(out.capture)}, expected metadata`);
      }
    };
    checkPlanted();
    for (const e of events) {
      const out = downlevel(e, 'metadata');
      if (out.capture !== undefined && captureRank(out.capture) > captureRank('metadata')) {
        throw new Error(`downlevel: ${e.id} came out at ${out.capture}, above the metadata ceiling`);
      }
    }
    return {
      ours: {
        run() {
          for (const e of events) downlevel(e, 'metadata');
          checkPlanted();
          return events.length + planted.length;
        },
      },
      baseline: {
        run() {
          for (const e of events) structuredClone(e);
          for (const e of planted) JSON.stringify(structuredClone(e)).includes(PLANTED);
          return events.length + planted.length;
        },
      },
    };
  },
};
