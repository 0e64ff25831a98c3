import { describe, expect, it } from 'vitest';
import type { ConformanceReport, ReportCheck } from './report.js';
import { tallyOf, tallyText, totals } from './report-totals.js';

const reportOf = (checks: ReportCheck[]): ConformanceReport => ({
  format: 'aep-conformance-report', formatVersion: 1, aep: '0.1', tool: 'run-ts', target: null,
  startedAt: 'x', finishedAt: 'y', checks, summary: { pass: 0, fail: 0, skip: 0, total: 0 }, ok: true,
});

describe('report totals', () => {
  const report = reportOf([
    { name: 'relay/a', status: 'pass', family: 'relay', integration: 'core', class: 'Collector/relay' },
    { name: 'relay/b', status: 'fail', family: 'relay', integration: 'core', class: 'Collector/relay' },
    { name: 'mappings/codex/x', status: 'skip', family: 'mappings', integration: 'codex', class: 'Emitter' },
    { name: 'bare', status: 'pass' },
  ]);

  it('by class: every class in the standard order, zero rows kept; a check without a class is not counted', () => {
    expect(totals(report).byClass).toEqual([
      { key: 'Emitter', pass: 0, fail: 0, skip: 1, total: 1 },
      { key: 'Consumer', pass: 0, fail: 0, skip: 0, total: 0 },
      { key: 'Collector/relay', pass: 1, fail: 1, skip: 0, total: 2 },
      { key: 'Control-capable', pass: 0, fail: 0, skip: 0, total: 0 },
    ]);
  });

  it('by family and by integration: only the keys present, sorted by name', () => {
    const t = totals(report);
    expect(t.byFamily).toEqual([
      { key: 'mappings', pass: 0, fail: 0, skip: 1, total: 1 },
      { key: 'relay', pass: 1, fail: 1, skip: 0, total: 2 },
    ]);
    expect(t.byIntegration).toEqual([
      { key: 'codex', pass: 0, fail: 0, skip: 1, total: 1 },
      { key: 'core', pass: 1, fail: 1, skip: 0, total: 2 },
    ]);
    const reversed = totals(reportOf([...report.checks].reverse()));
    expect(reversed.byFamily.map((f) => f.key)).toEqual(['mappings', 'relay']);
    expect(totals(reportOf([])).byFamily).toEqual([]);
  });

  it('a tally counts each status and the total', () => {
    expect(tallyOf('k', [{ status: 'pass' }, { status: 'pass' }, { status: 'fail' }, { status: 'skip' }])).toEqual({ key: 'k', pass: 2, fail: 1, skip: 1, total: 4 });
    expect(tallyOf('e', [])).toEqual({ key: 'e', pass: 0, fail: 0, skip: 0, total: 0 });
  });

  it('the totals text: all passing says only that; any fail or skip names both counts', () => {
    expect(tallyText(tallyOf('', []))).toBe('no checks');
    expect(tallyText(tallyOf('', [{ status: 'pass' }, { status: 'pass' }]))).toBe('2/2 pass');
    expect(tallyText(tallyOf('', [{ status: 'pass' }, { status: 'fail' }]))).toBe('1/2 pass, 1 fail, 0 skip');
    expect(tallyText(tallyOf('', [{ status: 'pass' }, { status: 'skip' }]))).toBe('1/2 pass, 0 fail, 1 skip');
  });
});
