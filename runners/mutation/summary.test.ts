import { describe, expect, it } from 'vitest';
import { main } from './summary-main.js';
import { mergeReports, readReport, renderSurvivors, renderTable, scoreOf, summarize, type MutationReport, type ReportMutant } from './summary.js';

const m = (status: string, line = 1, mutatorName = 'ConditionalExpression', replacement = 'true'): ReportMutant => ({
  mutatorName, replacement, status, location: { start: { line, column: 3 } },
});

const report: MutationReport = {
  files: {
    'impl/core/filter.ts': { mutants: [m('Killed'), m('Killed'), m('Killed'), m('Survived', 12), m('Timeout'), m('CompileError')] },
    'impl/core/digest.ts': { mutants: [m('Killed'), m('NoCoverage', 4, 'StringLiteral', '""'), m('RuntimeError'), m('Ignored')] },
  },
};

describe('mutation score per module', () => {
  it('scores (killed + timeout) over killed, timeout, survived and no coverage; errors and ignored are not scored', () => {
    expect(scoreOf('x', report.files['impl/core/filter.ts']!.mutants)).toEqual({
      module: 'x', killed: 3, survived: 1, noCoverage: 0, timeout: 1, errors: 1, score: 80,
    });
    expect(scoreOf('y', report.files['impl/core/digest.ts']!.mutants)).toEqual({
      module: 'y', killed: 1, survived: 0, noCoverage: 1, timeout: 0, errors: 1, score: 50,
    });
    expect(scoreOf('z', [m('CompileError')]).score).toBeNull();
    expect(scoreOf('w', [m('Killed'), m('Killed'), m('Survived')]).score).toBe(66.7);
  });

  it('renders the Markdown table by module path, with a total row and the modules below the bar marked', () => {
    expect(renderTable(summarize(report))).toBe(
      [
        '| module | killed | survived | no coverage | timeout | score |',
        '|---|---:|---:|---:|---:|---:|',
        '| `impl/core/digest.ts` | 1 | 0 | 1 | 0 | 50.0% (below 80%) |',
        '| `impl/core/filter.ts` | 3 | 1 | 0 | 1 | 80.0% |',
        '| **all** | 4 | 1 | 1 | 1 | **71.4%** |',
        '',
      ].join('\n'),
    );
    expect(renderTable([scoreOf('only.ts', [m('CompileError')])], 90)).toBe(
      '| module | killed | survived | no coverage | timeout | score |\n|---|---:|---:|---:|---:|---:|\n| `only.ts` | 0 | 0 | 0 | 0 | n/a |\n',
    );
  });

  it('merges reports, a later run of a module replacing the earlier one', () => {
    const rerun: MutationReport = { files: { 'impl/core/digest.ts': { mutants: [m('Killed'), m('Killed')] } } };
    const rows = summarize(mergeReports([report, rerun]));
    expect(rows.map((r) => [r.module, r.score])).toEqual([['impl/core/digest.ts', 100], ['impl/core/filter.ts', 80]]);
  });

  it('a re-run of some lines of an unchanged module updates only those mutants; a changed source replaces the module', () => {
    const first: MutationReport = { files: { 'a.ts': { source: 'v1', mutants: [m('Survived', 1), m('Survived', 2), m('Killed', 3)] } } };
    const part: MutationReport = { files: { 'a.ts': { source: 'v1', mutants: [m('Killed', 2), m('Killed', 9)] } } };
    expect(mergeReports([first, part]).files['a.ts']!.mutants.map((x) => [x.location.start.line, x.status])).toEqual([
      [1, 'Survived'], [2, 'Killed'], [3, 'Killed'], [9, 'Killed'],
    ]);
    const changed: MutationReport = { files: { 'a.ts': { source: 'v2', mutants: [m('Killed', 2)] } } };
    expect(mergeReports([first, changed]).files['a.ts']!.mutants).toHaveLength(1);
    // A different replacement on the same spot is another mutant.
    const other: MutationReport = { files: { 'a.ts': { source: 'v1', mutants: [m('Killed', 1, 'ConditionalExpression', 'false')] } } };
    expect(mergeReports([first, other]).files['a.ts']!.mutants).toHaveLength(4);
  });

  it('lists the survivors and the uncovered mutants by module and line', () => {
    expect(renderSurvivors(report)).toBe(
      'impl/core/digest.ts:4:3 NoCoverage StringLiteral -> ""\nimpl/core/filter.ts:12:3 Survived ConditionalExpression -> true\n',
    );
    expect(renderSurvivors({ files: { a: { mutants: [m('Killed')] } } })).toBe('');
  });

  it('refuses what is not a Stryker report, naming where', () => {
    expect(readReport([], 'r.json')).toMatchObject({ rule: 'mutation.report', path: 'r.json' });
    expect(readReport({}, 'r.json')).toMatchObject({ path: 'r.json: files' });
    expect(readReport({ files: { a: {} } }, 'r.json')).toMatchObject({ path: 'r.json: files["a"].mutants' });
    expect(readReport({ files: { a: { mutants: [{ status: 'Killed' }] } } }, 'r.json')).toMatchObject({ path: 'r.json: files["a"].mutants[0]' });
    expect(readReport(report, 'r.json')).toBe(report);
  });
});

describe('npm run mutate:summary', () => {
  const run = (argv: string[], files: Record<string, string>) => {
    let out = '';
    let err = '';
    const code = main(argv, { write: (t: string) => (out += t) }, { write: (t: string) => (err += t) }, (p) => {
      const text = files[p];
      if (text === undefined) throw new Error(`ENOENT: no such file, open '${p}'`);
      return text;
    });
    return { code, out, err };
  };

  it('prints the table of the default report, and the survivors with --survivors', () => {
    const files = { 'reports/mutation/mutation.json': JSON.stringify(report) };
    const plain = run([], files);
    expect(plain).toEqual({ code: 0, out: renderTable(summarize(report)), err: '' });
    const withSurvivors = run(['--survivors'], files);
    expect(withSurvivors.out).toBe(`${renderTable(summarize(report))}\n${renderSurvivors(report)}`);
  });

  it('exit 1 for a missing or foreign report, 2 for an unknown flag, with a message and no stack', () => {
    const missing = run(['nope.json'], {});
    expect(missing.code).toBe(1);
    expect(missing.err).toBe("mutate:summary: cannot read nope.json: ENOENT: no such file, open 'nope.json' (run `npm run mutate` first; it writes reports/mutation/mutation.json)\n");
    const foreign = run(['x.json'], { 'x.json': '{"files":[]}' });
    expect(foreign.code).toBe(1);
    expect(foreign.err).toContain('mutate:summary: mutation.report at x.json: files: missing or not an object');
    const bad = run(['--nope'], {});
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^mutate:summary: unknown flag --nope\n\nusage: /);
    expect(run(['--help'], {})).toMatchObject({ code: 0, err: '' });
  });
});
