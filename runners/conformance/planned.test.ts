/**
 * `aep conformance --list` reads each family's plan and judges nothing: every offline family has a
 * plan, its names are exactly the names a run reports (same order, same suffixes), and naming them
 * calls no implementation function.
 */
import { describe, expect, it } from 'vitest';
import { STANDARD_CORPUS, describeWhenPresent } from '../../impl/test-utils/suites.js';
import { known, later } from './check.js';
import { defaultCorpusDir } from './corpus.js';
import { FAMILIES } from './families/index.js';
import { referenceImplementation } from './implementation.js';
import { plannedFamily } from './planned.js';
import { caseNames, runFamilies } from './runner.js';
import type { Implementation } from './types.js';

/** An implementation every call of which throws: naming a case must not judge it. */
const untouchable = new Proxy({} as Implementation, {
  get: (_t, key) => () => {
    throw new Error(`--list judged a case: it called ${String(key)}`);
  },
});

function sameNames(corpusDir: string): void {
  for (const family of FAMILIES) {
    it(`${family.name}: the plan names every case of a run, in order, without judging one`, async () => {
      expect(family.plan, `${family.name} has no plan`).toBeTypeOf('function');
      const listed = await caseNames(family, corpusDir, untouchable);
      const { checks } = await runFamilies({ corpusDir, families: [family], implementation: referenceImplementation, logger: { info: () => {} } });
      expect(listed).toEqual(checks.map((c) => c.name));
    });
  }
}

describe('every family lists its cases from its plan (our corpus)', () => sameNames(defaultCorpusDir()));
describeWhenPresent(STANDARD_CORPUS, "every family lists its cases from its plan (the standard's corpus)", () => sameNames(STANDARD_CORPUS));

describe('caseNames', () => {
  it("suffixes repeats as a run does, names an empty or broken plan '<family>/fixtures', and never judges", async () => {
    let judged = 0;
    const body = (): null => (judged++, null);
    const twice = plannedFamily({ name: 'f', description: '', detect: () => true, plan: () => [later('f/a', body), later('f/a', body), known({ name: 'f/b', status: 'skip' })] });
    expect(await caseNames(twice, '/nowhere', untouchable)).toEqual(['f/a', 'f/a (2)', 'f/b']);
    expect(judged).toBe(0);
    expect((await twice.run({ corpusDir: '/nowhere', implementation: untouchable, logger: { info: () => {} } })).map((c) => c.status)).toEqual(['pass', 'pass', 'skip']);
    expect(judged).toBe(2);
    const empty = plannedFamily({ name: 'e', description: '', detect: () => true, plan: () => [] });
    expect(await caseNames(empty, '/nowhere', untouchable)).toEqual(['e/fixtures']);
    const broken = plannedFamily({ name: 'b', description: '', detect: () => true, plan: () => { throw new Error('bad fixture'); } });
    expect(await caseNames(broken, '/nowhere', untouchable)).toEqual(['b/fixtures']);
  });
});
