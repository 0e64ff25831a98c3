import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAMILIES } from '../../runners/conformance/families/index.js';
import { goodImplementation, writeCorpus } from '../../runners/conformance/test-utils/corpus.js';
import type { Implementation } from '../../runners/conformance/types.js';
import { runConformance } from './conformance.js';
import { main } from './main.js';
import { fakeIo } from '../test-utils/cli-io.js';
import { skipped, WHY } from '../test-utils/skip.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function corpus(overrides: Record<string, string | null> = {}): string {
  const c = writeCorpus(overrides);
  cleanups.push(c.cleanup);
  return c.dir;
}

const fixedClock = () => {
  let t = Date.parse('2026-03-04T05:06:07.000Z');
  return () => new Date((t += 250));
};

async function conformance(argv: { values?: Record<string, unknown>; positionals?: string[] }, impl: Implementation = goodImplementation()) {
  const io = fakeIo({ cwd: tmpdir() });
  const code = await runConformance({ values: argv.values ?? {}, positionals: argv.positionals ?? [] }, io, { implementation: impl, now: fixedClock() });
  return { code, io };
}

describe('aep conformance', () => {
  it('--json - puts only the report on stdout and the human lines on stderr', async () => {
    const dir = corpus();
    const { code, io } = await conformance({ values: { corpus: dir, json: '-' }, positionals: ['attr-match', 'downlevel'] });
    expect(code).toBe(0);
    const report = JSON.parse(io.out);
    expect(io.out).toBe(`${JSON.stringify(report, null, 2)}\n`);
    const hash = expect.stringMatching(/^sha256:[0-9a-f]{64}$/);
    const am = { family: 'attr-match', integration: 'core', class: 'Collector/relay', spec: ['AEP-0003 §6'], basis: 'must', rule: { id: 'filter.attr-match', section: 'AEP-0003 §6' }, fixtureHash: hash };
    expect(report).toEqual({
      format: 'aep-conformance-report',
      formatVersion: 1,
      aep: '0.1',
      tool: 'run-ts',
      target: null,
      startedAt: '2026-03-04T05:06:07.250Z',
      finishedAt: '2026-03-04T05:06:07.500Z',
      checks: [
        { name: 'attr-match/tool glob hits', status: 'pass', ...am },
        { name: 'attr-match/tool glob misses run', status: 'pass', ...am },
        { name: 'attr-match/invalid: payload is not filterable', status: 'pass', ...am },
        { name: 'downlevel/text drops at metadata', status: 'pass', family: 'downlevel', integration: 'core', class: 'Collector/relay', spec: ['AEP-0001 §8.2'], basis: 'must', rule: { id: 'capture.downlevel', section: 'AEP-0001 §8.2' }, fixtureHash: hash },
      ],
      summary: { pass: 4, fail: 0, skip: 0, total: 4 },
      ok: true,
      run: {
        corpus: dir,
        revision: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        tool: { name: 'aep-reference', version: expect.stringMatching(/^\d+\.\d+\.\d+/), commit: expect.stringMatching(/^([0-9a-f]{40}(-dirty)?|unknown)$/) },
        node: process.version,
        target: null,
        families: ['attr-match', 'downlevel'],
      },
      baseline: { ok: true, unexpected: [], stale: [], unexcusedSkips: [], expected: [] },
    });
    expect(io.err).toBe(`aep conformance: corpus ${dir}\nattr-match: 3/3 pass\ndownlevel: 1/1 pass\n4 checks: 4 pass, 0 fail, 0 skip: OK\n`);
  });

  it('exits 1 on a failure and reports it with its detail', async () => {
    const dir = corpus();
    const { code, io } = await conformance({ values: { corpus: dir, family: ['attr-match'], json: '-' } }, { ...goodImplementation(), attrMatch: () => true });
    expect(code).toBe(1);
    const report = JSON.parse(io.out);
    expect(report.ok).toBe(false);
    expect(report.summary).toEqual({ pass: 2, fail: 1, skip: 0, total: 3 });
    expect(report.checks[1]).toMatchObject({ name: 'attr-match/tool glob misses run', status: 'fail', detail: 'expected match=false, got true' });
    expect(io.err).toContain('  FAIL attr-match/tool glob misses run [must filter.attr-match, AEP-0003 §6]: expected match=false, got true\n');
    // each failure is printed once: no second "unexpected failure" line for it
    expect(io.err.match(/tool glob misses run/g)).toHaveLength(1);
    expect(io.err).toContain('3 checks: 2 pass, 1 fail, 0 skip: FAILED\n');
  });

  it('runs every family found when none is named, human lines on stdout without --json', async () => {
    const dir = corpus({ 'otlp/otlp-expected.json': null });
    const { code, io } = await conformance({ values: { corpus: dir } });
    expect(code).toBe(0);
    expect(io.err).toBe('');
    expect(io.out.split('\n').filter((l) => /^[a-z-]+: \d/.test(l))).toEqual([
      'golden: 5/5 pass', 'invalid: 2/2 pass', 'attr-match: 3/3 pass', 'ce-roundtrip: 10/10 pass',
      'ocsf: 3/3 pass', 'redaction: 2/2 pass', 'capture-gating: 1/1 pass', 'downlevel: 1/1 pass',
    ]);
  });

  it('--family accepts repeats and commas', async () => {
    const dir = corpus();
    const { io } = await conformance({ values: { corpus: dir, family: ['golden,invalid', 'otlp'], json: '-' } });
    expect([...new Set(JSON.parse(io.out).checks.map((c: { name: string }) => c.name.split('/')[0]))]).toEqual(['golden', 'invalid', 'otlp']);
  });

  it('a malformed fixture file is a failed check naming the file, not a crash', async () => {
    const dir = corpus({ 'redaction/cases.json': '{"text_cases": [}' });
    const { code, io } = await conformance({ values: { corpus: dir, family: ['redaction'], json: '-' } });
    expect(code).toBe(1);
    const [check] = JSON.parse(io.out).checks;
    expect(check.name).toBe('redaction/fixtures');
    expect(check.detail).toMatch(/^redaction\/cases\.json: malformed JSON: /);
  });

  it('--report DIR writes report.json, report.md and a self-contained index.html', async () => {
    const dir = corpus();
    const out = mkdtempSync(join(tmpdir(), 'aep-reports-'));
    cleanups.push(() => rmSync(out, { recursive: true, force: true }));
    const reports = join(out, 'nested', 'reports');
    const { code, io } = await conformance({ values: { corpus: dir, family: ['downlevel'], report: reports } });
    expect(code).toBe(0);
    expect(readdirSync(reports).sort()).toEqual(['certification', 'index.html', 'report.json', 'report.md']);
    // Pages only for what ran: a downlevel run exercises no integration, so only the index is written.
    expect(readdirSync(join(reports, 'certification'))).toEqual(['index.md']);
    expect(readFileSync(join(reports, 'certification', 'index.md'), 'utf8')).toMatch(/Not exercised by this report \(no page\): .*codex/);
    const json = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8'));
    expect(json.summary).toEqual({ pass: 1, fail: 0, skip: 0, total: 1 });
    // The committed report carries no wall-clock time: a rerun with the same results writes the same bytes.
    expect(json).not.toHaveProperty('startedAt');
    expect(json).not.toHaveProperty('finishedAt');
    expect(readFileSync(join(reports, 'report.json'), 'utf8')).not.toContain('2026-03-04');
    const md = readFileSync(join(reports, 'report.md'), 'utf8');
    expect(md).toContain('**OK**: 1 checks, 1 pass, 0 fail, 0 skip.');
    expect(md).toContain('| Collector/relay | 1 | 0 | 0 | 1 |');
    expect(md).not.toContain('2026-03-04');
    const html = readFileSync(join(reports, 'index.html'), 'utf8');
    expect(html).toContain('<td class="name">downlevel/text drops at metadata</td><td class="status">pass</td><td class="baseline none"></td><td class="spec">AEP-0001 §8.2</td>');
    expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//);
    expect(html).not.toContain('2026-03-04');
    expect(io.out).toContain(`report: ${join(reports, 'report.json')}\n`);
  });

  it('--json PATH writes the report file and leaves stdout human', async () => {
    const dir = corpus();
    const path = join(dir, 'r.json');
    const { io } = await conformance({ values: { corpus: dir, family: ['downlevel'], json: path } });
    expect(JSON.parse(readFileSync(path, 'utf8')).tool).toBe('run-ts');
    expect(io.out).toContain('downlevel: 1/1 pass\n');
  });
});

