/** Position state on disk (I/O): read tolerant of absence, written atomically (temp + rename). */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { fsReason } from './fs-errors.js';
import { ensureDir, prepareDir } from '../adapter-kit/ensure-dir.js';
import { dirname } from 'node:path';
import { emptyPositions, parseState, renderState, type Positions, type Recent } from './positions.js';

export async function loadState(file: string): Promise<{ ok: true; positions: Positions; recent: Recent; existed: boolean } | { ok: false; error: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, positions: emptyPositions(), recent: [], existed: false };
    return { ok: false, error: `cannot read the state file ${file}: ${fsReason(err)}` };
  }
  const parsed = parseState(text);
  if (!parsed.ok) return { ok: false, error: `the state file ${file} is unusable (${parsed.error}); delete it, or pass --no-resume` };
  return { ok: true, positions: parsed.positions, recent: parsed.recent, existed: true };
}

export async function saveState(file: string, positions: Positions, recent: Recent = []): Promise<void> {
  ensureDir(dirname(file));
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, renderState(positions, recent));
  await rename(tmp, file);
}

/**
 * Whether positions can be saved at `file`, checked before a tail starts: its folder is created
 * and probed with a file (the save is a temporary file renamed over it, so the folder is what must
 * be writable), and `file` is not a directory. True, or the problem in words.
 */
export function checkStatePath(file: string, what = '--state'): true | string {
  const dir = prepareDir(dirname(file), `the folder of ${what}`);
  if (dir !== true) return dir;
  try {
    if (statSync(file).isDirectory()) return `${what} ${file}: it is a directory; name a file`;
  } catch {
    // absent: the first save creates it
  }
  return true;
}
