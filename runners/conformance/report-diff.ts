/**
 * `aep conformance diff BASE.json NEW.json`: what changed between two reports, for a spec author
 * who edited the corpus (or an implementer who changed the code). Pure. Checks are matched by
 * name and sorted into, per integration and conformance class:
 * - `regressed`: pass → fail or skip;
 * - `fixed`: fail or skip → pass;
 * - `status`: fail ↔ skip;
 * - `added` / `removed`: in one report only;
 * - `fixture`: same status, but the check's fixture case changed (`fixtureHash` differs).
 * `regressed` non-empty is what makes the verb exit 1.
 */
import { checkMeta } from './check-meta.js';
import type { CheckStatus } from './types.js';

/** The members of a report check this diff reads (report.json's, or a bare standard report's). */
export interface DiffCheck {
  name: string;
  status: CheckStatus;
  detail?: string;
  integration?: string;
  class?: string;
  fixtureHash?: string;
}

export interface DiffReport {
  checks: readonly DiffCheck[];
  run?: { revision?: string; tool?: { name?: string; version?: string; commit?: string } };
}

export type ChangeKind = 'regressed' | 'fixed' | 'status' | 'added' | 'removed' | 'fixture';
export const CHANGE_KINDS: readonly ChangeKind[] = ['regressed', 'fixed', 'status', 'added', 'removed', 'fixture'];

export interface Change {
  kind: ChangeKind;
  name: string;
  /** Absent for `added`. */
  before?: CheckStatus;
  /** Absent for `removed`. */
  after?: CheckStatus;
  /** The new report's detail (the old one's for `removed`), when there is one. */
  detail?: string;
}

export interface DiffGroup {
  integration: string;
  /** The conformance class, or `unclassed` for a family the standard's table does not place. */
  class: string;
  changes: Change[];
}

export interface ReportDiff {
  base: { revision?: string; tool?: string };
  next: { revision?: string; tool?: string };
  groups: DiffGroup[];
  counts: Record<ChangeKind, number>;
  /** Checks present in both with the same status and fixture. */
  unchanged: number;
  regressed: boolean;
}

/** Throws an Error saying what is wrong when `value` is not a conformance report. */
export function asDiffReport(value: unknown, label: string): DiffReport {
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { checks?: unknown }).checks)) {
    throw new Error(`${label} is not a conformance report (expected a JSON object with a "checks" array: the --json or --report DIR/report.json output)`);
  }
  const checks = (value as { checks: unknown[] }).checks;
  checks.forEach((c, i) => {
    const ok = typeof c === 'object' && c !== null && typeof (c as DiffCheck).name === 'string' && ['pass', 'fail', 'skip'].includes((c as DiffCheck).status);
    if (!ok) throw new Error(`${label}: checks[${i}] needs a string "name" and a "status" of pass, fail or skip`);
  });
  return value as DiffReport;
}

function where(c: DiffCheck): { integration: string; class: string } {
  const meta = checkMeta({ name: c.name, ...(c.integration !== undefined ? { integration: c.integration } : {}) });
  return { integration: c.integration ?? meta.integration, class: c.class ?? meta.class ?? 'unclassed' };
}

function toolText(r: DiffReport): string | undefined {
  const t = r.run?.tool;
  if (!t) return undefined;
  return `${t.name ?? '?'} ${t.version ?? '?'}${t.commit ? ` (${t.commit})` : ''}`;
}