describe('aep conformance usage errors (through main: exit 2, one clear message, no stack)', () => {
  async function run(argv: string[]) {
    const io = fakeIo({ cwd: tmpdir() });
    const code = await main(['conformance', ...argv], io);
    return { code, io };
  }

  it('an unknown family lists the known ones', async () => {
    const { code, io } = await run(['--corpus', corpus(), '--family', 'golden', 'nope']);
    expect(code).toBe(2);
    expect(FAMILIES.map((f) => f.name)).toEqual(expect.arrayContaining(['golden', 'invalid', 'attr-match', 'ce-roundtrip', 'otlp', 'ocsf', 'redaction', 'capture-gating', 'downlevel']));
    expect(io.err).toBe(
      `aep conformance: unknown family 'nope'; known families: ${FAMILIES.map((f) => f.name).join(', ')}\n` +
        "Run 'aep conformance --help' for usage.\n",
    );
    expect(io.out).toBe('');
  });

  it('--case that names no family says no check matches (not "unknown family")', async () => {
    const { code, io } = await run(['--corpus', corpus(), '--case', 'nosuch']);
    expect(code).toBe(2);
    expect(io.err).toContain("no check matches --case 'nosuch'");
    expect(io.err).not.toContain('unknown family');
  });

  it('--case with a known family but no such case prints nothing of a run before its error', async () => {
    const { code, io } = await run(['--corpus', corpus(), '--case', 'attr-match/line 999 x']);
    expect(code).toBe(2);
    expect(io.err).toContain("no check matches --case 'attr-match/line 999 x'");
    expect(io.err).not.toMatch(/attr-match: \d+\/\d+/);
    expect(io.err).not.toContain('aep conformance: corpus');
  });

  it('a named family whose files are absent', async () => {
    const dir = corpus({ 'ocsf/ocsf-classes.json': null });
    const { code, io } = await run(['--corpus', dir, '--family', 'ocsf']);
    expect(code).toBe(2);
    expect(io.err).toBe(`aep conformance: the fixture files of 'ocsf' are absent from ${dir}\nRun 'aep conformance --help' for usage.\n`);
  });

  it('a missing corpus directory', async () => {
    const { code, io } = await run(['--corpus', '/nonexistent/aep-corpus']);
    expect(code).toBe(2);
    expect(io.err).toBe("aep conformance: corpus directory /nonexistent/aep-corpus does not exist or is not a directory\nRun 'aep conformance --help' for usage.\n");
  });

  it('a corpus with no family in it', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'aep-empty-'));
    cleanups.push(() => rmSync(empty, { recursive: true, force: true }));
    const { code, io } = await run(['--corpus', empty]);
    expect(code).toBe(2);
    expect(io.err).toBe(`aep conformance: no fixture family found under ${empty} (expected golden/, invalid/, ...)\nRun 'aep conformance --help' for usage.\n`);
  });

  it('an unknown flag', async () => {
    const { code, io } = await run(['--bogus']);
    expect(code).toBe(2);
    expect(io.err).toMatch(/^aep conformance: unknown flag --bogus\n/);
  });

  it('--help documents every flag and family', async () => {
    const { code, io } = await run(['--help']);
    expect(code).toBe(0);
    for (const word of ['--corpus DIR', '--family NAME', '--json PATH|-', '--report DIR', 'golden', 'downlevel', 'exit codes']) expect(io.out).toContain(word);
  });
});

