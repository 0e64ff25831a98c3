/**
 * What a CI pipeline reads from `aep conformance`: the JUnit file (read back by junit2json, a JUnit
 * parser from npm, counts held to the report's), the baseline writer and its refresh, an entry
 * naming no check, the stale-only exit code, --require-revision, and --report made before --json
 * writes into it. In-process against the hand-made test corpus.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, type TestCase, type TestSuite, type TestSuites } from 'junit2json';
import { afterEach, describe, expect, it } from 'vitest';
import { goodImplementation, writeCorpus } from '../../runners/conformance/test-utils/corpus.js';
import type { Implementation } from '../../runners/conformance/types.js';
import { runConformance } from './conformance.js';
import { UsageError } from './io.js';
import { fakeIo } from '../test-utils/cli-io.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'aep-ci-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function corpus(): string {
  const c = writeCorpus();
  cleanups.push(c.cleanup);
  return c.dir;
}

/** Fails `downlevel/text drops at metadata` and `attr-match/tool glob misses run`. */
function broken(): Implementation {
  const good = goodImplementation();
  return { ...good, downlevel: (event: unknown) => event, attrMatch: () => true };
}

const DOWN = 'downlevel/text drops at metadata';
const MISS = 'attr-match/tool glob misses run';

async function run(values: Record<string, unknown>, impl: Implementation = goodImplementation(), cwd = tmpdir()) {
  const io = fakeIo({ cwd });
  const code = await runConformance({ values, positionals: [] }, io, { implementation: impl, reportPages: () => ({}) });
  return { code, io };
}

/** Every testcase of a parsed JUnit document, with its suite. */
function testcases(doc: TestSuites | TestSuite | null | undefined): TestCase[] {
  const suites = doc && 'testsuite' in doc && Array.isArray((doc as TestSuites).testsuite) ? (doc as TestSuites).testsuite! : [];
  return suites.flatMap((s) => s.testcase ?? []);
}

/** The testcase's properties as [name, value] pairs (junit2json flattens a testcase's <properties> as it does a suite's). */
function props(tc: TestCase): [string, string][] {
  const raw = (tc as unknown as { properties?: { name?: string; value?: string }[] }).properties ?? [];
  return raw.map((p) => [p.name ?? '', p.value ?? '']);
}

describe('aep conformance --junit', () => {
  it('writes one testcase per check, read back by a JUnit parser with the report\'s counts', async () => {
    const dir = tempDir();
    const baseline = join(dir, 'expected.json');
    writeFileSync(baseline, JSON.stringify({ [DOWN]: 'downlevel keeps text until issue 99' }));
    const { code, io } = await run({ corpus: corpus(), junit: join(dir, 'junit.xml'), json: '-', 'expected-failures': baseline }, broken());
    expect(code).toBe(1); // MISS is unexpected
    const report = JSON.parse(io.out);
    const doc = (await parse(readFileSync(join(dir, 'junit.xml'), 'utf8'))) as TestSuites;
    const cases = testcases(doc);
    expect(cases.length).toBe(report.summary.total);
    expect(doc.tests).toBe(report.summary.total);
    // failures: the unexpected ones (no stale here); skipped: the skips and the expected failures.
    expect(doc.failures).toBe(report.baseline.unexpected.length);
    const skippedCases = cases.filter((c) => (c.skipped ?? []).length > 0);
    expect(skippedCases.length).toBe(report.summary.skip + report.baseline.expected.length);
    const failed = cases.filter((c) => (c.failure ?? []).length > 0);
    expect(failed.map((c) => c.name)).toEqual([MISS]);
    expect(failed[0]!.failure![0]!.message).toBe('expected match=false, got true');
    expect(failed[0]!.classname).toBe('attr-match');
    const expected = cases.find((c) => c.name === DOWN)!;
    expect(expected.skipped![0]!.message).toBe('expected failure: downlevel keeps text until issue 99');
    expect(props(expected)).toEqual(expect.arrayContaining([['spec', 'AEP-0001 §8.2'], ['class', 'Collector/relay'], ['integration', 'core']]));
    expect(props(expected).find(([k]) => k === 'fixtureHash')?.[1]).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(io.err).toContain(`junit: ${join(dir, 'junit.xml')}\n`);
  });

  it('a mapping check is classed by family and integration; a stale entry is a failure of type stale', async () => {
    const dir = tempDir();
    const baseline = join(dir, 'expected.json');
    writeFileSync(baseline, JSON.stringify({ [DOWN]: 'it used to fail' }));
    const { code } = await run({ corpus: corpus(), family: ['downlevel'], junit: join(dir, 'j.xml'), 'expected-failures': baseline });
    expect(code).toBe(3);
    const cases = testcases((await parse(readFileSync(join(dir, 'j.xml'), 'utf8'))) as TestSuites);
    expect(cases).toHaveLength(1);
    expect(cases[0]!.failure![0]).toMatchObject({ type: 'stale' });
    expect(cases[0]!.failure![0]!.message).toContain(`remove it from ${baseline}`);
  });
});

