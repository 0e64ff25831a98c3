/** Totals of a report's checks by conformance class, family and integration (pure; shared by the md and html renderers). */
import { CLASSES } from './check-meta.js';
import type { ConformanceReport, ReportCheck } from './report.js';
import type { CheckStatus } from './types.js';

export interface Tally {
  key: string;
  pass: number;
  fail: number;
  skip: number;
  total: number;
}

function tally(checks: readonly ReportCheck[], keyOf: (c: ReportCheck) => string | undefined, order?: readonly string[]): Tally[] {
  const map = new Map<string, Tally>();
  for (const k of order ?? []) map.set(k, { key: k, pass: 0, fail: 0, skip: 0, total: 0 });
  for (const c of checks) {
    const key = keyOf(c);
    if (key === undefined) continue;
    const t = map.get(key) ?? { key, pass: 0, fail: 0, skip: 0, total: 0 };
    t[c.status] += 1;
    t.total += 1;
    map.set(key, t);
  }
  const out = [...map.values()];
  return order ? out : out.sort((a, b) => a.key.localeCompare(b.key));
}

export interface Totals {
  byClass: Tally[];
  byFamily: Tally[];
  /** Per adapter or bridge, and `core`. */
  byIntegration: Tally[];
}

export function totals(report: ConformanceReport): Totals {
  return {
    byClass: tally(report.checks, (c) => c.class, CLASSES),
    byFamily: tally(report.checks, (c) => c.family),
    byIntegration: tally(report.checks, (c) => c.integration),
  };
}

/** A tally of `checks` under `key`. */
export function tallyOf(key: string, checks: readonly { status: CheckStatus }[]): Tally {
  const t: Tally = { key, pass: 0, fail: 0, skip: 0, total: 0 };
  for (const c of checks) {
    t[c.status] += 1;
    t.total += 1;
  }
  return t;
}

/** `12/12 pass` or `10/12 pass, 2 fail, 0 skip` (any fail or skip names both counts). */
export function tallyText(t: Tally): string {
  if (t.total === 0) return 'no checks';
  return t.fail === 0 && t.skip === 0 ? `${t.pass}/${t.total} pass` : `${t.pass}/${t.total} pass, ${t.fail} fail, ${t.skip} skip`;
}
