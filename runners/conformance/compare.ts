/**
 * JSON comparison for pins: member order is ignored, and a mismatch is described in full: every
 * missing member, every unexpected member and every changed value, each with its path and both
 * values (`absent` for a member that is not there). The walk is microdiff's (a small, dependency-free
 * deep comparison, docs/dependencies.md), never the implementation under test's.
 */
import microdiff from 'microdiff';

function isContainer(v: unknown): v is Record<string, unknown> | unknown[] {
  return typeof v === 'object' && v !== null;
}

function show(v: unknown): string {
  if (v === undefined) return 'absent';
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function member(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** One difference between a pin and what was produced. */
export interface JsonDifference {
  /** `missing`: the pin has it, the output does not; `unexpected`: the reverse; `changed`: both, unequal. */
  kind: 'missing' | 'unexpected' | 'changed';
  /** JSON path from `$`. */
  path: string;
  /** The pinned value; undefined when `unexpected`. */
  expected?: unknown;
  /** The produced value; undefined when `missing`. */
  actual?: unknown;
}

const sameKind = (a: unknown, b: unknown) => isContainer(a) && isContainer(b) && Array.isArray(a) === Array.isArray(b);

/** Every difference between `expected` and `actual` as JSON values (member order ignored, a member holding undefined is absent). */
export function jsonDifferences(expected: unknown, actual: unknown, root = '$'): JsonDifference[] {
  if (!sameKind(expected, actual)) {
    if (Object.is(expected, actual) || expected === actual) return [];
    if (expected === undefined) return [{ kind: 'unexpected', path: root, actual }];
    if (actual === undefined) return [{ kind: 'missing', path: root, expected }];
    return [{ kind: 'changed', path: root, expected, actual }];
  }
  const out: JsonDifference[] = [];
  for (const d of microdiff(expected as Record<string, unknown>, actual as Record<string, unknown>)) {
    const path = d.path.reduce<string>((p, k) => member(p, k), root);
    const before: unknown = d.type === 'CREATE' ? undefined : d.oldValue;
    const after: unknown = d.type === 'REMOVE' ? undefined : d.value;
    if (before === undefined && after === undefined) continue;
    if (before === undefined) out.push({ kind: 'unexpected', path, actual: after });
    else if (after === undefined) out.push({ kind: 'missing', path, expected: before });
    else out.push({ kind: 'changed', path, expected: before, actual: after });
  }
  return out;
}

/** `at $.data.x: expected 1, got 2` (a missing or unexpected member's other side is `absent`). */
export function describeDifference(d: JsonDifference): string {
  return `at ${d.path}: expected ${show(d.expected)}, got ${show(d.actual)}`;
}

/**
 * `null` when `actual` equals `expected` as JSON values (member order ignored), otherwise every
 * difference, `; `-separated: `at $.data.origin: expected "startup", got absent; at
 * $.data.trigger: expected absent, got "startup"`.
 */
export function jsonDiff(expected: unknown, actual: unknown, path = '$'): string | null {
  const all = jsonDifferences(expected, actual, path);
  return all.length === 0 ? null : all.map(describeDifference).join('; ');
}

/** Deep copy through JSON, used to detect an implementation that mutates its input. */
export function snapshot(value: unknown): string {
  return JSON.stringify(value);
}
