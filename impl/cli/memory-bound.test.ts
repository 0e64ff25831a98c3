/**
 * The file verbs on inputs larger than their heap: each runs `bin/aep.js` (dist/, built by
 * `npx tsc -p tsconfig.build.json`) in a child process with a small `--max-old-space-size`. Code
 * that reads the whole file, or keeps every Event (or one entry per distinct id with no bound),
 * dies there with a heap-out-of-memory error; reading line by line with bounded state does not.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { skipped, WHY } from '../test-utils/skip.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'aep.js');
const BUILT = existsSync(join(ROOT, 'dist', 'impl', 'cli', 'main.js'));
const dir = mkdtempSync(join(tmpdir(), 'aep-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A valid capture of `n` Events round-robin over `sessions` sessions (s0, s1, ...), about 260 bytes a line. */
function writeCapture(name: string, n: number, sessions: number): string {
  const file = join(dir, name);
  const fd = openSync(file, 'w');
  const next = new Array<number>(sessions).fill(0);
  let buf = '';
  for (let k = 0; k < n; k++) {
    const s = k % sessions;
    const i = next[s]!++;
    const session = `s${s}`;
    const base = { aep: '0.1', id: `${session}-${i}`, time: new Date(Date.UTC(2026, 0, 1) + k * 10).toISOString(), source: 'aep://mem/agent', agent: 'mem', session, epoch: 1, seq: i, capture: 'metadata' };
    const e =
      i === 0 ? { ...base, type: 'session.started', data: {} }
      : i === 1 ? { ...base, type: 'run.started', run: 'r1', data: { trigger: 'user' } }
      : { ...base, type: i % 2 === 0 ? 'tool.requested' : 'tool.completed', run: 'r1', data: { tool: { name: 'Bash', call_id: `c${Math.floor((i - 2) / 2)}` } } };
    buf += `${JSON.stringify(e)}\n`;
    if (buf.length > 1 << 20) {
      writeSync(fd, buf);
      buf = '';
    }
  }
  writeSync(fd, buf);
  closeSync(fd);
  return file;
}

/** `aep ...args` with a heap of `heapMb` MB; the last 2 KB of stdout and stderr. */
function run(heapMb: number, args: string[]): Promise<{ code: number | null; out: string; err: string; lines: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let lines = 0;
    child.stdout.setEncoding('utf8').on('data', (t: string) => {
      for (let i = t.indexOf('\n'); i !== -1; i = t.indexOf('\n', i + 1)) lines++;
      out = (out + t).slice(-2048);
    });
    child.stderr.setEncoding('utf8').on('data', (t: string) => void (err = (err + t).slice(-2048)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err, lines }));
  });
}

describe.skipIf(!BUILT)(`file verbs in a heap smaller than their input (needs dist/: npx tsc -p tsconfig.build.json)${skipped(!BUILT, WHY.build)}`, () => {
  it('aep validate: 400,000 Events (100 MB) in a 64 MB heap', async () => {
    const file = writeCapture('validate.jsonl', 400_000, 20);
    const r = await run(64, ['validate', file]);
    expect(r.err).toBe('');
    expect(r.out).toBe(`${file}: 400000 events, valid\n`);
    expect(r.code).toBe(0);
  }, 600_000);

  it('aep timeline --file: one session of a 200,000-Event (50 MB) capture in a 64 MB heap', async () => {
    const file = writeCapture('timeline.jsonl', 200_000, 20);
    const r = await run(64, ['timeline', 's3', '--file', file, '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.lines).toBe(10_000);
    expect(r.out.trimEnd().split('\n').at(-1)).toContain('"id":"s3-9999"');
  }, 600_000);

  it('aep replay --dry-run: a 200,000-Event (50 MB) capture planned in a 96 MB heap', async () => {
    const file = writeCapture('replay.jsonl', 200_000, 20);
    const r = await run(96, ['replay', file, '--dry-run']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('200000 events in 20 sessions, 0 commands skipped, 0 duplicates coalesced, 0 unusable lines');
  }, 600_000);
});
