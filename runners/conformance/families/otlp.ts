/**
 * otlp (AEP-0005 §3, §5.3): pinned golden events project to exactly the pinned LogRecord
 * under the default exporter settings (`max_capture` metadata): severity table, `gen_ai.*`
 * hoisting, traceparent parsing, body down-leveling.
 */
import { fail, known, later } from '../check.js';
import { jsonDiff } from '../compare.js';
import { filesExist, GOLDEN_FILE, goldenLabel, goldenPins, readJsonFixture, readJsonlFixture, strayPinDetail } from '../fixtures.js';
import { plannedFamily } from '../planned.js';
import type { Family } from '../types.js';

const PINS = 'otlp/otlp-expected.json';

export const family: Family = plannedFamily({
  name: 'otlp',
  description: 'OTLP LogRecord projection of pinned golden events, default max_capture',
  detect: (dir) => filesExist(dir, GOLDEN_FILE, PINS),
  plan({ corpusDir, implementation: impl }) {
    const golden = readJsonlFixture(corpusDir, GOLDEN_FILE);
    const pins = goldenPins(readJsonFixture(corpusDir, PINS), PINS, golden.length);
    return pins.map(({ key, index, pin }) => {
      if (index === null) return known(fail(`otlp/${key}`, strayPinDetail(PINS, key, golden.length)));
      const event = golden[index]!.value;
      return later(`otlp/${goldenLabel(index, event)}`, () => jsonDiff(pin, impl.toOtlp(event)), { event, pin });
    });
  },
});
