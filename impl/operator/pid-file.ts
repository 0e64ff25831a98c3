/** A managed daemon's pid file (`$AEP_HOME/run/<id>.pid`) read back, and whether that pid still runs. */
import { readFileSync } from 'node:fs';
import { pidFile } from './catalog.js';

/** The pid in the daemon's pid file; undefined when there is none or it holds no positive integer. */
export function readPid(home: string, id: string): number | undefined {
  try {
    const n = Number(readFileSync(pidFile(home, id), 'utf8').trim());
    return Number.isInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid exists (one we may not signal counts: EPERM). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