describe('aep conformance --write-expected-failures', () => {
  it('writes every failure with its detail as the reason, then judges the run by it (exit 0)', async () => {
    const dir = tempDir();
    const file = join(dir, 'baseline.json');
    const { code, io } = await run({ corpus: corpus(), 'write-expected-failures': file }, broken());
    expect(code).toBe(0);
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(written).filter((k) => !k.startsWith('$'))).toEqual([MISS, DOWN].sort());
    expect(written[MISS]).toBe('expected match=false, got true');
    expect(written.$comment).toMatch(/--write-expected-failures/);
    expect(io.out).toContain(`expected failures: wrote ${file}: 2 entries (2 new, 0 kept, 0 dropped)`);
  });

  it('refreshes a file: keeps reasons and comments, drops what now passes, keeps entries of families not run', async () => {
    const dir = tempDir();
    const file = join(dir, 'baseline.json');
    writeFileSync(file, JSON.stringify({ $note: 'ours', [DOWN]: 'our words', [MISS]: 'fixed since', 'golden/line 1 run.started': 'another family' }));
    const impl = { ...goodImplementation(), downlevel: (event: unknown) => event };
    const { code, io } = await run({ corpus: corpus(), family: ['downlevel', 'attr-match'], 'write-expected-failures': file }, impl);
    expect(code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ $note: 'ours', [DOWN]: 'our words', 'golden/line 1 run.started': 'another family' });
    expect(io.out).toContain('2 kept');
    expect(io.out).toContain(`1 dropped: ${MISS}`);
  });
});

describe('aep conformance --expected-failures, checked against the run', () => {
  it('an entry naming no check of a family that ran is a usage error with a suggestion', async () => {
    const dir = tempDir();
    const file = join(dir, 'expected.json');
    writeFileSync(file, JSON.stringify({ 'attr-match/tool glob missess run': 'typo', 'golden/whatever': 'golden did not run: ignored' }));
    const err = await run({ corpus: corpus(), family: ['attr-match'], 'expected-failures': file }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe(`${file}: no such check: attr-match/tool glob missess run (no check of the attr-match family has this name); did you mean ${MISS}?`);
  });

  it('an entry starting with no family at all is an error too', async () => {
    const dir = tempDir();
    const file = join(dir, 'expected.json');
    writeFileSync(file, JSON.stringify({ 'mapings/codex/Stop': 'typo in the family' }));
    await expect(run({ corpus: corpus(), family: ['attr-match'], 'expected-failures': file })).rejects.toThrow(/no such check: mapings\/codex\/Stop \(it starts with no family/);
  });
});

describe('aep conformance --require-revision', () => {
  it('runs when the corpus is that revision and fails before any check when it is not', async () => {
    const dir = corpus();
    const first = await run({ corpus: dir, family: ['attr-match'], json: '-' });
    const revision = JSON.parse(first.io.out).run.revision as string;
    expect((await run({ corpus: dir, family: ['attr-match'], 'require-revision': revision })).code).toBe(0);
    writeFileSync(join(dir, 'attr-match', 'extra.txt'), 'an edit');
    const other = await run({ corpus: dir, family: ['attr-match'], 'require-revision': revision });
    expect(other.code).toBe(1);
    expect(other.io.out).toMatch(/is revision sha256:[0-9a-f]{64}, not the required sha256:[0-9a-f]{64} \(--require-revision\); no check was run/);
    expect(other.io.out).not.toContain('attr-match:');
    await expect(run({ corpus: dir, 'require-revision': 'abc' })).rejects.toThrow(/--require-revision takes a corpus revision/);
  });
});

describe('aep conformance --report with --json inside it', () => {
  it('makes the folder before --json writes into it', async () => {
    const cwd = tempDir();
    const { code } = await run({ corpus: corpus(), family: ['attr-match'], json: 'aep-report/run.json', report: 'aep-report', junit: 'aep-report/junit.xml' }, goodImplementation(), cwd);
    expect(code).toBe(0);
    for (const f of ['run.json', 'report.json', 'report.md', 'index.html', 'junit.xml']) expect(existsSync(join(cwd, 'aep-report', f))).toBe(true);
    expect(JSON.parse(readFileSync(join(cwd, 'aep-report', 'run.json'), 'utf8')).run.tool.commit).toMatch(/^([0-9a-f]{40}(-dirty)?|unknown)$/);
  });

  it('report.md and index.html mark each failure expected (with its reason) or unexpected, and show the baseline verdict', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'expected.json'), JSON.stringify({ [DOWN]: 'keeps text until issue 99' }));
    const { code } = await run({ corpus: corpus(), report: 'out', 'expected-failures': 'expected.json' }, broken(), cwd);
    expect(code).toBe(1);
    const md = readFileSync(join(cwd, 'out', 'report.md'), 'utf8');
    expect(md).toContain(`| ${DOWN} | fail | expected: keeps text until issue 99 |`);
    expect(md).toContain(`| ${MISS} | fail | UNEXPECTED |`);
    expect(md).toMatch(/## Baseline verdict\n\n\*\*FAILED\*\* against baseline `.*expected\.json`: 1 expected, 1 unexpected, 0 unexcused skips, 0 stale\./);
    const html = readFileSync(join(cwd, 'out', 'index.html'), 'utf8');
    expect(html).toContain('<td class="baseline expected">expected: keeps text until issue 99</td>');
    expect(html).toContain('<td class="baseline unexpected">UNEXPECTED</td>');
    expect(html).toMatch(/<section id="baseline"><h2>Baseline<\/h2><p id="baseline-verdict" class="failed">FAILED against baseline .*expected\.json: 1 expected, 1 unexpected/);
  });
});

