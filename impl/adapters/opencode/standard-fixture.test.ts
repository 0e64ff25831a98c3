/**
 * The standard's own Annex A pins for OpenCode and Kilo Code (read from the standard's checkout
 * at test time, never copied; `AEP_STANDARD_DIR`, default ../shared/aep-standard): every moment
 * and the todo diff through our pure mappers. Skips when the checkout is absent.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { family } from '../../../runners/conformance/families/mappings.js';
import { referenceImplementation } from '../../../runners/conformance/implementation.js';
import { describeWhenPresent } from '../../test-utils/suites.js';

const corpus = join(process.env.AEP_STANDARD_DIR ?? '../shared/aep-standard', 'conformance', 'fixtures');
const files = ['opencode', 'kilocode'].map((s) => join(corpus, 'mappings', `${s}.json`));

describeWhenPresent(files, "the standard's mappings/opencode.json and kilocode.json", () => {
  it('every moment and the todos pass through mapMoment and diffTodos', async () => {
    const lines: string[] = [];
    const checks = (await family.run({ corpusDir: corpus, implementation: referenceImplementation, logger: { info: (l: string) => lines.push(l) } })).filter((c) => /^mappings\/(opencode|kilocode)\//.test(c.name));
    expect(checks.filter((c) => c.status !== 'pass')).toEqual([]);
    expect(checks.map((c) => c.name)).toEqual(expect.arrayContaining(['mappings/opencode/todos', 'mappings/kilocode/todos', 'mappings/kilocode/question_asked', 'mappings/opencode/permission_ask']));
    expect(checks.length).toBeGreaterThanOrEqual(40);
    // sse_modes belongs to the bridges family (bridge-sources.ts), which reads it: not skipped here.
    expect(lines.filter((l) => l.includes('opencode.json') && l.includes('not run'))).toEqual([]);
  });
});
