/**
 * golden: every event of the golden stream is valid on its own (AEP-0001 §5, AEP-0002
 * payload schemas) and the whole stream passes the cross-event rules.
 */
import { renderIssue, type Issue } from '../../../impl/core/issue.js';
import { later } from '../check.js';
import { filesExist, GOLDEN_FILE, parseJsonlFixture, readText } from '../fixtures.js';
import { plannedFamily } from '../planned.js';
import type { Family, SyncCase } from '../types.js';

/** `null` for an empty issue list, else the first few rendered issues. */
export function noIssues(issues: unknown): string | null {
  if (!Array.isArray(issues)) return `validator returned ${JSON.stringify(issues) ?? String(issues)} instead of an issue list`;
  if (issues.length === 0) return null;
  const shown = (issues as Issue[]).slice(0, 3).map(renderIssue).join('; ');
  return `${issues.length} issue(s): ${shown}${issues.length > 3 ? '; ...' : ''}`;
}

function typeOf(value: unknown): string {
  const t = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
  return typeof t === 'string' ? ` ${t}` : '';
}

export const family: Family = plannedFamily({
  name: 'golden',
  description: 'every golden event is valid, and the whole golden stream passes the cross-event rules',
  detect: (dir) => filesExist(dir, GOLDEN_FILE),
  plan({ corpusDir, implementation: impl }) {
    // Read once: the per-line checks and parseJsonl's check see the same text.
    const text = readText(corpusDir, GOLDEN_FILE);
    const lines = parseJsonlFixture(text, GOLDEN_FILE);
    const checks: SyncCase[] = lines.map(({ line, value }) =>
      later(`golden/line ${line}${typeOf(value)}`, () => noIssues(impl.validateEvent(value)), value),
    );
    checks.push(later('golden/stream', () => noIssues(impl.validateStream(lines.map((l) => l.value))), lines.map((l) => l.value)));
    checks.push(
      later('golden/parse', () => {
        const parsed = impl.parseJsonl(text);
        const problem = noIssues(parsed.issues);
        if (problem) return `parseJsonl: ${problem}`;
        if (parsed.events.length !== lines.length) return `parseJsonl returned ${parsed.events.length} events, the file has ${lines.length}`;
        return null;
      }, lines.map((l) => l.value)),
    );
    return checks;
  },
});
