/**
 * `stream`: `parseJsonl` + `validateStream` over a synthetic 10k-Event stream, against
 * `JSON.parse` of each line (what reading the stream costs with no validation at all).
 */
import { parseJsonl, validateStream } from '../../impl/core/stream.js';
import type { Benchmark } from '../harness.js';
import { syntheticStream } from '../inputs.js';

const EVENTS = 10_000;

export const streamBench: Benchmark = {
  name: 'stream',
  unit: 'events',
  what: 'parseJsonl + validateStream (every Event, then the cross-event rules) vs JSON.parse of each line',
  budgetMs: 250,
  async prepare() {
    const text = syntheticStream(EVENTS);
    const check = parseJsonl(text);
    const issues = [...check.issues, ...validateStream(check.events)];
    if (check.events.length !== EVENTS || issues.length > 0) {
      throw new Error(`stream: the synthetic stream must be ${EVENTS} valid Events; got ${check.events.length} events and ${issues.length} issues, first: ${JSON.stringify(issues[0])}`);
    }
    return {
      ours: {
        run() {
          const { events, issues: parseIssues } = parseJsonl(text);
          if (parseIssues.length + validateStream(events).length !== 0) throw new Error('stream: the synthetic stream stopped validating');
          return events.length;
        },
      },
      baseline: {
        run() {
          let n = 0;
          for (const line of text.split('\n')) {
            if (line === '') continue;
            JSON.parse(line);
            n++;
          }
          return n;
        },
      },
    };
  },
};
