/**
 * tail, sink and mcp finish their work on a signal and then exit as every non-daemon verb does:
 * 130 on SIGINT, 143 on SIGTERM (spawned through bin/aep.js against a real relay).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchStop } from './signal-exit.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'aep.js');
const BUILT = existsSync(join(ROOT, 'dist', 'impl', 'cli', 'main.js'));

describe('watchStop', () => {
  it('no signal: undefined; SIGINT 130; SIGTERM 143', async () => {
    let fire: (s: string) => void = () => {};
    const w = watchStop(new Promise<string>((r) => (fire = r)));
    expect(w.code()).toBeUndefined();
    fire('SIGINT');
    expect(await w.signal).toBe('SIGINT');
    expect(w.code()).toBe(130);
    const t = watchStop(Promise.resolve('SIGTERM'));
    await t.signal;
    expect(t.code()).toBe(143);
  });
});

/** Wait until the child's stderr (or stdout) contains `text`. */
function waitFor(child: ChildProcess, text: string, ms = 15000): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`timed out waiting for '${text}'; saw: ${seen}`)), ms);
    const on = (c: Buffer): void => {
      seen += c.toString();
      if (seen.includes(text)) {
        clearTimeout(timer);
        resolve(seen);
      }
    };
    child.stdout?.on('data', on);
    child.stderr?.on('data', on);
  });
}

const exitOf = (child: ChildProcess): Promise<number | null> => new Promise((r) => child.on('close', (code) => r(code)));

describe.skipIf(!BUILT)(`Ctrl-C and SIGTERM exit 130/143${BUILT ? '' : ' (skipped: dist/ is not built; run npx tsc -p tsconfig.build.json)'}`, () => {
  let relay: ChildProcess;
  let url = '';
  beforeAll(async () => {
    relay = spawn(process.execPath, [BIN, 'relay', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, AEP_TOKEN: '' } });
    const line = await waitFor(relay, 'listening on');
    url = /listening on (http:\/\/\S+)/.exec(line)![1]!;
  }, 30000);
  afterAll(() => {
    relay?.kill('SIGKILL');
  });
  const home = mkdtempSync(join(tmpdir(), 'aep-signal-'));
  const cases: Array<{ name: string; argv: () => string[]; ready: string; stdin?: boolean }> = [
    { name: 'tail', argv: () => ['tail', '--relay', url, '--state', join(home, 'tail.json')], ready: '' },
    { name: 'sink', argv: () => ['sink', '--relay', url, '--out', join(home, 'cap')], ready: '' },
    { name: 'mcp', argv: () => ['mcp', '--relay', 'none'], ready: 'serving on stdio', stdin: true },
  ];
  for (const c of cases) {
    for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
      it(`${c.name}: ${signal} → ${code}`, async () => {
        const child = spawn(process.execPath, [BIN, ...c.argv()], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, AEP_HOME: home, AEP_TOKEN: '' } });
        const exited = exitOf(child);
        if (c.ready !== '') await waitFor(child, c.ready);
        await new Promise((r) => setTimeout(r, c.ready === '' ? 2000 : 300)); // tail and sink say nothing once subscribed
        child.kill(signal);
        const got = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 8000))]);
        if (got === 'hung') child.kill('SIGKILL');
        expect(got).toBe(code);
      }, 30000);
    }
  }
});
