/** `aep conformance --expected-failures`, `--case` and `--list`, in-process against a hand-made corpus. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

function corpus(overrides: Record<string, string | null> = {}): string {
  const c = writeCorpus(overrides);
  cleanups.push(c.cleanup);
  return c.dir;
}

function baselineFile(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'aep-baseline-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'expected.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

/** downlevel that keeps the text: fails `downlevel/text drops at metadata` only. */
function leakyDownlevel(): Implementation {
  const good = goodImplementation();
  return { ...good, downlevel: (event: unknown) => event };
}

async function run(values: Record<string, unknown>, impl: Implementation = goodImplementation()) {
  const io = fakeIo({ cwd: tmpdir() });
  const code = await runConformance({ values, positionals: [] }, io, { implementation: impl });
  return { code, io };
}

const FAILING = 'downlevel/text drops at metadata';

describe('aep conformance --expected-failures', () => {
  it('exit 0 when only listed checks fail; the report records them as expected', async () => {
    const file = baselineFile({ $comment: 'why', [FAILING]: 'our downlevel keeps text until issue 99 lands' });
    const { code, io } = await run({ corpus: corpus(), family: ['downlevel', 'attr-match'], 'expected-failures': file, json: '-' }, leakyDownlevel());
    expect(code).toBe(0);
    const report = JSON.parse(io.out);
    expect(report.ok).toBe(true);
    expect(report.summary.fail).toBe(1);
    expect(report.baseline).toEqual({ ok: true, unexpected: [], stale: [], unexcusedSkips: [], expected: [FAILING], reasons: { [FAILING]: 'our downlevel keeps text until issue 99 lands' }, file });
    expect(io.err).toContain(`1 listed in ${file} as expected to fail or skip\n`);
  });

  it('exit 1 on an unlisted failure, naming it', async () => {
    const file = baselineFile({ 'attr-match/tool glob hits': 'unrelated excuse' });
    const { code, io } = await run({ corpus: corpus(), family: ['downlevel'], 'expected-failures': file }, leakyDownlevel());
    expect(code).toBe(1);
    expect(io.out).toContain(`unexpected failure: ${FAILING} (not in the expected-failures file)\n`);
  });

  it('exit 3 on a listed check that now passes (stale) when that is the only problem, saying to remove it', async () => {
    const file = baselineFile({ [FAILING]: 'was broken once' });
    const { code, io } = await run({ corpus: corpus(), family: ['downlevel'], 'expected-failures': file, json: '-' });
    expect(code).toBe(3);
    expect(JSON.parse(io.out).baseline.stale).toEqual([FAILING]);
    expect(io.err).toContain(`stale expected failure: ${FAILING} now passes; remove it from ${file}\n`);
  });

  it('a malformed file or an entry without a reason is a usage error naming the file', async () => {
    await expect(run({ corpus: corpus(), 'expected-failures': baselineFile('[1') })).rejects.toThrow(UsageError);
    await expect(run({ corpus: corpus(), 'expected-failures': baselineFile({ [FAILING]: '' }) })).rejects.toThrow(/needs a reason/);
    await expect(run({ corpus: corpus(), 'expected-failures': '/nonexistent/expected.json' })).rejects.toThrow(/cannot read the expected-failures file \/nonexistent\/expected\.json: ENOENT/);
  });

  it('an unimplemented source is a skip with its reason, which fails the run unless the baseline names it', async () => {
    const dir = corpus();
    mkdirSync(join(dir, 'mappings'), { recursive: true });
    writeFileSync(join(dir, 'mappings', 'heron.json'), JSON.stringify({ hooks: {} }));
    writeFileSync(join(dir, 'mappings', 'codex.json'), JSON.stringify({ hooks: { Stop: { input: { hook_event_name: 'Stop', session_id: 's' }, expected: { type: 'run.finished', data: {} } } } }));
    const bare = await run({ corpus: dir, family: ['mappings'], json: '-' });
    const report = JSON.parse(bare.io.out);
    expect(report.checks.find((c: { name: string }) => c.name === 'mappings/heron')).toEqual({
      name: 'mappings/heron', status: 'skip', detail: 'skipped: mappings/heron.json has no adapter in this implementation',
      family: 'mappings', integration: 'core', class: 'Emitter', spec: ['AEP-0002 Annex A'], basis: 'reference', rule: { id: 'mapping.reference-pin', section: 'AEP-0002 Annex A' },
    });
    expect(bare.code).toBe(1);
    expect(report.baseline.unexcusedSkips).toEqual(['mappings/heron']);
    const excused = await run({ corpus: dir, family: ['mappings'], json: '-', 'expected-failures': baselineFile({ 'mappings/heron': 'no heron adapter yet' }) });
    expect(JSON.parse(excused.io.out).checks.filter((c: { status: string }) => c.status !== 'pass').map((c: { name: string }) => c.name)).toEqual(['mappings/heron']);
    expect(excused.code).toBe(0);
  });
});

describe('aep conformance --case and --list', () => {
  it('--case runs single checks (exact name or a / prefix) and picks their family', async () => {
    const { code, io } = await run({ corpus: corpus(), case: ['attr-match/tool glob hits', 'downlevel'], json: '-' });
    expect(code).toBe(0);
    const report = JSON.parse(io.out);
    expect(report.checks.map((c: { name: string }) => c.name)).toEqual(['attr-match/tool glob hits', FAILING]);
    expect(report.run.cases).toEqual(['attr-match/tool glob hits', 'downlevel']);
  });

  it('--case naming no check is a usage error pointing at --list', async () => {
    await expect(run({ corpus: corpus(), case: ['attr-match/nope'] })).rejects.toThrow("no check matches --case 'attr-match/nope'");
  });

  it('--list prints every family with its case names and runs no verdict', async () => {
    const { code, io } = await run({ corpus: corpus(), family: ['attr-match', 'downlevel'], list: true });
    expect(code).toBe(0);
    expect(io.out).toMatch(/^attr-match: .+\n  attr-match\/tool glob hits\n  attr-match\/tool glob misses run\n  attr-match\/invalid: payload is not filterable\ndownlevel: .+\n  downlevel\/text drops at metadata\n$/);
  });
});
