/** Pid files read back: a positive integer or nothing; a pid's liveness. */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pidFile } from './catalog.js';
import { isAlive, readPid } from './pid-file.js';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

function home(pid?: string): string {
  const h = mkdtempSync(`${tmpdir()}/aep-pid-`);
  homes.push(h);
  if (pid !== undefined) {
    mkdirSync(dirname(pidFile(h, 'relay')), { recursive: true });
    writeFileSync(pidFile(h, 'relay'), pid);
  }
  return h;
}

describe('readPid', () => {
  it('the pid written by aep setup, surrounding white space allowed', () => {
    expect(readPid(home('4242\n'), 'relay')).toBe(4242);
  });

  it('undefined for no file, an empty one, zero, a negative, a fraction or text', () => {
    expect(readPid(home(), 'relay')).toBeUndefined();
    for (const bad of ['', '0', '-3', '1.5', 'pid']) expect(readPid(home(bad), 'relay'), JSON.stringify(bad)).toBeUndefined();
  });
});

describe('isAlive', () => {
  it('true for this process, false for a child that has exited', async () => {
    expect(isAlive(process.pid)).toBe(true);
    const child = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => child.once('exit', r));
    expect(isAlive(child.pid!)).toBe(false);
  });
});
