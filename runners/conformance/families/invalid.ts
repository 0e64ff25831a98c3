/**
 * invalid: every case MUST be rejected. A single `event` is validated as a one-line stream,
 * `events` as a stream (cross-event rules apply), and `jsonl` (our corpus, for the line-level
 * rules) as raw JSONL text, its first line first padded with spaces to `pad_to_bytes` bytes
 * when that is given. A throw is a failure, not a rejection.
 * When a case carries `rule_id` (our corpus does), that rule must be among the issues.
 */
import type { Issue } from '../../../impl/core/issue.js';
import { later } from '../check.js';
import { caseList, caseName, filesExist, FixtureError, readJsonFixture } from '../fixtures.js';
import { plannedFamily } from '../planned.js';
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

/** `jsonl` text with its first line padded by trailing spaces to `padTo` UTF-8 bytes. */
export function padFirstLine(text: string, padTo: unknown): string {
  if (typeof padTo !== 'number') return text;
  const cut = text.indexOf('\n');
  const first = cut === -1 ? text : text.slice(0, cut);
  const missing = padTo - Buffer.byteLength(first, 'utf8');
  return missing > 0 ? first + ' '.repeat(missing) + (cut === -1 ? '' : text.slice(cut)) : text;
}

function jsonlIssues(impl: Implementation, text: string): Issue[] {
  const parsed = impl.parseJsonl(text);
  if (!Array.isArray(parsed?.issues) || !Array.isArray(parsed?.events)) throw new Error('parseJsonl returned no {events, issues}');
  // Our parser returns `{line, value}` entries; a bare-value parser is accepted too.
  const values = parsed.events.map((e) => (typeof e === 'object' && e !== null && 'line' in e && 'value' in e ? (e as { value: unknown }).value : e));
  return [...parsed.issues, ...issuesFor(impl, values)];
}

export const family: Family = plannedFamily({
  name: 'invalid',
  description: 'every invalid case is rejected with at least one issue (and with its named rule id when the case gives one)',
  detect: (dir) => filesExist(dir, FILE),
  plan({ corpusDir, implementation: impl }) {
    const cases = caseList(readJsonFixture(corpusDir, FILE), FILE, 'cases');
    return cases.map((c, i) =>
      later(`invalid/${caseName(c, i)}`, () => {
        let issues: Issue[];
        if (Array.isArray(c.events)) issues = issuesFor(impl, c.events);
        else if ('event' in c) issues = issuesFor(impl, [c.event]);
        else if (typeof c.jsonl === 'string') issues = jsonlIssues(impl, padFirstLine(c.jsonl, c.pad_to_bytes));
        else throw new FixtureError(`${FILE}: case ${caseName(c, i)} has none of "event", "events", "jsonl"`);
        if (issues.length === 0) return `accepted an invalid input (the case violates ${String(c.rule ?? 'an unnamed rule')})`;
        if (typeof c.rule_id === 'string' && !issues.some((x) => x.rule === c.rule_id)) {
          const got = [...new Set(issues.map((x) => x.rule))].join(', ');
          return `rejected, but not for rule ${c.rule_id}; issues carried: ${got}`;
        }
        return null;
      }, c),
    );
  },
});
