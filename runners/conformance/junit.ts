/**
 * The report as JUnit XML, what CI test reporters read (`--junit FILE` of `aep conformance` and
 * `aep check-live`). Pure. One `testsuite` per family, one `testcase` per check:
 * - `classname`: the family, with the integration after a dot when the check exercises one
 *   (`mappings.codex`, `bridge-mappings.acp`; `golden` for the core library's checks);
 * - `properties`: each spec section (`spec`), the conformance class, the integration, and the
 *   check's `fixtureHash`, `basis` and `rule` when it has them;
 * - a failure carries its detail (`<failure message="first line">whole detail</failure>`), a skip
 *   its reason (`<skipped message="…"/>`);
 * - judged against a baseline: an expected failure or skip is `<skipped>` whose message is the
 *   baseline's reason; a stale entry (a listed check that passed) is a `<failure type="stale">`.
 * So `failures` counts what fails the run but unexcused skips, which stay skips with their reason.
 *
 * Written here: the JUnit writers on npm looked at could not give a skip its reason (docs/dependencies.md).
 */
import { CORE } from './check-meta.js';
import type { ConformanceReport, ReportCheck } from './report.js';

/** Characters XML 1.0 cannot hold (controls, lone surrogates, U+FFFE/FFFF), replaced by U+FFFD. */
const ILLEGAL = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlText(text: string): string {
  return text.replace(ILLEGAL, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function xmlAttr(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

const attrs = (pairs: readonly (readonly [string, string | number])[]) => pairs.map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`).join('');

/** The classname of a check: its family, `.<integration>` added when it exercises one. */
export function classnameOf(c: ReportCheck, fallback: string): string {
  const family = c.family ?? c.name.split('/')[0] ?? fallback;
  return c.integration && c.integration !== CORE ? `${family}.${c.integration}` : family;
}

/** A check's properties: spec sections, class, integration, fixture hash, basis, rule. */
export function propertiesOf(c: ReportCheck): [string, string][] {
  const out: [string, string][] = (c.spec ?? []).map((s) => ['spec', s]);
  if (c.class) out.push(['class', c.class]);
  if (c.integration) out.push(['integration', c.integration]);
  if (c.fixtureHash) out.push(['fixtureHash', c.fixtureHash]);
  if (c.basis) out.push(['basis', c.basis]);
  if (c.rule) out.push(['rule', c.rule.id], ['rule.section', c.rule.section]);
  return out;
}

type Outcome = { kind: 'pass' } | { kind: 'failure'; type: string; message: string; body?: string } | { kind: 'skipped'; message: string; body?: string };

const firstLine = (text: string) => {
  const line = text.split('\n', 1)[0]!;
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
};

function outcomeOf(c: ReportCheck, report: ConformanceReport): Outcome {
  const b = report.baseline;
  const reason = b?.reasons?.[c.name];
  if (c.status === 'pass') {
    if (b?.stale.includes(c.name)) return { kind: 'failure', type: 'stale', message: `stale expected failure: it now passes; remove it from ${b.file ?? 'the expected-failures file'}` };
    return { kind: 'pass' };
  }
  if (reason !== undefined && b?.expected.includes(c.name)) {
    const what = c.status === 'fail' ? 'expected failure' : 'expected skip';
    return { kind: 'skipped', message: `${what}: ${reason}`, ...(c.detail ? { body: c.detail } : {}) };
  }
  if (c.status === 'skip') {
    const detail = c.detail ?? 'skipped (no reason given)';
    const unexcused = b?.unexcusedSkips.includes(c.name) ? 'unexcused skip (fails the run): ' : '';
    return { kind: 'skipped', message: `${unexcused}${firstLine(detail)}`, ...(detail.includes('\n') ? { body: detail } : {}) };
  }
  const detail = c.detail ?? 'failed (no detail given)';
  return { kind: 'failure', type: 'fail', message: firstLine(detail), body: detail };
}

function testcase(c: ReportCheck, report: ConformanceReport, fallback: string): { xml: string; outcome: Outcome } {
  const outcome = outcomeOf(c, report);
  const props = propertiesOf(c);
  const inner: string[] = [];
  if (props.length) inner.push(`      <properties>\n${props.map(([k, v]) => `        <property${attrs([['name', k], ['value', v]])}/>`).join('\n')}\n      </properties>`);
  if (outcome.kind === 'failure') inner.push(`      <failure${attrs([['message', outcome.message], ['type', outcome.type]])}>${outcome.body !== undefined ? xmlText(outcome.body) : ''}</failure>`);
  if (outcome.kind === 'skipped') inner.push(outcome.body !== undefined ? `      <skipped${attrs([['message', outcome.message]])}>${xmlText(outcome.body)}</skipped>` : `      <skipped${attrs([['message', outcome.message]])}/>`);
  const open = `    <testcase${attrs([['name', c.name], ['classname', classnameOf(c, fallback)], ['time', 0]])}`;
  return { xml: inner.length ? `${open}>\n${inner.join('\n')}\n    </testcase>` : `${open}/>`, outcome };
}

/** Seconds between two ISO timestamps (0 when either is unreadable). */
function seconds(from: string, to: string): number {
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) && ms > 0 ? ms / 1000 : 0;
}

/** Suite-level properties: what was run (tool, commit, corpus revision, target, baseline). */
function runProperties(report: ConformanceReport): [string, string][] {
  const out: [string, string][] = [['tool', report.tool]];
  if (report.target !== null) out.push(['target', report.target]);
  const run = report.run;
  if (run) {
    out.push(['tool.version', `${run.tool.name} ${run.tool.version}`]);
    if (run.tool.commit) out.push(['tool.commit', run.tool.commit]);
    out.push(['corpus', run.corpus], ['corpus.revision', run.revision]);
  }
  if (report.baseline?.file) out.push(['baseline', report.baseline.file], ['baseline.ok', String(report.baseline.ok)]);
  return out;
}

/** The whole JUnit document for a report; `name` names the `testsuites` element. */
export function renderJunit(report: ConformanceReport, name = 'aep conformance'): string {
  const groups = new Map<string, ReportCheck[]>();
  for (const c of report.checks) {
    const family = c.family ?? c.name.split('/')[0] ?? report.tool;
    groups.set(family, [...(groups.get(family) ?? []), c]);
  }
  const time = seconds(report.startedAt, report.finishedAt);
  const props = runProperties(report);
  const propsXml = `    <properties>\n${props.map(([k, v]) => `      <property${attrs([['name', k], ['value', v]])}/>`).join('\n')}\n    </properties>`;
  let tests = 0;
  let failures = 0;
  let skipped = 0;
  const suites: string[] = [];
  for (const [family, checks] of groups) {
    const cases = checks.map((c) => testcase(c, report, family));
    const f = cases.filter((x) => x.outcome.kind === 'failure').length;
    const s = cases.filter((x) => x.outcome.kind === 'skipped').length;
    tests += cases.length;
    failures += f;
    skipped += s;
    const head = attrs([['name', family], ['tests', cases.length], ['failures', f], ['errors', 0], ['skipped', s], ['time', 0], ['timestamp', report.startedAt]]);
    suites.push(`  <testsuite${head}>\n${propsXml.replace(/^/gm, '  ')}\n${cases.map((x) => x.xml).join('\n')}\n  </testsuite>`);
  }
  const head = attrs([['name', name], ['tests', tests], ['failures', failures], ['errors', 0], ['skipped', skipped], ['time', time]]);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${head}>\n${suites.join('\n')}\n</testsuites>\n`;
}
