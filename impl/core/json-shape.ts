/**
 * Structural bounds on JSON that every walk in this library relies on. Pure, and every function
 * here is iterative (an explicit stack), so no input can overflow the call stack.
 *
 * - `MAX_DEPTH`: an Event nests at most 64 levels of objects and arrays, the Event object itself
 *   being level 1 (so `data` may hold 62 more). Deeper Events are refused at ingest and by the
 *   validators (`envelope.depth`); a walk given something deeper never recurses past the bound.
 * - Duplicate member names in one object (RFC 8259 §4 leaves their meaning open): one parser keeps
 *   the first value, `JSON.parse` the last, so the same text means two things. Refused
 *   (`json.member.duplicate`); only visible in the text, hence `scanJsonText`.
 * - Keys such as `__proto__`, `constructor` and `prototype` are data: copies are made with own
 *   data properties (`defineMember`), never through a setter that would turn them into a
 *   prototype link.
 */
import { childPath } from './issue.js';

/** Most levels of objects and arrays an Event may nest, the Event object being level 1. */
export const MAX_DEPTH = 64;

/** What `scanJsonText` found. `path` is a JSON path rooted at `$`. */
export type JsonTextProblem =
  | { readonly kind: 'duplicate'; readonly path: string; readonly key: string }
  | { readonly kind: 'depth'; readonly path: string };

interface TextFrame {
  readonly parent: TextFrame | undefined;
  /** Member name or item index this container sits at in its parent. */
  readonly at: string | number;
  /** Member names seen so far (objects), undefined for arrays. */
  readonly keys: Set<string> | undefined;
  awaitingKey: boolean;
  current: string;
  index: number;
}

function framePath(frame: TextFrame | undefined): string {
  const steps: Array<string | number> = [];
  for (let f = frame; f && f.parent; f = f.parent) steps.push(f.at);
  let path = '$';
  for (let i = steps.length - 1; i >= 0; i--) path = childPath(path, steps[i]!);
  return path;
}

/**
 * Scan one JSON text for a duplicate member name or nesting deeper than `maxDepth`, in one
 * pass. Call it on text `JSON.parse` accepted (it does not re-check the grammar; on malformed
 * text it returns whatever it saw, possibly null). Names are compared decoded (`"a"` and
 * `"\u0061"` are the same name). Returns the first problem in document order, or null.
 */
export function scanJsonText(text: string, maxDepth = MAX_DEPTH): JsonTextProblem | null {
  let top: TextFrame | undefined;
  let depth = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: find its closing quote (one not preceded by an odd run of backslashes).
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end < 0) return null;
        let slashes = 0;
        for (let b = end - 1; text.charCodeAt(b) === 0x5c; b--) slashes++;
        if (slashes % 2 === 0) break;
      }
      if (top?.keys !== undefined && top.awaitingKey) {
        const raw = text.slice(i + 1, end);
        let key = raw;
        if (raw.includes('\\')) {
          try {
            key = JSON.parse(text.slice(i, end + 1)) as string;
          } catch {
            return null;
          }
        }
        if (top.keys.has(key)) return { kind: 'duplicate', path: childPath(framePath(top), key), key };
        top.keys.add(key);
        top.current = key;
        top.awaitingKey = false;
      }
      i = end + 1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      const at: string | number = top === undefined ? '' : top.keys !== undefined ? top.current : top.index;
      const frame: TextFrame = { parent: top, at, keys: c === 0x7b ? new Set() : undefined, awaitingKey: c === 0x7b, current: '', index: 0 };
      if (++depth > maxDepth) return { kind: 'depth', path: framePath(frame) };
      top = frame;
    } else if (c === 0x7d || c === 0x5d) {
      top = top?.parent;
      depth--;
    } else if (c === 0x2c && top !== undefined) {
      if (top.keys !== undefined) top.awaitingKey = true;
      else top.index++;
    }
    i++;
  }
  return null;
}

/**
 * The JSON path of the first container nested deeper than `maxDepth` (the value itself being
 * level 1 when it is an object or array), or undefined when `value` is within the bound.
 * Iterative; stops at the first finding and never descends past `maxDepth + 1`.
 */
export function tooDeepAt(value: unknown, maxDepth = MAX_DEPTH): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const stack: Array<{ value: object; depth: number; path: string }> = [{ value, depth: 1, path: '$' }];
  while (stack.length > 0) {
    const { value: node, depth, path } = stack.pop()!;
    if (depth > maxDepth) return path;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) {
        const item: unknown = node[i];
        if (item !== null && typeof item === 'object') stack.push({ value: item, depth: depth + 1, path: `${path}[${i}]` });
      }
    } else {
      const keys = Object.keys(node);
      for (let k = keys.length - 1; k >= 0; k--) {
        const item: unknown = (node as Record<string, unknown>)[keys[k]!];
        if (item !== null && typeof item === 'object') stack.push({ value: item, depth: depth + 1, path: childPath(path, keys[k]!) });
      }
    }
  }
  return undefined;
}

/** Set `obj[key] = value` as an own data property, whatever `key` is (`__proto__` included). */
export function defineMember(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, configurable: true, writable: true });
  else obj[key] = value;
}

/**
 * A deep copy of JSON data (objects, arrays, scalars). Iterative; keys are copied as own data
 * properties. Members whose value is `undefined` are omitted, as JSON would. Containers nested
 * deeper than `maxDepth` (the value being level 1) are dropped: the copy fails closed.
 */
export function cloneJson<T>(value: T, maxDepth = MAX_DEPTH): T {
  if (value === null || typeof value !== 'object') return value;
  const root: unknown = Array.isArray(value) ? [] : {};
  const stack: Array<{ from: object; to: unknown[] | Record<string, unknown>; depth: number }> = [{ from: value as object, to: root as never, depth: 1 }];
  while (stack.length > 0) {
    const { from, to, depth } = stack.pop()!;
    const copy = (key: string | number, item: unknown): void => {
      let out: unknown = item;
      if (item !== null && typeof item === 'object') {
        if (depth + 1 > maxDepth) return;
        out = Array.isArray(item) ? [] : {};
        stack.push({ from: item, to: out as never, depth: depth + 1 });
      }
      if (Array.isArray(to)) to.push(out);
      else defineMember(to, key as string, out);
    };
    if (Array.isArray(from)) for (let i = 0; i < from.length; i++) copy(i, from[i]);
    else for (const key of Object.keys(from)) {
      const item = (from as Record<string, unknown>)[key];
      if (item !== undefined) copy(key, item);
    }
  }
  return root as T;
}
