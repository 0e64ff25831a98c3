/**
 * Runs families over a corpus and collects their checks. Pure orchestration: reading
 * fixtures is the families' business, rendering the report is report.ts's.
 */
import { describeThrown, fail, pass } from './check.js';
import { basisTag } from './check-meta.js';
import type { Check, Family, Implementation, Logger } from './types.js';

export interface RunOptions {
  /** Absolute corpus root. */
  corpusDir: string;
  /** Families to run, in order. Each is run even if `detect` is false (the caller decides). */
  families: readonly Family[];
  implementation: Implementation;
  logger: Logger;
  /** Clock, injectable for tests. Default: `() => new Date()`. */
  now?: () => Date;
  /**
   * `--case` selection, handed to every family (FamilyContext.selects). The result holds the
   * selected checks only, and it limits the progress lines too: a family's tally and FAIL lines count selected checks only, a family none of whose
   * checks is selected prints none, and a family's own lines (what it did not run, and why) are
   * kept only when the selection takes the whole family (`selects('<family>/')` of a probe name).
   */
  selects?: (checkName: string) => boolean;
}

export interface RunResult {
  startedAt: string;
  finishedAt: string;
  checks: Check[];
}

/** Ensures check names are unique within a run by suffixing repeats with ` (2)`, ` (3)`... (`seen`: the run's names so far, so one pass serves every family). */
function uniqueNames(checks: Check[], seen: Map<string, number>): Check[] {
  return checks.map((c) => {
    const n = (seen.get(c.name) ?? 0) + 1;
    seen.set(c.name, n);
    return n === 1 ? c : { ...c, name: `${c.name} (${n})` };
  });
}

function tally(checks: readonly Check[]): string {
  const count = (s: Check['status']) => checks.filter((c) => c.status === s).length;
  const failed = count('fail');
  const skipped = count('skip');
  return `${count('pass')}/${checks.length} pass${failed ? `, ${failed} fail` : ''}${skipped ? `, ${skipped} skip` : ''}`;
}

/**
 * The names a run of `family` would report, in order, read from its `plan` without judging a
 * case (`aep conformance --list`); the same `<family>/fixtures` name for a plan that throws or
 * names no case, and the same ` (2)` suffixes, as {@link runFamilies}. A family with no `plan`
 * (the live and vendor families) is run to learn them.
 */
export async function caseNames(family: Family, corpusDir: string, implementation: Implementation): Promise<string[]> {
  if (!family.plan) {
    const { checks } = await runFamilies({ corpusDir, families: [family], implementation, logger: { info: () => {} } });
    return checks.map((c) => c.name);
  }
  let names: string[];
  try {
    names = (await family.plan({ corpusDir, implementation, logger: { info: () => {} } })).map((c) => c.name);
    if (names.length === 0) names = [`${family.name}/fixtures`];
  } catch {
    names = [`${family.name}/fixtures`];
  }
  return uniqueNames(names.map((name) => pass(name)), new Map()).map((c) => c.name);
}

/**
 * Runs every family in order. A family that throws (missing or malformed fixture file)
 * contributes one failed check named `<family>/fixtures` and the run continues.
 * Logs one progress line per family (`golden: 64/64 pass`) and one line per failure.
 */
export async function runFamilies(opts: RunOptions): Promise<RunResult> {
  const now = opts.now ?? (() => new Date());
  const startedAt = now().toISOString();
  const all: Check[] = [];
  const selects = opts.selects;
  const seen = new Map<string, number>();
  for (const family of opts.families) {
    let checks: Check[];
    // A name only a whole-family selection matches (`mappings`, `mappings/`), never a narrower one.
    const whole = selects === undefined || selects(`${family.name}/\u0000`);
    const logger = whole ? opts.logger : { info: () => {} };
    try {
      checks = await family.run({ corpusDir: opts.corpusDir, implementation: opts.implementation, logger, ...(selects ? { selects } : {}) });
      if (checks.length === 0 && !opts.selects) checks = [fail(`${family.name}/fixtures`, 'the fixture files hold no cases: an empty family proves nothing')];
    } catch (err) {
      const message = err instanceof Error && err.name === 'FixtureError' ? err.message : describeThrown(err);
      checks = [fail(`${family.name}/fixtures`, message)];
    }
    checks = uniqueNames(checks, seen);
    // `--case` is applied here, once: the run's checks are the selected ones.
    const shown = selects ? checks.filter((c) => selects(c.name)) : checks;
    if (shown.length > 0 || selects === undefined) opts.logger.info(`${family.name}: ${tally(shown)}`);
    for (const c of shown) {
      if (c.status === 'fail') opts.logger.info(`  FAIL ${c.name}${basisTag(c) ? ` ${basisTag(c)}` : ''}${c.detail ? `: ${c.detail}` : ''}`);
    }
    all.push(...shown);
  }
  return { startedAt, finishedAt: now().toISOString(), checks: all };
}
