/**
 * capture-gating (AEP-0006, AEP-0002 §5.3): `gateFormValues(fields, values, ceiling,
 * redact)` returns exactly the pinned values object. Kept free text goes through the
 * implementation's own `redactText`, as an emitter would run it.
 */
import { later } from '../check.js';
import { jsonDiff } from '../compare.js';
import { caseList, caseName, filesExist, FixtureError, readJsonFixture } from '../fixtures.js';
import { plannedFamily } from '../planned.js';
import type { Family } from '../types.js';

const FILE = 'capture-gating/cases.json';

export const family: Family = plannedFamily({
  name: 'capture-gating',
  description: 'form answer values are gated by field type: free text needs redacted, structural values survive metadata',
  detect: (dir) => filesExist(dir, FILE),
  plan({ corpusDir, implementation: impl }) {
    const cases = caseList(readJsonFixture(corpusDir, FILE), FILE, 'cases');
    return cases.map((c, i) =>
      later(`capture-gating/${caseName(c, i)}`, () => {
        if (typeof c.ceiling !== 'string' || !('expect' in c)) {
          throw new FixtureError(`${FILE}: case ${caseName(c, i)} needs "ceiling" and "expect"`);
        }
        const before = JSON.stringify(c.values);
        const out = impl.gateFormValues(c.fields, c.values, c.ceiling, (text) => impl.redactText(text, {}));
        if (JSON.stringify(c.values) !== before) return 'gateFormValues modified its input values';
        return jsonDiff(c.expect, out);
      }, c),
    );
  },
});
