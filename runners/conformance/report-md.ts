/**
 * report.md: the summary a person reads in a PR. Deterministic for a given set of results (no
 * timestamps, no machine paths beyond the recorded corpus), so the committed copy only changes
 * when a result does.
 */
import type { ConformanceReport } from './report.js';
import { baselineMark, listedChecks, markText, ruleText, verdictSentence } from './report-baseline.js';
import { tallyText, totals, type Tally, type Totals } from './report-totals.js';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

function table(title: string, head: string, rows: readonly Tally[]): string[] {
  if (rows.length === 0) return [];
  return [`### ${title}`, '', `| ${head} | pass | fail | skip | total |`, '|---|---:|---:|---:|---:|', ...rows.map((t) => `| ${cell(t.key)} | ${t.pass} | ${t.fail} | ${t.skip} | ${t.total} |`), ''];
}

/** `t`: the report's totals, when the caller computed them once for both pages. */
export function renderMarkdown(report: ConformanceReport, t: Totals = totals(report)): string {
  const { pass, fail, skip, total } = report.summary;
  const lines = [
    '# AEP conformance report',
    '',
    `**${report.ok ? 'OK' : 'FAILED'}**: ${total} checks, ${pass} pass, ${fail} fail, ${skip} skip.`,
    '',
  ];
  if (report.run) {
    lines.push(
      `- tool: ${report.run.tool.name} ${report.run.tool.version}${report.run.tool.commit ? ` at commit ${report.run.tool.commit}` : ''} (\`${report.tool}\`)`,
      `- corpus: \`${report.run.corpus}\` (${report.run.revision})`,
      `- families: ${report.run.families.join(', ')}`,
      `- target: ${report.run.target ?? 'this implementation'}`,
    );
    if (report.run.cases) lines.push(`- cases: ${report.run.cases.join(', ')}`);
    lines.push('');
  }
  lines.push('## Totals', '', ...table('By conformance class', 'class', t.byClass), ...table('By family', 'family', t.byFamily), ...table('By integration', 'integration', t.byIntegration));
  const listed = listedChecks(report);
  const judged = report.baseline !== undefined;
  const withRule = report.checks.some((c) => c.rule !== undefined || c.basis !== undefined);
  lines.push('## Checks that did not pass', '');
  if (listed.length === 0) lines.push('None: every check passed.', '');
  else {
    const head = ['check', 'status', ...(judged ? ['baseline'] : []), 'spec', ...(withRule ? ['basis', 'rule'] : []), 'detail'];
    lines.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
    for (const c of listed) {
      const row = [cell(c.name), c.status, ...(judged ? [cell(markText(baselineMark(c, report)))] : []), cell((c.spec ?? []).join(', ')), ...(withRule ? [cell(c.basis ?? ''), cell(ruleText(c))] : []), cell(c.detail ?? '')];
      lines.push(`| ${row.join(' | ')} |`);
    }
    lines.push('');
  }
  const sentence = verdictSentence(report);
  if (sentence) {
    const b = report.baseline!;
    lines.push('## Baseline verdict', '', `**${sentence.replace(/^(OK|FAILED)/, '$1**')}`, '');
    if (b.stale.length) lines.push(`Stale entries (the check passes; remove them): ${b.stale.map((n) => `\`${n}\``).join(', ')}.`, '');
  }
  lines.push(`Family summary: ${t.byFamily.map((f) => `${f.key} ${tallyText(f)}`).join('; ')}.`, '');
  return lines.join('\n');
}
