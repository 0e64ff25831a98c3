/**
 * A reader that goes away (`aep ... | head -1`): every verb that prints exits quietly, with 0 or its
 * own code, and never prints a stack trace. Real processes, a pipe closed after the first line.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, ev, post, useStack } from '../operator/test-utils/stack.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'aep.js');
const BUILT = existsSync(join(ROOT, 'dist', 'impl', 'cli', 'main.js'));
const SKIP = BUILT ? '' : ' (skipped: dist/ is not built; run npm run build)';

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  err: string;
  first: string;
}

/** Runs `aep args` with `which` piped to a reader that closes after the first line. */
function headOne(args: string[], env: NodeJS.ProcessEnv, which: 'stdout' | 'stderr' = 'stdout', afterFirst?: () => void): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const reader = which === 'stdout' ? child.stdout : child.stderr;
    const other = which === 'stdout' ? child.stderr : child.stdout;
    let first = '';
    let err = '';
    other.setEncoding('utf8').on('data', (t: string) => (err += t));
    reader.setEncoding('utf8').on('data', (t: string) => {
      if (reader.destroyed) return;
      first += t;
      if (first.includes('\n')) {
        first = first.slice(0, first.indexOf('\n'));
        reader.destroy(); // the reader goes away, as `head -1` does
        afterFirst?.();
      }
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`aep ${args.join(' ')} did not exit within 60 s of its reader going away`));
    }, 60_000);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, err, first });
    });
  });
}

const quiet = (r: Ended): void => {
  expect(r.signal).toBeNull();
  expect(r.err).not.toMatch(/EPIPE|Error: write|\n\s+at |internal error/);
};

describe.skipIf(!BUILT)(`a verb whose reader goes away after one line${SKIP}`, () => {
  let env: NodeJS.ProcessEnv;
  let big: string;
  let events: string;
  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'aep-epipe-'));
    // Nothing of the user's: a home of its own, no relay token, every port variable left at its default.
    env = { PATH: process.env.PATH ?? '', HOME: dir, AEP_HOME: join(dir, 'aep-home') };
    big = join(dir, 'issues.jsonl');
    // 20,000 lines, each an Event with problems: a long report, written bit by bit.
    writeFileSync(big, `${'{"specversion":"0.1","type":"nope"}\n'.repeat(20_000)}`);
    events = join(dir, 'events.jsonl');
    writeFileSync(events, Array.from({ length: 20_000 }, (_, i) => `${JSON.stringify(ev('s-epipe', i + 1, i === 0 ? 'session.started' : 'run.started', i === 0 ? {} : { run: `r${i}` }))}\n`).join(''));
  });
  const cases: Array<[string, () => string[], number[]]> = [
    ['setup status', () => ['setup', 'status'], [0]],
    ['setup status --json', () => ['setup', 'status', '--json'], [0]],
    ['setup down (nothing was set up)', () => ['setup', 'down', '--all'], [0]],
    ['conformance --list', () => ['conformance', '--list'], [0]],
    ['conformance --family golden', () => ['conformance', '--family', 'golden'], [0]],
    ['validate of a 20,000-issue file', () => ['validate', big], [1]],
    ['timeline --file of a 20,000-event session', () => ['timeline', 's-epipe', '--file', events], [0]],
    ['--help', () => ['--help'], [0]],
    ['setup --help', () => ['setup', '--help'], [0]],
  ];
  for (const [name, args, codes] of cases) {
    it(`${name}: exits ${codes.join(' or ')}, no stack trace`, async () => {
      const r = await headOne(args(), env);
      expect(r.first.length).toBeGreaterThan(0);
      quiet(r);
      expect(codes, `exit ${r.code}; stderr: ${r.err.slice(0, 400)}`).toContain(r.code);
    }, 90_000);
  }
  it('a closed stderr is quiet too: validate, its report read on stderr', async () => {
    const r = await headOne(['validate', big, '--json'], env, 'stderr');
    expect(r.signal).toBeNull();
    expect([0, 1]).toContain(r.code);
  }, 90_000);
});

describe.skipIf(!BUILT)(`a verb that would run forever, its reader gone${SKIP}`, () => {
  const stack = useStack();
  it('tail: stops as on a signal but exits with its own code (0), and prints no stack', async () => {
    const url = await stack.relay();
    await post(url, [ev('s-tail', 0), ev('s-tail', 1, 'run.started', { run: 'r1' })]);
    const dir = mkdtempSync(join(tmpdir(), 'aep-epipe-tail-'));
    const env = { PATH: process.env.PATH ?? '', HOME: dir, AEP_HOME: dir, AEP_TOKEN: TOKEN };
    const started = Date.now();
    // The reader takes the first line and goes; the next event's line meets the closed pipe.
    const r = await headOne(['tail', '--relay', url, '--all', '--no-resume'], env, 'stdout', () => void post(url, [ev('s-tail', 2, 'run.started', { run: 'r2' })]));
    expect(r.first).toContain('session.started');
    quiet(r);
    expect(r.code, r.err).toBe(0);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);
});

