import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { markedPids, ProcessJar } from './procs.js';

/** Running (a zombie waiting to be reaped by its parent counts as gone). */
const alive = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

describe('ProcessJar', () => {
  it('kills its process groups and any process carrying the run marker, even one that left the group', async () => {
    const jar = new ProcessJar(`test${process.pid}${Date.now()}`);
    // The child starts a grandchild in a new session (as a detached app-server would), then waits.
    const child = jar.spawn('sh', ['-c', 'setsid sleep 30 & sleep 30'], { env: jar.marked({ PATH: process.env.PATH ?? '/usr/bin:/bin' }), stdio: 'ignore' });
    const deadline = Date.now() + 3000;
    while (markedPids(jar.runId).length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const marked = markedPids(jar.runId);
    expect(marked).toContain(child.pid);
    expect(marked.length).toBeGreaterThanOrEqual(3);
    await jar.killAll(300);
    expect(markedPids(jar.runId)).toEqual([]);
    for (const pid of marked) expect(alive(pid)).toBe(false);
  });

  it('marks an environment without touching the rest of it', () => {
    expect(new ProcessJar('abc').marked({ A: '1' })).toEqual({ A: '1', AEP_VENDOR_RUN: 'abc' });
  });
});
