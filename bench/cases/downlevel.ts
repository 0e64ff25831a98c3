/**
 * `downlevel`: `downlevel(event, 'metadata')` over the golden corpus, against `structuredClone`
 * of each Event (the copy any non-mutating down-leveler makes anyway).
 */
import { captureRank, type AepEvent } from '../../impl/core/event.js';
import { downlevel } from '../../impl/core/capture.js';
import { readGolden } from '../corpus.js';
import type { Benchmark } from '../harness.js';

export const downlevelBench: Benchmark = {
  name: 'downlevel',
  unit: 'events',
  what: "downlevel to 'metadata' (prune by capture annotations, degrade starred fields) vs structuredClone",
  budgetMs: 150,
  async prepare() {
    const events = readGolden() as unknown as AepEvent[];
    const above = events.filter((e) => e.capture === 'redacted' || e.capture === 'full').length;
    if (above === 0) throw new Error('downlevel: the golden corpus has no Event above metadata; nothing would be pruned');
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
          return events.length;
        },
      },
      baseline: {
        run() {
          for (const e of events) structuredClone(e);
          return events.length;
        },
      },
    };
  },
};
