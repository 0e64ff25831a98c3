/**
 * Directories created one level at a time, with a bound, and paths checked before any work.
 *
 * Node's `mkdirSync(p, {recursive: true})` loops forever on a parent that exists but refuses new
 * entries (`/proc/1/nope`: ENOENT from an existing parent), at 100% CPU. `ensureDir` walks up to
 * the nearest existing ancestor (at most {@link MAX_DIR_DEPTH} levels), then creates each missing
 * level once: any refusal is an error naming the level and the reason.
 */
import { closeSync, mkdirSync, openSync, statSync, unlinkSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Most missing levels created for one path. */
export const MAX_DIR_DEPTH = 64;

/** A path that cannot be used, with the reason in plain words. */
export class PathError extends Error {
  override name = 'PathError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/** Plain words for a file-system error code. */
export function reasonOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ENOENT':
      return 'the parent directory does not accept new entries (a virtual file system such as /proc?) or vanished';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a directory';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'ENAMETOOLONG':
      return 'the path is too long';
    case 'ELOOP':
      return 'the path loops through symbolic links';
    default:
      return code !== undefined ? `the system refused it (error ${code})` : ((err as Error)?.message ?? String(err));
  }
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path) as Stats;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null; // missing (or under a file: found while walking up)
    throw new PathError(path, reasonOf(err));
  }
}

/** Create `path` and any missing parents, one level at a time. Throws {@link PathError}. */
export function ensureDir(path: string): void {
  const target = resolve(path);
  const missing: string[] = [];
  let current = target;
  for (;;) {
    const st = statOrNull(current);
    if (st !== null) {
      if (!st.isDirectory()) throw new PathError(current, 'it is a file, not a directory');
      break;
    }
    missing.push(current);
    if (missing.length > MAX_DIR_DEPTH) throw new PathError(target, `more than ${MAX_DIR_DEPTH} missing directory levels`);
    const parent = dirname(current);
    if (parent === current) throw new PathError(current, 'no existing ancestor directory');
    current = parent;
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' && statOrNull(dir)?.isDirectory()) continue;
      throw new PathError(dir, `cannot create it: ${reasonOf(err)}`);
    }
  }
}

/**
 * Make sure `dir` exists (created if missing) and is writable. Returns true, or a message naming
 * `what` (the flag or variable the path came from): `--report /proc/nope: cannot create it: ...`.
 */
export function prepareDir(dir: string, what: string): true | string {
  try {
    ensureDir(dir);
    const probe = join(dir, `.aep-write-probe-${process.pid}`);
    closeSync(openSync(probe, 'wx'));
    unlinkSync(probe);
    return true;
  } catch (err) {
    if (err instanceof PathError) return `${what} ${dir}: ${err.path === resolve(dir) ? '' : `${err.path}: `}${err.reason}`;
    return `${what} ${dir}: not writable (${reasonOf(err)})`;
  }
}

/**
 * Check that a file can be written at `file` before any work: its directory exists and is
 * writable, and `file` is not a directory. Leaves nothing behind (a probe file is created and removed). Returns true or a message naming `what`.
 */
export function checkOutputFile(file: string, what: string): true | string {
  const target = resolve(file);
  try {
    const st = statOrNull(target);
    if (st?.isDirectory()) return `${what} ${file}: it is a directory; name a file`;
    if (st !== null) {
      closeSync(openSync(target, 'r+')); // opens for writing without truncating
      return true;
    }
    const dir = dirname(target);
    const parent = statOrNull(dir);
    if (parent === null) return `${what} ${file}: the directory ${dir} does not exist`;
    if (!parent.isDirectory()) return `${what} ${file}: ${dir} is a file, not a directory`;
    // A probe: create the file exclusively and remove it again (access() passes for root where the write fails).
    closeSync(openSync(target, 'wx'));
    unlinkSync(target);
    return true;
  } catch (err) {
    if (err instanceof PathError) return `${what} ${file}: ${err.reason}`;
    return `${what} ${file}: not writable (${reasonOf(err)})`;
  }
}
