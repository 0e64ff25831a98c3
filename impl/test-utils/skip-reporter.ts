/**
 * A vitest reporter that ends the run with every skipped test counted by its reason. A skip names
 * its reason in a title: `(skipped: WHY)` in the test's or a suite's name (`it.skipIf(c)(\`x${c ? ' (skipped: WHY)' : ''}\`)`),
 * or the title `describeWhenPresent` gives (`needs <path> ...`), or the note of `ctx.skip(note)`.
 * `skipped(cond, reason)` (skip.ts) writes the first form; skip-titles.test.ts holds every test
 * file to one of them. Skips with no reason are listed by file.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** The reason in a test's full name, pure. */
export function skipReason(fullName: string): string | undefined {
  // The reason may hold parentheses of its own, one level deep: `(skipped: set X (ci.sh does))`.
  const m = /\(skipped: ((?:[^()]|\([^()]*\))*)\)/.exec(fullName);
  if (m) return m[1]!.trim();
  const needs = /(?:^| > )(needs .*)$/.exec(fullName);
  return needs ? needs[1]!.trim() : undefined;
}

export default class SkipReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const byReason = new Map<string, number>();
    const unnamed = new Map<string, number>();
    let total = 0;
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        if (t.result().state !== 'skipped') continue;
        total++;
        const result = t.result();
        const why = skipReason(t.fullName) ?? (result.state === 'skipped' && result.note ? result.note : undefined);
        if (why !== undefined) byReason.set(why, (byReason.get(why) ?? 0) + 1);
        else {
          const file = relative(process.cwd(), m.moduleId);
          unnamed.set(file, (unnamed.get(file) ?? 0) + 1);
        }
      }
    }
    if (total === 0) return;
    const lines = [`\n${total} skipped test${total === 1 ? '' : 's'}, by reason:`];
    for (const [why, n] of [...byReason].sort((a, b) => b[1] - a[1])) lines.push(`  ${String(n).padStart(4)}  ${why}`);
    for (const [file, n] of [...unnamed].sort((a, b) => b[1] - a[1])) lines.push(`  ${String(n).padStart(4)}  (no reason in the title) ${file}`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
