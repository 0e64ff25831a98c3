import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { leftovers, livePids } from './leftover-processes.js';

const PROC = existsSync('/proc/self');
const ROOT = join(import.meta.dirname, '..', '..');
const started: ChildProcess[] = [];
afterAll(() => started.forEach((c) => c.kill('SIGKILL')));

/** A detached process that outlives its parent, as `aep setup up` starts one. */
function detached(env: NodeJS.ProcessEnv, extraArg = 'idle'): ChildProcess {
  const c = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)', extraArg], { detached: true, stdio: 'ignore', env });
  c.unref();
  started.push(c);
  return c;
}

const gone = (c: ChildProcess): Promise<void> => new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r() : c.once('exit', () => r())));

describe.skipIf(!PROC)(`the check for processes the suite left running${PROC ? '' : ' (skipped: no /proc on this system)'}`, () => {
  it('finds a detached process by the run mark in its environment, and by this clone in its command; not once it is stopped', async () => {
    const before = new Set(livePids());
    const mark = `AEP_TEST_RUN=self-test-${process.pid}`;
    const marked = detached({ PATH: process.env.PATH ?? '', AEP_TEST_RUN: `self-test-${process.pid}` });
    const clone = detached({ PATH: process.env.PATH ?? '' }, `${ROOT}/bin/aep.js`);
    const stranger = detached({ PATH: process.env.PATH ?? '' });
    const tool = detached({ PATH: process.env.PATH ?? '' }, `${ROOT}/node_modules/some-tool/worker.js`);
    await new Promise((r) => setTimeout(r, 200));
    const found = leftovers(before, mark, ROOT, 0).map((l) => l.pid);
    expect(found).toContain(marked.pid);
    expect(found).toContain(clone.pid);
    expect(found).not.toContain(stranger.pid);
    expect(found).not.toContain(tool.pid);
    // A process alive before the run started is never counted (self 0: here the children are this worker's, not vitest's workers).
    expect(leftovers(new Set([...before, marked.pid!, clone.pid!]), mark, ROOT, 0).map((l) => l.pid)).not.toContain(marked.pid);
    for (const c of [marked, clone, stranger, tool]) c.kill('SIGKILL');
    await Promise.all([marked, clone, stranger, tool].map(gone));
    const after = leftovers(before, mark, ROOT, 0).map((l) => l.pid);
    expect(after).not.toContain(marked.pid);
    expect(after).not.toContain(clone.pid);
  });
});
