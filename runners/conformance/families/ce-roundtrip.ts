/**
 * ce-roundtrip (AEP-0005 §2, §5 items 1, 2, 5): every golden event projects to its pinned
 * CloudEvent (member order ignored) which is a legal CloudEvents 1.0 event, the pinned CloudEvent maps back to the golden event,
 * forward-then-inverse is the identity, and hand-authored inbound cases map exactly.
 */
import { fail, known, later } from '../check.js';
import { jsonDiff } from '../compare.js';
import { caseList, caseName, filesExist, GOLDEN_FILE, readJsonFixture, readJsonlFixture } from '../fixtures.js';
import { plannedFamily } from '../planned.js';
import type { Family, SyncCase } from '../types.js';

const PINS = 'ce-roundtrip/ce-expected.jsonl';
const INBOUND = 'ce-roundtrip/inbound-cases.json';

/**
 * Why `ce` is not a CloudEvents 1.0 JSON-format event (AEP-0005 §5 item 2), or `null`:
 * the four required attributes, attribute names of lowercase letters and digits, and scalar
 * attribute values (only `data` may be structured).
 */
export function cloudEventProblem(ce: unknown): string | null {
  if (typeof ce !== 'object' || ce === null || Array.isArray(ce)) return `not a CloudEvent: ${JSON.stringify(ce)}`;
  const attrs = ce as Record<string, unknown>;
  if (attrs.specversion !== '1.0') return `specversion must be "1.0", got ${JSON.stringify(attrs.specversion)}`;
  for (const required of ['id', 'source', 'type']) {
    if (typeof attrs[required] !== 'string' || attrs[required] === '') return `CloudEvents requires a non-empty string "${required}"`;
  }
  for (const [name, value] of Object.entries(attrs)) {
    if (name === 'data' || name === 'data_base64') continue;
    if (!/^[a-z0-9]+$/.test(name)) return `attribute name "${name}" is not CloudEvents-legal (lowercase letters and digits only)`;
    if (value !== null && typeof value === 'object') return `attribute "${name}" holds a structured value; only data may`;
  }
  return null;
}

function label(line: number, event: unknown): string {
  const t = typeof event === 'object' && event !== null ? (event as { type?: unknown }).type : undefined;
  return `line ${line}${typeof t === 'string' ? ` ${t}` : ''}`;
}

export const family: Family = plannedFamily({
  name: 'ce-roundtrip',
  description: 'CloudEvents projection: forward pins, inverse of the pins, round-trip identity, inbound preserve path',
  detect: (dir) => filesExist(dir, GOLDEN_FILE, PINS),
  plan({ corpusDir, implementation: impl }) {
    const golden = readJsonlFixture(corpusDir, GOLDEN_FILE);
    const pins = readJsonlFixture(corpusDir, PINS);
    const checks: SyncCase[] = [];
    if (pins.length !== golden.length) {
      checks.push(known(fail('ce-roundtrip/coverage', `${PINS} has ${pins.length} pins for ${golden.length} golden events`)));
    }
    golden.forEach(({ line, value: event }, i) => {
      const pin = pins[i]?.value;
      if (pin === undefined) return;
      const at = label(line, event);
      checks.push(
        later(`ce-roundtrip/forward ${at}`, () => {
          const ce = impl.toCloudEvent(event);
          return jsonDiff(pin, ce) ?? cloudEventProblem(ce);
        }, { event, pin }),
      );
      checks.push(later(`ce-roundtrip/inverse ${at}`, () => jsonDiff(event, impl.fromCloudEvent(pin)), { event, pin }));
      checks.push(later(`ce-roundtrip/round-trip ${at}`, () => jsonDiff(event, impl.fromCloudEvent(impl.toCloudEvent(event))), event));
    });
    if (filesExist(corpusDir, INBOUND)) {
      const cases = caseList(readJsonFixture(corpusDir, INBOUND), INBOUND, 'cases');
      cases.forEach((c, i) => {
        checks.push(later(`ce-roundtrip/inbound: ${caseName(c, i)}`, () => jsonDiff(c.expected ?? null, impl.fromCloudEvent(c.ce)), c));
      });
    }
    return checks;
  },
});
