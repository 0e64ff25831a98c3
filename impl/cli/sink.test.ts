import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';
import { validateJsonl } from './validate.js';
import { parseName } from '../operator/sink-files.js';
import { TOKEN, aep, flowEvent, liveIo, post, useStack, waitUntil } from '../operator/test-utils/stack.js';
import { skipped, WHY } from '../test-utils/skip.js';

const stack = useStack();
const BIN = new URL('../../bin/aep.js', import.meta.url).pathname;
const BUILT = existsSync(new URL('../../dist/impl/cli/sink.js', import.meta.url));

/** Every segment of every session in DIR, oldest first, as parsed lines per session. */
function capture(dir: string): Map<string, { files: string[]; events: Array<Record<string, unknown>> }> {
  const out = new Map<string, { files: string[]; events: Array<Record<string, unknown>> }>();
  const names = readdirSync(dir).filter((f) => parseName(f));
  names.sort((a, b) => (parseName(a)!.rotated ?? Infinity) - (parseName(b)!.rotated ?? Infinity));
  for (const f of names) {
    const s = parseName(f)!.session;
    const entry = out.get(s) ?? { files: [], events: [] };
    entry.files.push(f);
    const text = readFileSync(join(dir, f), 'utf8');
    for (const l of text.split('\n')) if (l !== '') entry.events.push(JSON.parse(l));
    out.set(s, entry);
  }
  return out;
}

const seqs = (n: number) => [...Array(n).keys()];
const range = (session: string, from: number, to: number) => seqs(to - from).map((i) => flowEvent(session, from + i));

