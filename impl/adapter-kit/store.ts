/**
 * The daemon's files under the AEP home (`AEP_HOME`, default `~/.aep`):
 * - `adapter-<agent>.state.json`: `{"epoch": N}`, bumped once per process start (AEP-0001 §7);
 * - `logs/<agent>/<session>.jsonl`: every emitted event, one line each, the durable record.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The AEP home: `AEP_HOME` when set, else `~/.aep`. */
export function aepHome(env: Record<string, string | undefined>): string {
  return env.AEP_HOME && env.AEP_HOME.trim() !== '' ? env.AEP_HOME : join(homedir(), '.aep');
}

/**
 * Read the persisted epoch, bump it, persist the new value and return it. A missing or unreadable
 * state file starts at epoch 0. Written via a temp file and rename so a crash never leaves half a file.
 */
export function nextEpoch(home: string, agent: string): number {
  const file = join(home, `adapter-${agent}.state.json`);
  let epoch = 0;
  try {
    const previous = (JSON.parse(readFileSync(file, 'utf8')) as { epoch?: unknown }).epoch;
    if (typeof previous === 'number' && Number.isInteger(previous) && previous >= 0) epoch = previous + 1;
  } catch {
    // first start, or a corrupt file: start a fresh generation at 0
  }
  mkdirSync(home, { recursive: true });
  writeFileSync(`${file}.tmp`, `${JSON.stringify({ epoch })}\n`);
  renameSync(`${file}.tmp`, file);
  return epoch;
}

/** A session id made safe as a file name (AEP-0003 §9.6: ids are untrusted input). */
export function sessionFileName(session: string): string {
  const safe = session.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^[._-]+/, '');
  return `${(safe || 'session').slice(0, 200)}.jsonl`;
}

/** Append one event line to the session's log file. */
export function appendLog(home: string, agent: string, session: string, line: string): void {
  const dir = join(home, 'logs', agent);
  mkdirSync(dir, { recursive: true });
  appendFileSync(join(dir, sessionFileName(session)), `${line}\n`);
}
