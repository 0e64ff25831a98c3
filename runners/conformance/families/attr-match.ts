/**
 * attr-match (AEP-0003 §6): `match` cases pin the verdict of a valid filter against an
 * event; `invalid` filters MUST be refused by the validator (fail closed).
 */
import { later } from '../check.js';
import { caseList, caseName, filesExist, readJsonFixture } from '../fixtures.js';
import { plannedFamily } from '../planned.js';
import type { Family } from '../types.js';

const FILE = 'attr-match/cases.json';

export const family: Family = plannedFamily({
  name: 'attr-match',
  description: 'filter verdicts match the pins, and every malformed filter is refused (fail closed)',
  detect: (dir) => filesExist(dir, FILE),
  plan({ corpusDir, implementation: impl }) {
    const file = readJsonFixture(corpusDir, FILE);
    const matches = caseList(file, FILE, 'match').map((c, i) =>
      later(`attr-match/${caseName(c, i)}`, () => {
        if (typeof c.match !== 'boolean') return `fixture: case has no boolean "match" verdict`;
        const refusal = impl.validateFilter(c.filter);
        if (refusal !== null) return `a valid filter was refused: ${String(refusal)}`;
        const verdict = impl.attrMatch(c.filter, c.event);
        return verdict === c.match ? null : `expected match=${c.match}, got ${JSON.stringify(verdict)}`;
      }, c),
    );
    const refusals = caseList(file, FILE, 'invalid').map((c, i) =>
      later(`attr-match/invalid: ${caseName(c, i)}`, () => {
        const refusal = impl.validateFilter(c.filter);
        if (typeof refusal === 'string' && refusal !== '') return null;
        return `accepted a filter that must be refused (validateFilter returned ${JSON.stringify(refusal)})`;
      }, c),
    );
    return [...matches, ...refusals];
  },
});
