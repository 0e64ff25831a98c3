/**
 * invalid: every case MUST be rejected. A single `event` is validated as a one-line stream,
 * `events` as a stream (cross-event rules apply). A throw is a failure, not a rejection.
 * When a case carries `rule_id` (our corpus does), that rule must be among the issues.
 */
import type { Issue } from '../../../impl/core/issue.js';
import { attempt } from '../check.js';
import { caseList, caseName, filesExist, FixtureError, readJsonFixture } from '../fixtures.js';
import type { Family, Implementation } from '../types.js';

const FILE = 'invalid/cases.json';

function issuesFor(impl: Implementation, events: unknown[]): Issue[] {
  const perEvent = events.flatMap((e) => {
    const found = impl.validateEvent(e);
    if (!Array.isArray(found)) throw new Error(`validateEvent returned ${JSON.stringify(found)} instead of an issue list`);
    return found;
  });
  const stream = impl.validateStream(events);
  if (!Array.isArray(stream)) throw new Error(`validateStream returned ${JSON.stringify(stream)} instead of an issue list`);
  return [...perEvent, ...stream];
}

export const family: Family = {
  name: 'invalid',
  description: 'every invalid case is rejected with at least one issue (and with its named rule id when the case gives one)',
  detect: (dir) => filesExist(dir, FILE),
  run({ corpusDir, implementation: impl }) {
    const cases = caseList(readJsonFixture(corpusDir, FILE), FILE, 'cases');
    return cases.map((c, i) =>
      attempt(`invalid/${caseName(c, i)}`, () => {
        const events = Array.isArray(c.events) ? c.events : 'event' in c ? [c.event] : null;
        if (events === null) throw new FixtureError(`${FILE}: case ${caseName(c, i)} has neither "event" nor "events"`);
        const issues = issuesFor(impl, events);
        if (issues.length === 0) return `accepted an invalid input (the case violates ${String(c.rule ?? 'an unnamed rule')})`;
        if (typeof c.rule_id === 'string' && !issues.some((x) => x.rule === c.rule_id)) {
          const got = [...new Set(issues.map((x) => x.rule))].join(', ');
          return `rejected, but not for rule ${c.rule_id}; issues carried: ${got}`;
        }
        return null;
      }),
    );
  },
};