describe('--case limits the progress lines', () => {
  it('prints only the selected checks\' tally and failures; a family\'s own notes only when the whole family is selected', async () => {
    const dir = corpus();
    mkdirSync(join(dir, 'mappings'));
    const codexPin = JSON.parse(readFileSync(resolve('conformance/fixtures/mappings/codex.json'), 'utf8')).hooks.Stop;
    writeFileSync(join(dir, 'mappings', 'codex.json'), JSON.stringify({ hooks: { Stop: codexPin, Broken: { input: { hook_event_name: 'Stop', session_id: 's' }, expected: { type: 'run.failed', data: {} } } } }));
    writeFileSync(join(dir, 'mappings', 'heron.json'), JSON.stringify({ hooks: {} }));
    const narrow = await run({ corpus: dir, case: ['mappings/codex/Stop'] });
    expect(narrow.io.out).toBe(`aep conformance: corpus ${dir}\nmappings: 1/1 pass\n1 check: 1 pass, 0 fail, 0 skip: OK\n`);
    const whole = await run({ corpus: dir, case: ['mappings'] });
    expect(whole.io.out).toContain('mappings: not run: heron.json');
    expect(whole.io.out).toContain('  FAIL mappings/codex/Broken [reference mapping.reference-pin, AEP-0002 Annex A]: ');
  });
});

describe('aep conformance --lint-corpus', () => {
  it('prints each finding and exits 1; --json - puts them on stdout; a clean corpus exits 0', async () => {
    const dir = corpus();
    mkdirSync(join(dir, 'mappings'));
    writeFileSync(join(dir, 'mappings', 'codex.json'), JSON.stringify({ hooks: { Stop: { input: { hook_event_name: 'Stop' }, expected: { type: 'run.finished', data: { stop_reasn: 'x' } } } } }));
    const lint = await run({ corpus: dir, 'lint-corpus': true, json: '-' });
    expect(lint.code).toBe(1);
    expect(lint.io.err).toContain('mappings/codex.json $.hooks.Stop.expected.data.stop_reasn [lint.pin.undeclared-member] the run.finished schema does not declare "stop_reasn"');
    expect(lint.io.err).toContain('1 finding\n');
    expect(JSON.parse(lint.io.out).findings).toHaveLength(1);
    writeFileSync(join(dir, 'mappings', 'codex.json'), JSON.stringify({ hooks: { Stop: { input: { hook_event_name: 'Stop' }, expected: { type: 'run.finished', data: {} } } } }));
    const clean = await run({ corpus: dir, 'lint-corpus': true });
    expect(clean.code).toBe(0);
    expect(clean.io.out).toContain('0 findings: the corpus is clean');
  });
});
