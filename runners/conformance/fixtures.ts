/**
 * Reading fixture files. Every failure is a FixtureError whose message names the file
 * (relative to the corpus root) and says what is wrong with it; the runner turns it into
 * a failed check for the family instead of crashing.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export class FixtureError extends Error {
  override name = 'FixtureError';
}

/** True when every relative path exists as a file under `corpusDir`. Never throws. */
export function filesExist(corpusDir: string, ...relPaths: string[]): boolean {
  try {
    return relPaths.every((p) => existsSync(join(corpusDir, p)) && statSync(join(corpusDir, p)).isFile());
  } catch {
    return false;
  }
}

/** A fixture file's text; a missing or unreadable file is a FixtureError naming it. */
export function readText(corpusDir: string, relPath: string): string {
  try {
    return readFileSync(join(corpusDir, relPath), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a directory' : ((err as Error).message ?? String(err));
    throw new FixtureError(`${relPath}: cannot read fixture file: ${why}`);
  }
}

/** Parses one JSON fixture file; a syntax error names the file. */
export function readJsonFixture(corpusDir: string, relPath: string): unknown {
  const text = readText(corpusDir, relPath);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new FixtureError(`${relPath}: malformed JSON: ${(err as Error).message}`);
  }
}

/** One parsed line of a JSONL fixture, with its 1-based line number. */
export interface FixtureLine {
  line: number;
  value: unknown;
}

/** Parses a JSONL fixture file; blank lines are skipped, a bad line names file and line. */
export function readJsonlFixture(corpusDir: string, relPath: string): FixtureLine[] {
  return parseJsonlFixture(readText(corpusDir, relPath), relPath);
}

/** The values of a JSONL fixture's text, with their 1-based lines; a malformed line is a FixtureError naming `relPath`. */
export function parseJsonlFixture(text: string, relPath: string): FixtureLine[] {
  const out: FixtureLine[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.replace(/\r$/, '');
    if (raw.trim() === '') continue;
    try {
      out.push({ line: i + 1, value: JSON.parse(raw) });
    } catch (err) {
      throw new FixtureError(`${relPath}: line ${i + 1}: malformed JSON: ${(err as Error).message}`);
    }
  }
  return out;
}

/** Reads `cases`-style arrays: `file[key]` must be an array of objects, else a FixtureError. */
export function caseList(file: unknown, relPath: string, key: string): Record<string, unknown>[] {
  const list = typeof file === 'object' && file !== null ? (file as Record<string, unknown>)[key] : undefined;
  if (!Array.isArray(list)) throw new FixtureError(`${relPath}: expected a top-level "${key}" array`);
  return list.map((c, i) => {
    if (typeof c !== 'object' || c === null || Array.isArray(c)) {
      throw new FixtureError(`${relPath}: ${key}[${i}] is not an object`);
    }
    return c as Record<string, unknown>;
  });
}

/** A case's display name: its `name` member, else its index in the file. */
export function caseName(c: Record<string, unknown>, index: number): string {
  return typeof c.name === 'string' && c.name !== '' ? c.name : `#${index}`;
}

/** The golden stream; the projection families pin their outputs against its lines. */
export const GOLDEN_FILE = 'golden/golden.jsonl';

/** One projection pin: its key, the golden index it names (`null` when the key names none), the pinned value. */
export interface GoldenPin {
  key: string;
  index: number | null;
  pin: unknown;
}

/**
 * Projection pins are objects keyed by the 0-based index of a golden line (`"3": {...}`);
 * `$`-prefixed keys are comments. A key that names no golden line is returned with
 * `index: null` so that one pin fails, not the whole family. Ordered by index.
 */
export function goldenPins(file: unknown, relPath: string, goldenCount: number): GoldenPin[] {
  if (typeof file !== 'object' || file === null || Array.isArray(file)) {
    throw new FixtureError(`${relPath}: expected an object keyed by golden line index`);
  }
  return Object.entries(file)
    .filter(([key]) => !key.startsWith('$'))
    .map(([key, pin]) => ({ key, index: /^(0|[1-9][0-9]*)$/.test(key) && Number(key) < goldenCount ? Number(key) : null, pin }))
    .sort((a, b) => (a.index ?? Infinity) - (b.index ?? Infinity));
}

/** The failure detail for a pin whose key names no golden line. */
export function strayPinDetail(relPath: string, key: string, goldenCount: number): string {
  return `fixture: ${relPath} key "${key}" is not the index of a golden line (0..${goldenCount - 1})`;
}

/** `golden[3] tool.completed`: how projection checks name the golden event they pin. */
export function goldenLabel(index: number, event: unknown): string {
  const t = typeof event === 'object' && event !== null ? (event as { type?: unknown }).type : undefined;
  return `golden[${index}]${typeof t === 'string' ? ` ${t}` : ''}`;
}
