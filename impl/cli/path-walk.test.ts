/**
 * Every verb that takes a path or AEP_HOME, given a path the file system refuses (`/proc/1/nope`:
 * an existing parent that accepts no new entries, the case Node's recursive mkdir spins on), must
 * fail at once with a clear message: spawned through bin/aep.js, with a timeout. Plus the class
 * guard: no recursive mkdir outside the one bounded helper.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'aep.js');
const BUILT = existsSync(join(ROOT, 'dist', 'impl', 'cli', 'main.js'));
const PROC = existsSync('/proc/1');
const BAD = '/proc/1/nope';
const DEAD = 'http://127.0.0.1:9';

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  err: string;
  ms: number;
}

/** `aep ...argv`, killed after `limitMs`. */
export function spawnAep(argv: string[], env: Record<string, string> = {}, limitMs = 8000): Promise<Run> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [BIN, ...argv], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.stdout.resume();
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, err, ms: Date.now() - started });
    });
  });
}

/** Each verb with a path (or AEP_HOME) pointed at the refusing folder. */
const CASES: Array<{ name: string; argv: string[]; env?: Record<string, string>; code: number }> = [
  { name: 'sink --out', argv: ['sink', '--out', `${BAD}/cap`, '--relay', DEAD], code: 1 },
  { name: 'tail --state', argv: ['tail', '--state', `${BAD}/s.json`, '--relay', DEAD], code: 1 },
  { name: 'tail with AEP_HOME', argv: ['tail', '--relay', DEAD], env: { AEP_HOME: BAD }, code: 1 },
  { name: 'setup up relay with AEP_HOME', argv: ['setup', 'up', 'relay'], env: { AEP_HOME: BAD, AEP_PORT: '9' }, code: 1 },
  { name: 'setup hooks --file', argv: ['setup', 'hooks', 'claude-code', '--file', `${BAD}/settings.json`], code: 1 },
  { name: 'setup hooks with HOME', argv: ['setup', 'hooks', 'codex'], env: { HOME: BAD, CODEX_HOME: '' }, code: 1 },
  { name: 'setup unhooks --file', argv: ['setup', 'unhooks', 'gemini-cli', '--file', `${BAD}/settings.json`], code: 1 },
  { name: 'adapter with AEP_HOME', argv: ['adapter', 'claude-code', '--port', '0', '--relay', DEAD], env: { AEP_HOME: BAD }, code: 2 },
  { name: 'mcp with AEP_HOME', argv: ['mcp', '--relay', 'none'], env: { AEP_HOME: BAD }, code: 1 },
  { name: 'bridge ce --state', argv: ['bridge', 'ce', '--sink', 'http://127.0.0.1:9/x', '--state', `${BAD}/c.json`, '--relay', DEAD], code: 1 },
  { name: 'bridge ce with AEP_HOME', argv: ['bridge', 'ce', '--sink', 'http://127.0.0.1:9/x', '--relay', DEAD], env: { AEP_HOME: BAD }, code: 1 },
  { name: 'bridge otlp-in with AEP_HOME', argv: ['bridge', 'otlp-in', '--port', '0', '--relay', DEAD], env: { AEP_HOME: BAD }, code: 1 },
  { name: 'conformance --report', argv: ['conformance', '--family', 'attr-match', '--report', `${BAD}/r`], code: 2 },
  { name: 'validate FILE', argv: ['validate', `${BAD}/x.jsonl`], code: 2 },
  { name: 'timeline --file', argv: ['timeline', 'S', '--file', `${BAD}/x.jsonl`], code: 2 },
  { name: 'replay FILE', argv: ['replay', `${BAD}/x.jsonl`, '--relay', DEAD], code: 2 },
];

const SKIP = !BUILT ? ' (skipped: dist/ is not built; run npx tsc -p tsconfig.build.json)' : !PROC ? ' (skipped: no /proc on this system)' : '';

describe.skipIf(SKIP !== '')(`a refused path fails at once, every verb${SKIP}`, () => {
  for (const c of CASES) {
    it(`${c.name}: exit ${c.code} within 5 s, the path named in words`, async () => {
      const r = await spawnAep(c.argv, c.env);
      expect(r.signal, `${c.name} had to be killed: ${r.err}`).toBeNull();
      expect(r.code, r.err).toBe(c.code);
      expect(r.ms).toBeLessThan(5000);
      expect(r.err).toContain('/proc/1/nope');
      expect(r.err).not.toContain('internal error');
      expect(r.err).not.toMatch(/\bE[A-Z]{3,}\b(?! \d)/);
    });
  }
});

/** The source files of the project (no tests, no node_modules, no dist). */
function sources(dir: string, out: string[] = []): string[] {
  for (const n of readdirSync(dir)) {
    if (['node_modules', 'dist', 'coverage', '.git', 'reports'].includes(n)) continue;
    const p = join(dir, n);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.(ts|cts|js|mjs|cjs)$/.test(n) && !/\.test\.ts$/.test(n)) out.push(p);
  }
  return out;
}

describe('every folder is created through the bounded helper', () => {
  it('no recursive mkdir outside impl/adapter-kit/ensure-dir.ts', () => {
    const offenders = ['impl', 'runners', 'spec', 'bin', 'scripts', 'reliability']
      .filter((d) => existsSync(join(ROOT, d)))
      .flatMap((d) => sources(join(ROOT, d)))
      .filter((f) => !f.endsWith(join('adapter-kit', 'ensure-dir.ts')) && !f.includes(`${join('impl', 'test-utils')}`) && !f.includes('test-utils'))
      .filter((f) => /\bmkdir(Sync)?\s*\(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f));
    expect(offenders).toEqual([]);
  });
});
