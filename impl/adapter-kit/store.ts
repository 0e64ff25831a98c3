/**
 * The daemon's files under the AEP home (`AEP_HOME`, default `~/.aep`):
 * - `adapter-<agent>.state.json`: `{"epoch": N}`, bumped once per process start (AEP-0001 §7),
 *   written atomically (a temporary file, fsync, then rename);
 * - `logs/<agent>/<session>.jsonl`: every emitted event, one line each, the durable record (the
 *   session id escaped into a file name one-to-one: see session-file.ts; the daemon's writer is
 *   session-log.ts).
 */
import { appendFileSync, closeSync, fsyncSync, openSync, readFileSync, readSync, readdirSync, renameSync, statSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ensureDir } from './ensure-dir.js';
import { sessionFileName } from './session-file.js';

export { sessionFileName };

/** The AEP home: `AEP_HOME` when set, else `~/.aep`. */
export function aepHome(env: Record<string, string | undefined>): string {
  return env.AEP_HOME && env.AEP_HOME.trim() !== '' ? env.AEP_HOME : join(homedir(), '.aep');
}

/** The daemon refuses to start: reusing an epoch would reuse `(epoch, seq)` positions. */
export class EpochError extends Error {
  override name = 'EpochError';
}

/** How many bytes of a log's end are read to find its last epoch (one line is at most 1 MiB). */
const TAIL_BYTES = 1024 * 1024 + 1;

/** The epoch of the last complete event line of a log file, or undefined. */
function lastEpochOf(file: string): number | undefined {
  const fd = openSync(file, 'r');
  try {
    const size = statSync(file).size;
    const length = Math.min(size, TAIL_BYTES);
    const buf = Buffer.alloc(length);
    readSync(fd, buf, 0, length, size - length);
    const lines = buf.toString('utf8').split('\n');
    for (let i = lines.length - 1; i >= 0; i--) {
      try {
        const epoch = (JSON.parse(lines[i]!) as { epoch?: unknown }).epoch;
        if (typeof epoch === 'number' && Number.isInteger(epoch) && epoch >= 0) return epoch;
      } catch {
        // a torn or partial line: look at the one before
      }
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The highest epoch in the agent's session logs, or undefined when there are none. */
export function lastLoggedEpoch(home: string, agent: string): number | undefined {
  const dir = join(home, 'logs', agent);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return undefined;
  }
  let max: number | undefined;
  for (const name of names) {
    try {
      const epoch = lastEpochOf(join(dir, name));
      if (epoch !== undefined && (max === undefined || epoch > max)) max = epoch;
    } catch {
      // an unreadable log says nothing about the epoch
    }
  }
  return max;
}

/** Write `text` to `file` atomically: a temporary file beside it, fsync, then rename over it. */
export function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

/**
 * Read the persisted epoch, bump it, persist the new value and return it. Never goes backwards:
 * the new epoch is above both the state file's and every session log's. A missing state file with
 * no logs starts at 0. An unreadable state file is replaced by the logs' last epoch + 1 (said on
 * `log`); with no log to derive it from, the daemon refuses to start ({@link EpochError}).
 */
export function nextEpoch(home: string, agent: string, log: (line: string) => void = () => {}): number {
  const file = join(home, `adapter-${agent}.state.json`);
  let stored: number | undefined;
  let corrupt: string | undefined;
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') corrupt = `cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
  if (text !== undefined) {
    try {
      const previous = (JSON.parse(text) as { epoch?: unknown } | null)?.epoch;
      if (typeof previous === 'number' && Number.isInteger(previous) && previous >= 0) stored = previous;
      else corrupt = 'it holds no non-negative integer "epoch"';
    } catch {
      corrupt = 'it is not JSON (a torn write?)';
    }
  }
  const logged = text === undefined || corrupt !== undefined ? lastLoggedEpoch(home, agent) : undefined;
  if (corrupt !== undefined && logged === undefined) {
    throw new EpochError(
      `the state file ${file} is unreadable: ${corrupt}, and no session log under ${join(home, 'logs', agent)} shows the last epoch. ` +
        `Starting at epoch 0 could reuse (epoch, seq) positions. Write the last epoch used into it ({"epoch": N}), or delete it if no consumer holds this adapter's events.`,
    );
  }
  const epoch = Math.max(stored === undefined ? 0 : stored + 1, logged === undefined ? 0 : logged + 1);
  if (corrupt !== undefined) log(`the state file ${file} is unreadable (${corrupt}); continuing at epoch ${epoch}, after the last epoch in the session logs (${logged})`);
  ensureDir(home);
  writeAtomic(file, `${JSON.stringify({ epoch })}\n`);
  return epoch;
}

/** Directories already created by this process (appendLog runs once per event). */
const made = new Set<string>();

/** Append one event line to the session's log file, synchronously (bridges; the adapter daemon queues through session-log.ts). */
export function appendLog(home: string, agent: string, session: string, line: string): void {
  const dir = join(home, 'logs', agent);
  if (!made.has(dir)) {
    ensureDir(dir);
    made.add(dir);
  }
  try {
    appendFileSync(join(dir, sessionFileName(session)), `${line}\n`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    // the directory was removed while running: create it again, once
    ensureDir(dir);
    appendFileSync(join(dir, sessionFileName(session)), `${line}\n`);
  }
}
