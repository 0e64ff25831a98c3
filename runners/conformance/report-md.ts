/**
 * report.md: the summary a person reads in a PR. Deterministic for a given set of results (no
 * timestamps, no machine paths beyond the recorded corpus), so the committed copy only changes
 * when a result does.
 */
import type { ConformanceReport } from './report.js';
import { tallyText, totals, type Tally } from './report-totals.js';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

function table(title: string, head: string, rows: readonly Tally[]): string[] {
  if (rows.length === 0) return [];
  return [`### ${title}`, '', `| ${head} | pass | fail | skip | total |`, '|---|---:|---:|---:|---:|', ...rows.map((t) => `| ${cell(t.key)} | ${t.pass} | ${t.fail} | ${t.skip} | ${t.total} |`), ''];
}

export function renderMarkdown(report: ConformanceReport): string {
  const t = totals(report);
  const { pass, fail, skip, total } = report.summary;
  const lines = [
    '# AEP conformance report',
    '',
    `**${report.ok ? 'OK' : 'FAILED'}**: ${total} checks, ${pass} pass, ${fail} fail, ${skip} skip.`,
    '',
  ];
  if (report.run) {
    lines.push(
      `- tool: ${report.run.tool.name} ${report.run.tool.version} (\`${report.tool}\`)`,
      `- corpus: \`${report.run.corpus}\` (${report.run.revision})`,
      `- families: ${report.run.families.join(', ')}`,
      `- target: ${report.run.target ?? 'this implementation'}`,
    );
    if (report.run.cases) lines.push(`- cases: ${report.run.cases.join(', ')}`);
    lines.push('');
  }
  lines.push('## Totals', '', ...table('By conformance class', 'class', t.byClass), ...table('By family', 'family', t.byFamily), ...table('By integration', 'integration', t.byIntegration));
  const notPassing = report.checks.filter((c) => c.status !== 'pass');
  lines.push('## Checks that did not pass', '');
  if (notPassing.length === 0) lines.push('None: every check passed.', '');
  else {
    lines.push('| check | status | spec | detail |', '|---|---|---|---|');
    for (const c of notPassing) lines.push(`| ${cell(c.name)} | ${c.status} | ${cell((c.spec ?? []).join(', '))} | ${cell(c.detail ?? '')} |`);
    lines.push('');
  }
  if (report.baseline?.file) {
    const b = report.baseline;
    lines.push('## Expected failures', '', `Baseline \`${b.file}\`: ${b.expected.length} expected, ${b.unexpected.length} unexpected, ${b.stale.length} stale, ${b.unexcusedSkips.length} unexcused skips.`, '');
  }
  lines.push(`Family summary: ${t.byFamily.map((f) => `${f.key} ${tallyText(f)}`).join('; ')}.`, '');
  return lines.join('\n');
}