describe('aep sink on a real relay', () => {
  it('captures every session to DIR/<session>.jsonl with the exact bytes, and the files pass aep validate', async () => {
    const url = await stack.relay();
    const dir = mkdtempSync(join(tmpdir(), 'aep-sink-'));
    await post(url, range('a', 0, 10));
    const io = liveIo();
    const done = main(['sink', '--out', dir, '--relay', url, '--token', TOKEN, '--json'], io);
    await post(url, range('b.x', 0, 6));
    await waitUntil(() => existsSync(join(dir, 'b%2Ex.jsonl')) && readFileSync(join(dir, 'b%2Ex.jsonl'), 'utf8').split('\n').length === 7, 5000);
    io.stop('SIGTERM');
    expect(await done).toBe(143);
    expect(JSON.parse(io.out)).toMatchObject({ events: 16, duplicates: 0, rotations: 0, sessions: 2 });
    expect(readFileSync(join(dir, 'a.jsonl'), 'utf8')).toBe(range('a', 0, 10).map((e) => `${JSON.stringify(e)}\n`).join(''));
    for (const f of ['a.jsonl', 'b%2Ex.jsonl']) {
      const v = await aep(['validate', join(dir, f)]);
      expect(v.code, v.out).toBe(0);
    }
    expect(JSON.parse(readFileSync(join(dir, '.sink-state.json'), 'utf8')).positions).toEqual({ a: { 'aep://test/agent/a': { epoch: 1, seq: 9 } }, 'b.x': { 'aep://test/agent/b.x': { epoch: 1, seq: 5 } } });
    expect(io.err).toContain('flushed and fsynced');
  });

  it('usage: --out is required, --rotate-mb must be positive', async () => {
    expect((await aep(['sink'])).code).toBe(2);
    expect((await aep(['sink', '--out', '/tmp/x', '--rotate-mb', '0'])).err).toContain('--rotate-mb must be a positive number');
  });

  it.skipIf(!BUILT)(`killed mid-stream (SIGKILL), torn, restarted with rotation: no gaps, no duplicates, every file valid${skipped(!BUILT, WHY.build)}`, async () => {
    const url = await stack.relay();
    const dir = mkdtempSync(join(tmpdir(), 'aep-sink-kill-'));
    const children: ChildProcess[] = [];
    const start = (extra: string[] = []) => {
      const child = spawn(process.execPath, [BIN, 'sink', '--out', dir, '--relay', url, '--token', TOKEN, ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr!.on('data', (d) => (err += d));
      children.push(child);
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      return { child, exited, err: () => err };
    };
    try {
      await post(url, [...range('A', 0, 40), ...range('B', 0, 20)]);
      const first = start();
      await waitUntil(() => existsSync(join(dir, 'B.jsonl')) && readFileSync(join(dir, 'B.jsonl'), 'utf8').split('\n').length > 20, 10_000);
      // Keep posting while the sink runs; kill it in the middle of that.
      const posting = (async () => {
        for (let i = 40; i < 80; i += 5) {
          await post(url, range('A', i, i + 5));
          await new Promise((r) => setTimeout(r, 15));
        }
      })();
      await new Promise((r) => setTimeout(r, 40));
      first.child.kill('SIGKILL');
      await first.exited;
      await posting;
      // It died mid-stream: A's file holds fewer than the 80 events posted so far.
      const beforeCrash = readFileSync(join(dir, 'A.jsonl'), 'utf8').split('\n').length - 1;
      expect(beforeCrash).toBeGreaterThanOrEqual(40);
      expect(beforeCrash).toBeLessThan(80);
      // A write cut by the crash: half a line at the end of A's file.
      appendFileSync(join(dir, 'A.jsonl'), JSON.stringify(flowEvent('A', 999)).slice(0, 37));
      // While the sink is down: more of A, and a session it has never seen.
      await post(url, [...range('A', 80, 120), ...range('C', 0, 10)]);
      const second = start(['--rotate-mb', '0.004']);
      await waitUntil(() => {
        try {
          const c = capture(dir);
          return c.get('A')?.events.length === 120 && c.get('C')?.events.length === 10;
        } catch {
          return false; // the torn line, before the sink repaired it
        }
      }, 10_000);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(143);
      expect(second.err()).toMatch(/repaired A\.jsonl: cut a torn final line \(37 bytes\)/);
      expect(second.err()).toMatch(/rotated A\.jsonl to A\.\d+\.jsonl/);
      const c = capture(dir);
      expect(c.get('A')!.events.map((e) => e.seq)).toEqual(seqs(120));
      expect(c.get('B')!.events.map((e) => e.seq)).toEqual(seqs(20));
      expect(c.get('C')!.events.map((e) => e.seq)).toEqual(seqs(10));
      expect(c.get('A')!.files.length).toBeGreaterThan(2);
      for (const [session, { files, events }] of c) {
        expect(new Set(events.map((e) => e.id)).size, session).toBe(events.length);
        const whole = validateJsonl(Buffer.from(events.map((e) => JSON.stringify(e)).join('\n') + '\n'));
        expect(whole.issues, session).toEqual([]);
        for (const f of files) {
          const v = validateJsonl(readFileSync(join(dir, f)));
          expect(v.issues, f).toEqual([]);
        }
      }
      const state = JSON.parse(readFileSync(join(dir, '.sink-state.json'), 'utf8')).positions;
      expect(state).toEqual({ A: { 'aep://test/agent/A': { epoch: 1, seq: 119 } }, B: { 'aep://test/agent/B': { epoch: 1, seq: 19 } }, C: { 'aep://test/agent/C': { epoch: 1, seq: 9 } } });
    } finally {
      for (const ch of children) if (ch.exitCode === null && ch.signalCode === null) ch.kill('SIGKILL');
    }
  }, 30_000);
});

describe('aep sink: an unusable --out', () => {
  it('says what failed and what to do (exit 1)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aep-sink-bad-'));
    const file = join(dir, 'a-file');
    appendFileSync(file, 'x');
    const r = await aep(['sink', '--out', join(file, 'sub'), '--relay', 'http://127.0.0.1:1', '--token', 't']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('it is a file, not a directory');
  });
});