describe.skipIf(!existsSync(join(__dirname, '../../conformance/fixtures/golden/golden.jsonl')))(`the project corpus against the reference core${skipped(!existsSync(join(__dirname, '../../conformance/fixtures/golden/golden.jsonl')), WHY.corpus)}`, () => {
  it('every check passes', async () => {
    const io = fakeIo({ cwd: tmpdir() });
    const code = await main(['conformance', '--json', '-'], io);
    const report = JSON.parse(io.out);
    expect(report.checks.filter((c: { status: string }) => c.status !== 'pass')).toEqual([]);
    expect(code).toBe(0);
  });
});

describe.skipIf(!existsSync(join(__dirname, '../../dist/impl/cli/main.js')))(`the built binary${skipped(!existsSync(join(__dirname, '../../dist/impl/cli/main.js')), WHY.build)}`, () => {
  it('--json - writes nothing but the JSON report to stdout', async () => {
    const { execFileSync } = await import('node:child_process');
    const dir = corpus();
    let stdout: string;
    let status = 0;
    try {
      stdout = execFileSync(process.execPath, [join(__dirname, '../../bin/aep.js'), 'conformance', '--corpus', dir, '--family', 'attr-match', '--json', '-'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (err) {
      const e = err as { stdout: string; status: number };
      stdout = e.stdout;
      status = e.status;
    }
    expect([0, 1]).toContain(status);
    const report = JSON.parse(stdout);
    expect(stdout).toBe(`${JSON.stringify(report, null, 2)}\n`);
    expect(report.checks.map((c: { name: string }) => c.name)).toEqual([
      'attr-match/tool glob hits', 'attr-match/tool glob misses run', 'attr-match/invalid: payload is not filterable',
    ]);
  });
});
