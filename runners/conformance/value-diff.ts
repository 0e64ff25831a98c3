/**
 * Every difference between two JSON values, not only the first: each differing member with its
 * path and both values (`absent` for a missing one, never `undefined`). Member order is ignored.
 * Members the caller marks as free text (`freeText(path)`: prompts, summaries, messages the
 * standard does not word) are compared for presence and type only: both a string, or both absent.
 * Pure; written here rather than borrowed from the implementation under test.
 */

export interface ValueDiff {
  /** JSON path of the member: `$.data.fields[0].label`. */
  path: string;
  /** The expected value; `undefined` when the member should be absent. */
  expected: unknown;
  /** The value found; `undefined` when it is absent. */
  actual: unknown;
}

export interface DiffOptions {
  /** Paths holding free text: compared for presence (a string on both sides), not wording. */
  freeText?: (path: string) => boolean;
  /** At most this many differences are collected (default 50). */
  limit?: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function member(path: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** A value as a failure line shows it: JSON, cut at 120 characters; `absent` for a missing member. */
export function showValue(v: unknown): string {
  if (v === undefined) return 'absent';
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** Every difference between `expected` and `actual` (empty when equal as JSON values). */
export function valueDiffs(expected: unknown, actual: unknown, opts: DiffOptions = {}, path = '$'): ValueDiff[] {
  const out: ValueDiff[] = [];
  walk(expected, actual, path, opts, out, opts.limit ?? 50);
  return out;
}

function walk(expected: unknown, actual: unknown, path: string, opts: DiffOptions, out: ValueDiff[], limit: number): void {
  if (out.length >= limit) return;
  if (opts.freeText?.(path) && (typeof expected === 'string' || typeof actual === 'string')) {
    if (typeof expected !== typeof actual) out.push({ path, expected, actual });
    return;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const n = Math.max(expected.length, actual.length);
    for (let i = 0; i < n; i++) walk(expected[i], actual[i], `${path}[${i}]`, opts, out, limit);
    return;
  }
  if (isObject(expected) && isObject(actual)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])];
    for (const key of keys) walk(expected[key], actual[key], member(path, key), opts, out, limit);
    return;
  }
  if (expected === undefined && actual === undefined) return;
  if (JSON.stringify(expected) !== JSON.stringify(actual)) out.push({ path, expected, actual });
}

/** One line per difference: `$.data.x: expected 1, got absent`. */
export function renderDiffs(diffs: readonly ValueDiff[]): string {
  return diffs.map((d) => `${d.path}: expected ${showValue(d.expected)}, got ${showValue(d.actual)}`).join('; ');
}

/** The free-text members the standard leaves to the emitter's wording (by last path segment). */
export const FREE_TEXT_MEMBERS: ReadonlySet<string> = new Set(['prompt', 'summary', 'message', 'detail', 'reason_text']);

/** `freeText` for `FREE_TEXT_MEMBERS`: a path whose last member is one of them. */
export function isFreeTextPath(path: string): boolean {
  const m = /\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(path);
  return m !== null && FREE_TEXT_MEMBERS.has(m[1]!);
}
