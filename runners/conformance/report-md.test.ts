import { describe, expect, it } from 'vitest';
import { buildReport, type ConformanceReport, type ReportCheck } from './report.js';
import { renderMarkdown } from './report-md.js';

// A skip is never silent in the report a person reads: the headline, the totals tables, the
// list of checks that did not pass and the family summary each show it (issue 25, gap 4).
describe('report.md with a skipped check', () => {
  const checks: ReportCheck[] = [
    { name: 'mappings/codex/a', status: 'pass', family: 'mappings', integration: 'codex', class: 'Emitter' },
    { name: 'mappings/codex/b', status: 'skip', family: 'mappings', integration: 'codex', class: 'Emitter', detail: 'skipped: needs the vendor CLI' },
  ];
  // The summary as buildReport computes it; the checks keep the members the runner sets.
  const report: ConformanceReport = { ...buildReport({ tool: 'run-ts', target: null, startedAt: 'x', finishedAt: 'y', checks }), checks };
  const md = renderMarkdown(report).split('\n');

  it('counts the skip in the headline', () => {
    expect(md[2]).toBe('**OK**: 2 checks, 1 pass, 0 fail, 1 skip.');
  });

  it('counts it in the family and integration tables', () => {
    expect(md).toContain('| mappings | 1 | 0 | 1 | 2 |');
    expect(md).toContain('| codex | 1 | 0 | 1 | 2 |');
  });

  it('lists the skipped check with its reason, and names the skip in the family summary', () => {
    expect(md).toContain('| mappings/codex/b | skip |  | skipped: needs the vendor CLI |');
    expect(md).not.toContain('None: every check passed.');
    expect(md).toContain('Family summary: mappings 1/2 pass, 0 fail, 1 skip.');
  });
});
