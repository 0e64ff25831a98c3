/**
 * redaction (AEP-0003 §9.4): `text_cases` feed `redactText(input, opts)`, `value_cases`
 * feed `redactValue(input, opts)` (judged on the JSON text of the result). Every case may
 * say what the output must contain, must not contain, and (optionally) exactly equal.
 */
import { later } from '../check.js';
import { jsonDiff } from '../compare.js';
import { caseList, caseName, filesExist, FixtureError, readJsonFixture } from '../fixtures.js';
import { plannedFamily } from '../planned.js';
import type { Family, RedactOptions, SyncCase } from '../types.js';

const FILE = 'redaction/cases.json';

function strings(c: Record<string, unknown>, key: string): string[] {
  const v = c[key];
  if (v === undefined) return [];
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw new FixtureError(`${FILE}: "${key}" must be an array of strings`);
  return v;
}

/**
 * Judges one output text against a case's expectations; `null` when it satisfies them.
 * `shown` is how the output appears in the failure detail.
 */
function judge(c: Record<string, unknown>, text: string, shown: string): string | null {
  const leaked = strings(c, 'must_not_contain').filter((s) => text.includes(s));
  if (leaked.length) return `output still contains ${leaked.map((s) => JSON.stringify(s)).join(', ')}: ${shown}`;
  const missing = strings(c, 'must_contain').filter((s) => !text.includes(s));
  if (missing.length) return `output lacks ${missing.map((s) => JSON.stringify(s)).join(', ')}: ${shown}`;
  return null;
}

function options(c: Record<string, unknown>): RedactOptions {
  return (typeof c.opts === 'object' && c.opts !== null ? c.opts : {}) as RedactOptions;
}

export const family: Family = plannedFamily({
  name: 'redaction',
  description: 'the AEP-0003 §9.4 text pipeline and structured-value redaction against adversarial cases',
  detect: (dir) => filesExist(dir, FILE),
  plan({ corpusDir, implementation: impl }) {
    const file = readJsonFixture(corpusDir, FILE) as Record<string, unknown>;
    if (!('text_cases' in file) && !('value_cases' in file)) throw new FixtureError(`${FILE}: expected "text_cases" and/or "value_cases"`);
    const checks: SyncCase[] = [];
    if ('text_cases' in file) {
      caseList(file, FILE, 'text_cases').forEach((c, i) =>
        checks.push(
          later(`redaction/text: ${caseName(c, i)}`, () => {
            if (typeof c.input !== 'string') throw new FixtureError(`${FILE}: text case ${caseName(c, i)} needs a string "input"`);
            const out = impl.redactText(c.input, options(c));
            if (typeof out !== 'string') return `redactText returned ${JSON.stringify(out)}, not a string`;
            return judge(c, out, JSON.stringify(out)) ?? ('expect' in c ? jsonDiff(c.expect, out) : null);
          }, c),
        ),
      );
    }
    if ('value_cases' in file) {
      caseList(file, FILE, 'value_cases').forEach((c, i) =>
        checks.push(
          later(`redaction/value: ${caseName(c, i)}`, () => {
            const out = impl.redactValue(c.input, options(c));
            const text = JSON.stringify(out) ?? 'undefined';
            return judge(c, text, text) ?? ('expect' in c ? jsonDiff(c.expect, out) : null);
          }, c),
        ),
      );
    }
    return checks;
  },
});
