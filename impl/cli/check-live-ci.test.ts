/**
 * `aep check-live` for CI: --junit (read back by junit2json, counts held to the report's),
 * --report DIR, --expected-failures (an expected failure, a stale entry's exit 3, an entry naming
 * no check) and --fail-on-skip, against the stub relay with one check broken on purpose.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, type TestCase, type TestSuites } from 'junit2json';
import { afterEach, describe, expect, it } from 'vitest';
import { startStubRelay, type StubOptions } from '../check-live/test-utils/stub-relay.js';
import { main } from './main.js';
import { fakeIo } from '../test-utils/cli-io.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});
async function stub(opts: StubOptions = {}): Promise<string> {
  const r = await startStubRelay(opts);
  cleanups.push(() => r.close());
  return r.url;
}
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'aep-live-ci-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
const cases = (doc: unknown): TestCase[] => ((doc as TestSuites).testsuite ?? []).flatMap((s) => s.testcase ?? []);

describe('aep check-live for CI', () => {
  it('--junit and --report: one testcase per check, counts equal to the report, spec sections as properties', async () => {
    const url = await stub({ broken: { resume: 'gap' } });
    const dir = tempDir();
    const io = fakeIo({ cwd: dir });
    const code = await main(['check-live', url, '--checks', 'discovery,resume,control-ack', '--report', 'out', '--junit', 'out/junit.xml', '--json', 'out/live.json'], io);
    expect(code).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
    expect(report.summary).toEqual({ pass: 1, fail: 1, skip: 1, total: 3 });
    expect(report.checks.find((c: { name: string }) => c.name === 'resume')).toMatchObject({ family: 'check-live', class: 'Collector/relay', spec: ['AEP-0003 §3.3', 'AEP-0003 §7'] });
    expect(report.checks.find((c: { name: string }) => c.name === 'control-ack')).toMatchObject({ class: 'Control-capable', spec: ['AEP-0004 §3', 'AEP-0004 §4.2'] });
    const doc = (await parse(readFileSync(join(dir, 'out', 'junit.xml'), 'utf8'))) as TestSuites;
    const all = cases(doc);
    expect(all.length).toBe(report.summary.total);
    expect(doc.failures).toBe(report.summary.fail);
    expect(all.filter((c) => c.failure?.length).map((c) => c.name)).toEqual(['resume']);
    expect(all.filter((c) => c.skipped?.length).length).toBe(report.summary.skip);
    expect(all.find((c) => c.name === 'control-ack')!.skipped![0]!.message).toMatch(/^skipped: no --control-session given/);
    expect(all.every((c) => c.classname === 'check-live')).toBe(true);
    expect((all.find((c) => c.name === 'resume') as unknown as { properties: { name: string; value: string }[] }).properties).toEqual(
      expect.arrayContaining([{ name: 'spec', value: 'AEP-0003 §3.3' }, { name: 'class', value: 'Collector/relay' }]),
    );
    // --json keeps the live report's own shape.
    expect(JSON.parse(readFileSync(join(dir, 'out', 'live.json'), 'utf8'))).toMatchObject({ tool: 'live', summary: { fail: 1 } });
    expect(readFileSync(join(dir, 'out', 'report.md'), 'utf8')).toContain('| resume | fail | UNEXPECTED |');
  });

  it('--expected-failures: a listed failure is expected (exit 0, a skipped testcase with the reason); a listed pass is stale (exit 3)', async () => {
    const url = await stub({ broken: { resume: 'gap' } });
    const dir = tempDir();
    writeFileSync(join(dir, 'expected.json'), JSON.stringify({ resume: 'our relay replays a gap until issue 12' }));
    const io = fakeIo({ cwd: dir });
    expect(await main(['check-live', url, '--checks', 'discovery,resume', '--expected-failures', 'expected.json', '--junit', 'j.xml'], io)).toBe(0);
    const resume = cases(await parse(readFileSync(join(dir, 'j.xml'), 'utf8'))).find((c) => c.name === 'resume')!;
    expect(resume.skipped![0]!.message).toBe('expected failure: our relay replays a gap until issue 12');
    const healthy = await stub();
    const again = fakeIo({ cwd: dir });
    expect(await main(['check-live', healthy, '--checks', 'discovery,resume', '--expected-failures', 'expected.json'], again)).toBe(3);
    expect(again.out).toContain('stale expected failure: resume now passes');
  });

  it('an entry naming no live check is a usage error with a suggestion', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'expected.json'), JSON.stringify({ resumee: 'typo' }));
    const io = fakeIo({ cwd: dir });
    expect(await main(['check-live', 'http://127.0.0.1:47', '--expected-failures', 'expected.json'], io)).toBe(2);
    expect(io.err).toContain('no such check: resumee; did you mean resume?');
  });

  it('--fail-on-skip makes an unlisted skip fail the run', async () => {
    const url = await stub();
    const io = fakeIo();
    expect(await main(['check-live', url, '--checks', 'discovery,control-ack'], io)).toBe(0);
    const strict = fakeIo();
    expect(await main(['check-live', url, '--checks', 'discovery,control-ack', '--fail-on-skip'], strict)).toBe(1);
    expect(strict.out).toContain('unexcused skip: control-ack');
  });
});
