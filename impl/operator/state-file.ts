/** Position state on disk (I/O): read tolerant of absence, written atomically (temp + rename). */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { emptyPositions, parseState, renderState, type Positions, type Recent } from './positions.js';

export async function loadState(file: string): Promise<{ ok: true; positions: Positions; recent: Recent; existed: boolean } | { ok: false; error: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, positions: emptyPositions(), recent: [], existed: false };
    return { ok: false, error: `cannot read the state file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
  }
  const parsed = parseState(text);
  if (!parsed.ok) return { ok: false, error: `the state file ${file} is unusable (${parsed.error}); delete it, or pass --no-resume` };
  return { ok: true, positions: parsed.positions, recent: parsed.recent, existed: true };
}

export async function saveState(file: string, positions: Positions, recent: Recent = []): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, renderState(positions, recent));
  await rename(tmp, file);
}
