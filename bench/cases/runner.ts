/**
 * `runner`: the wall time of `aep conformance` over the project's corpus (every family; none of
 * them opens a socket without `--live`) plus, when the standard is checked out, over the
 * standard's corpus with the families and expected-failures file `ci.sh` uses. Each run is its
 * own process (`node bin/aep.js conformance --json -`), as a user runs it; one sample is the sum
 * of both runs. Absolute: no baseline, the target is at most 2 s.
 *
 * Checked: each run exits 0, its JSON report says `ok`, has no failed check, and holds at least
 * the number of checks and the families a sound run has (a runner that ran nothing stops it).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { repoRoot } from '../corpus.js';
import type { SampleBenchmark } from '../samples.js';

/** The standard's families `ci.sh` runs (the ones implemented here). */
export const STANDARD_FAMILIES = ['golden', 'invalid', 'attr-match', 'ce-roundtrip', 'otlp', 'ocsf', 'redaction', 'capture-gating', 'downlevel', 'mappings', 'bridge-mappings'] as const;

interface Run {
  readonly label: string;
  readonly args: readonly string[];
  /** At least this many checks, and these families, in a sound report. */
  readonly minChecks: number;
  readonly families: readonly string[];
}

/** The standard's checkout, found as the tests find it: `AEP_STANDARD_DIR` (relative to the package root), else `../shared/aep-standard` beside it. */
export function standardDir(): string | undefined {
  const dir = resolve(repoRoot(), process.env.AEP_STANDARD_DIR ?? join('..', 'shared', 'aep-standard'));
  return existsSync(join(dir, 'conformance', 'fixtures')) ? dir : undefined;
}

/** Quick mode (CI) times the same two runs over two families each: it proves the row and its checks work. */
const QUICK_FAMILIES = ['golden', 'invalid'];

function runs(quick: boolean): Run[] {
  const list: Run[] = [
    quick
      ? { label: 'own corpus', args: ['--family', QUICK_FAMILIES.join(',')], minChecks: 100, families: QUICK_FAMILIES }
      : { label: 'own corpus', args: [], minChecks: 1000, families: ['golden', 'invalid', 'mappings', 'control-loop'] },
  ];
  const std = standardDir();
  if (std !== undefined) {
    list.push({
      label: "standard's corpus",
      args: ['--corpus', join(std, 'conformance', 'fixtures'), '--family', (quick ? QUICK_FAMILIES : STANDARD_FAMILIES).join(','), '--expected-failures', join(repoRoot(), 'conformance', 'standard-expected-failures.json')],
      minChecks: quick ? 20 : 100,
      families: ['golden', 'invalid'],
    });
  }
  return list;
}

function timed(run: Run): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [join(repoRoot(), 'bin', 'aep.js'), 'conformance', ...run.args, '--json', '-'], { cwd: repoRoot(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - start;
      let report: { ok?: unknown; summary?: { pass?: number; fail?: number; total?: number }; run?: { families?: unknown } } | undefined;
      try {
        report = JSON.parse(stdout) as typeof report;
      } catch {
        report = undefined;
      }
      const families = Array.isArray(report?.run?.families) ? (report.run.families as unknown[]) : [];
      const missing = run.families.filter((f) => !families.includes(f));
      const total = report?.summary?.total ?? 0;
      if (code !== 0 || report?.ok !== true || (report.summary?.fail ?? 1) !== 0 || total < run.minChecks || missing.length > 0) {
        return reject(new Error(`runner: aep conformance over the ${run.label} exited ${code} with ${report === undefined ? 'no JSON report' : `ok ${String(report.ok)}, ${total} checks, ${report.summary?.fail ?? '?'} failed${missing.length > 0 ? `, families missing: ${missing.join(', ')}` : ''}`}; expected exit 0, ok, no failure, at least ${run.minChecks} checks. stderr: ${stderr.slice(-300)}`));
      }
      resolvePromise(ms);
    });
  });
}

export const runnerBench: SampleBenchmark = {
  kind: 'samples',
  name: 'runner',
  unit: 'ms',
  what: "wall time of aep conformance over the project's corpus plus the standard's (when checked out), pure families, one process each; absolute",
  budgetMs: 3000,
  metrics: ['wall'],
  primary: { metric: 'wall', quantile: 0.5 },
  async prepare({ quick }) {
    const list = runs(quick);
    return {
      ours: {
        async trial() {
          let total = 0;
          for (const run of list) total += await timed(run);
          return { wall: [total] };
        },
      },
    };
  },
};
