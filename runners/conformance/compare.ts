/**
 * JSON comparison for pins: member order is ignored (canonical-JSON equality), and a
 * mismatch is described by the first differing path so a failed check says where to look.
 * Written here rather than borrowed from the implementation under test.
 */

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function show(v: unknown): string {
  if (v === undefined) return 'absent';
  const text = JSON.stringify(v);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function member(path: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * `null` when `actual` equals `expected` as JSON values (member order ignored), otherwise
 * one line: `at $.data.x: expected 1, got 2`.
 */
export function jsonDiff(expected: unknown, actual: unknown, path = '$'): string | null {
  if (Array.isArray(expected) || Array.isArray(actual)) {
    if (!Array.isArray(expected) || !Array.isArray(actual)) return `at ${path}: expected ${show(expected)}, got ${show(actual)}`;
    if (expected.length !== actual.length) {
      return `at ${path}: expected ${expected.length} items, got ${actual.length} (${show(actual)})`;
    }
    for (let i = 0; i < expected.length; i++) {
      const d = jsonDiff(expected[i], actual[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (isObject(expected) || isObject(actual)) {
    if (!isObject(expected) || !isObject(actual)) return `at ${path}: expected ${show(expected)}, got ${show(actual)}`;
    for (const key of Object.keys(expected)) {
      if (!(key in actual) || actual[key] === undefined) return `at ${member(path, key)}: expected ${show(expected[key])}, got absent`;
      const d = jsonDiff(expected[key], actual[key], member(path, key));
      if (d) return d;
    }
    for (const key of Object.keys(actual)) {
      if (!(key in expected) && actual[key] !== undefined) return `at ${member(path, key)}: unexpected member ${show(actual[key])}`;
    }
    return null;
  }
  return Object.is(expected, actual) || expected === actual ? null : `at ${path}: expected ${show(expected)}, got ${show(actual)}`;
}

/** Deep copy through JSON, used to detect an implementation that mutates its input. */
export function snapshot(value: unknown): string {
  return JSON.stringify(value);
}
