import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startStubRelay, type StubOptions } from '../check-live/test-utils/stub-relay.js';
import { main } from './main.js';
import { fakeIo } from '../test-utils/cli-io.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});
async function stub(opts: StubOptions = {}): Promise<string> {
  const r = await startStubRelay(opts);
  cleanups.push(() => r.close());
  return r.url;
}

describe('aep check-live (CLI)', () => {
  it.each([
    [[], /missing the endpoint URL/],
    [['not a url'], /'not a url' is not a URL/],
    [['ftp://h/'], /must be an http:\/\/ or https:\/\/ URL/],
    [['http://h', '--checks', 'resume,nope'], /unknown check name\(s\): nope\. Known checks: discovery, version-gate, .*evict-byte-identity/],
    [['http://h', '--ack-window', '0'], /--ack-window must be an integer >= 1, got '0'/],
    [['http://h', '--evict-max', 'x'], /--evict-max must be an integer >= 0/],
    [['http://h', '--bogus'], /unknown flag --bogus\n/],
  ])('usage error %j exits 2 without a stack', async (args, message) => {
    const io = fakeIo();
    expect(await main(['check-live', ...args], io)).toBe(2);
    expect(io.err).toMatch(message);
    expect(io.err).not.toMatch(/\n\s+at /);
    expect(io.out).toBe('');
  });

  it('--json - puts only the report on stdout and the human lines on stderr', async () => {
    const url = await stub();
    const io = fakeIo();
    expect(await main(['check-live', url, '--checks', 'discovery,resume,control-ack', '--json', '-'], io)).toBe(0);
    const report = JSON.parse(io.out) as Record<string, unknown>;
    expect(io.out.endsWith('}\n')).toBe(true);
    expect(report).toMatchObject({
      format: 'aep-conformance-report',
      formatVersion: 1,
      aep: '0.1',
      tool: 'live',
      target: url,
      checks: [
        { name: 'discovery', status: 'pass' },
        { name: 'resume', status: 'pass' },
        { name: 'control-ack', status: 'skip', detail: expect.stringMatching(/^skipped: no --control-session given/) },
      ],
      summary: { pass: 2, fail: 0, skip: 1, total: 3 },
      ok: true,
    });
    expect(io.err).toContain(`aep check-live ${url}\n`);
    expect(io.err).toContain('  pass  discovery\n');
    expect(io.err).toContain('ok: 2 passed, 0 failed, 1 skipped (3 checks)\n');
  });

  it('exits 1 when a check fails, and writes the report file with --json PATH', async () => {
    const url = await stub({ broken: { resume: 'gap' } });
    const dir = await mkdtemp(join(tmpdir(), 'aep-check-live-'));
    const io = fakeIo({ cwd: dir });
    expect(await main(['check-live', url, '--checks', 'resume', '--json', 'report.json'], io)).toBe(1);
    expect(io.out).toMatch(/ {2}FAIL {2}resume {2}from=\[\{seq:0\}\] must replay exactly seq 1, 2, 3/);
    expect(io.out).toMatch(/FAILED: 0 passed, 1 failed, 0 skipped \(1 checks\)/);
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as { ok: boolean; summary: unknown };
    expect(report.ok).toBe(false);
    expect(report.summary).toEqual({ pass: 0, fail: 1, skip: 0, total: 1 });
  });

  it('prints its help with every flag and default', async () => {
    const io = fakeIo();
    expect(await main(['check-live', '--help'], io)).toBe(0);
    for (const flag of ['--token', '--checks', '--json', '--control-session', '--control-accepts', '--control-undeclared', '--control-cancel', '--ack-window', '--evict ', '--evict-max']) {
      expect(io.out).toContain(flag);
    }
    expect(io.out).toContain('default 10000');
  });
});

describe('aep demo-agent (CLI)', () => {
  it.each([
    [['--relay', 'nope'], /--relay 'nope' is not a URL/],
    [['--relay', 'ws://h'], /--relay must be an http:\/\/ or https:\/\/ URL/],
    [['--session', ''], /--session must not be empty/],
    [['extra'], /unexpected argument 'extra' \(this verb takes no arguments\)/],
  ])('usage error %j exits 2', async (args, message) => {
    const io = fakeIo();
    expect(await main(['demo-agent', ...args], io)).toBe(2);
    expect(io.err).toMatch(message);
  });
});