export function diffReports(base: DiffReport, next: DiffReport): ReportDiff {
  const before = new Map(base.checks.map((c) => [c.name, c]));
  const after = new Map(next.checks.map((c) => [c.name, c]));
  const groups = new Map<string, DiffGroup>();
  const counts = Object.fromEntries(CHANGE_KINDS.map((k) => [k, 0])) as Record<ChangeKind, number>;
  let unchanged = 0;
  const put = (c: DiffCheck, change: Change) => {
    const w = where(c);
    const key = `${w.integration}\u0000${w.class}`;
    const g = groups.get(key) ?? { integration: w.integration, class: w.class, changes: [] };
    g.changes.push(change);
    groups.set(key, g);
    counts[change.kind] += 1;
  };
  const detail = (c: DiffCheck) => (c.detail ? { detail: c.detail } : {});
  for (const [name, n] of after) {
    const b = before.get(name);
    if (b === undefined) {
      put(n, { kind: 'added', name, after: n.status, ...detail(n) });
      continue;
    }
    const both = { name, before: b.status, after: n.status, ...detail(n) };
    if (b.status === 'pass' && n.status !== 'pass') put(n, { kind: 'regressed', ...both });
    else if (b.status !== 'pass' && n.status === 'pass') put(n, { kind: 'fixed', ...both });
    else if (b.status !== n.status) put(n, { kind: 'status', ...both });
    else if (b.fixtureHash !== n.fixtureHash && (b.fixtureHash !== undefined || n.fixtureHash !== undefined)) put(n, { kind: 'fixture', ...both });
    else unchanged += 1;
  }
  for (const [name, b] of before) if (!after.has(name)) put(b, { kind: 'removed', name, before: b.status, ...detail(b) });
  const order = (k: ChangeKind) => CHANGE_KINDS.indexOf(k);
  const sorted = [...groups.values()]
    .map((g) => ({ ...g, changes: g.changes.sort((x, y) => order(x.kind) - order(y.kind) || x.name.localeCompare(y.name)) }))
    .sort((x, y) => x.integration.localeCompare(y.integration) || x.class.localeCompare(y.class));
  const side = (r: DiffReport) => ({ ...(r.run?.revision ? { revision: r.run.revision } : {}), ...(toolText(r) ? { tool: toolText(r)! } : {}) });
  return { base: side(base), next: side(next), groups: sorted, counts, unchanged, regressed: counts.regressed > 0 };
}

/** `pass→skip` for a regression to a skip, `skip→pass` for a fixed skip; the kind's label otherwise. */
function label(c: Change): string {
  if (c.kind === 'regressed' || c.kind === 'fixed' || c.kind === 'status') return `${c.before}→${c.after}`;
  if (c.kind === 'added') return `new (${c.after})`;
  if (c.kind === 'removed') return `gone (was ${c.before})`;
  return `fixture changed (${c.after})`;
}

export function countsLine(d: ReportDiff): string {
  const c = d.counts;
  return `${c.regressed} regressed, ${c.fixed} fixed, ${c.status} changed status, ${c.added} new, ${c.removed} gone, ${c.fixture} fixture changed, ${d.unchanged} unchanged`;
}

function sideText(s: { revision?: string; tool?: string }): string {
  return [s.revision ?? 'revision not recorded', s.tool].filter(Boolean).join(', ');
}

export function renderDiffText(d: ReportDiff, baseName: string, nextName: string): string {
  const lines = [`base: ${baseName} (${sideText(d.base)})`, `new:  ${nextName} (${sideText(d.next)})`];
  if (d.groups.length === 0) lines.push('no check changed');
  for (const g of d.groups) {
    lines.push(`${g.integration} (${g.class}):`);
    for (const c of g.changes) lines.push(`  ${label(c).padEnd(22)} ${c.name}${c.detail && c.kind !== 'fixed' ? `: ${c.detail}` : ''}`);
  }
  lines.push(`${countsLine(d)}: ${d.regressed ? 'REGRESSED' : 'no regression'}`);
  return `${lines.join('\n')}\n`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

export function renderDiffMarkdown(d: ReportDiff, baseName: string, nextName: string): string {
  const lines = ['# AEP conformance diff', '', `- base: \`${baseName}\` (${sideText(d.base)})`, `- new: \`${nextName}\` (${sideText(d.next)})`, '', `**${d.regressed ? 'REGRESSED' : 'No regression'}**: ${countsLine(d)}.`, ''];
  for (const g of d.groups) {
    lines.push(`## ${g.integration} (${g.class})`, '', '| change | check | detail |', '|---|---|---|');
    for (const c of g.changes) lines.push(`| ${cell(label(c))} | ${cell(c.name)} | ${cell(c.kind === 'fixed' ? '' : c.detail ?? '')} |`);
    lines.push('');
  }
  if (d.groups.length === 0) lines.push('No check changed.', '');
  return lines.join('\n');
}

export function renderDiffJson(d: ReportDiff): string {
  return `${JSON.stringify(d, null, 2)}\n`;
}
