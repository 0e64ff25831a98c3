/**
 * ocsf (AEP-0005 §4, §5 item 6): pinned golden events project to exactly the pinned OCSF
 * record (default `max_capture` metadata) and every produced record is class-valid. Golden
 * events without a pin still have to honor §4.1 scope: the three families project to a
 * class-valid record, every other event produces none.
 */
import { fail, known, later } from '../check.js';
import { jsonDiff } from '../compare.js';
import { filesExist, GOLDEN_FILE, goldenLabel, goldenPins, readJsonFixture, readJsonlFixture, strayPinDetail } from '../fixtures.js';
import { plannedFamily } from '../planned.js';
import type { Family } from '../types.js';
import { ocsfClassProblems } from './ocsf-classes.js';

const PINS = 'ocsf/ocsf-expected.json';
const CLASSES = 'ocsf/ocsf-classes.json';

/** The AEP-0005 §4.2 class mapping table: the only types that project. */
export const OCSF_SCOPE: ReadonlySet<string> = new Set([
  'session.started', 'session.ended',
  'tool.requested', 'tool.completed', 'tool.failed', 'tool.denied',
  'attention.requested', 'attention.answered', 'attention.resolved', 'attention.timeout',
]);

function validity(record: unknown, classes: unknown): string | null {
  const problems = ocsfClassProblems(record, classes);
  return problems.length === 0 ? null : `not class-valid: ${problems.join('; ')}`;
}

/** An unpinned event: a §4.2 type gives a class-valid record, any other type gives `null`. */
function scopeProblem(event: unknown, record: unknown, classes: unknown): string | null {
  const type = typeof event === 'object' && event !== null ? (event as { type?: unknown }).type : undefined;
  if (typeof type !== 'string' || !OCSF_SCOPE.has(type)) {
    return record === null ? null : `${String(type)} has no OCSF class (AEP-0005 §4.1) but produced ${JSON.stringify(record)?.slice(0, 80)}`;
  }
  if (record === null || record === undefined) return `${type} is in the §4.2 mapping but produced no record`;
  return validity(record, classes);
}

export const family: Family = plannedFamily({
  name: 'ocsf',
  description: 'OCSF projection: pinned records, class validity against the pinned class subset, §4.1 scope',
  detect: (dir) => filesExist(dir, GOLDEN_FILE, PINS, CLASSES),
  plan({ corpusDir, implementation: impl }) {
    const golden = readJsonlFixture(corpusDir, GOLDEN_FILE);
    const all = goldenPins(readJsonFixture(corpusDir, PINS), PINS, golden.length);
    const pins = new Map(all.map((p) => [p.index, p.pin]));
    const classes = readJsonFixture(corpusDir, CLASSES);
    const stray = all.filter((p) => p.index === null).map((p) => known(fail(`ocsf/${p.key}`, strayPinDetail(PINS, p.key, golden.length))));
    const checks = golden.map(({ value: event }, index) => {
      const pin = pins.get(index);
      if (pin !== undefined) {
        return later(`ocsf/${goldenLabel(index, event)}`, () => {
          const record = impl.toOcsf(event);
          return jsonDiff(pin, record) ?? validity(record, classes);
        }, { event, pin });
      }
      return later(`ocsf/scope ${goldenLabel(index, event)}`, () => scopeProblem(event, impl.toOcsf(event), classes), event);
    });
    return [...stray, ...checks];
  },
});
