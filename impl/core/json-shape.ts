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

/** Past this bound the fast paths below (which recurse at most `maxDepth` levels) are skipped for the iterative references. */
const RECURSION_BOUND = 256;

/**
 * The same verdict as {@link scanJsonText}, for a `text` that `JSON.parse` turned into `value`,
 * at a fraction of its cost in the common case. `scanJsonText` builds a name set per object; here
 * the text is only scanned for its member count (the `:` outside strings), and `value` is walked
 * for its own member count and depth. Without a duplicate member the two counts are equal; with
 * one they are not (`JSON.parse` keeps one member per name, and drops the earlier value's whole
 * subtree), so equal counts and a value within `maxDepth` prove the text clean. Any other outcome
 * runs `scanJsonText` itself, so every problem is found and reported exactly as it reports it.
 */
export function jsonTextProblem(text: string, value: unknown, maxDepth = MAX_DEPTH): JsonTextProblem | null {
  if (maxDepth <= RECURSION_BOUND) {
    const members = value !== null && typeof value === 'object' ? membersWithin(value, 1, maxDepth, enumeratesOwn()) : 0;
    if (members >= 0 && members === textMembers(text)) return null;
  }
  return scanJsonText(text, maxDepth);
}

/** The `name: value` members of a JSON text (the `:` outside strings); -1 if a string never closes. */
export function textMembers(text: string): number {
  let members = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string with indexOf: its closing quote is the first one after an even run of backslashes.
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end < 0) return -1;
        let b = end - 1;
        while (text.charCodeAt(b) === 0x5c) b--;
        if ((end - 1 - b) % 2 === 0) break;
      }
      i = end + 1;
      continue;
    }
    if (c === 0x3a) members++;
    i++;
  }
  return members;
}

/** Whether Object.prototype has no enumerable member (something may have made one so): then for...in lists own names only. */
function enumeratesOwn(): boolean {
  for (const _ in Object.prototype) return false;
  return true;
}

/**
 * Own members of every object in `value` (arrays walked, not counted), or -1 when a container
 * sits deeper than `maxDepth` (`value` being at `depth`). Recursion never passes `maxDepth + 1`.
 * `ownEnumeration`: whether for...in over an object whose prototype is Object.prototype lists its own names only.
 */
function membersWithin(value: object, depth: number, maxDepth: number, ownEnumeration: boolean): number {
  if (depth > maxDepth) return -1;
  let members = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item !== null && typeof item === 'object') {
        const inner = membersWithin(item, depth + 1, maxDepth, ownEnumeration);
        if (inner < 0) return -1;
        members += inner;
      }
    }
    return members;
  }
  // JSON.parse makes plain objects: for...in over one visits exactly its own names, allocating
  // nothing, as long as Object.prototype has no enumerable member (`ownEnumeration`, which the
  // caller checked). Anything else is counted by Object.keys.
  if (ownEnumeration && Object.getPrototypeOf(value) === Object.prototype) {
    for (const key in value) {
      members++;
      const item: unknown = (value as Record<string, unknown>)[key];
      if (item !== null && typeof item === 'object') {
        const inner = membersWithin(item, depth + 1, maxDepth, ownEnumeration);
        if (inner < 0) return -1;
        members += inner;
      }
    }
    return members;
  }
  const keys = Object.keys(value);
  members = keys.length;
  for (let k = 0; k < keys.length; k++) {
    const item: unknown = (value as Record<string, unknown>)[keys[k]!];
    if (item !== null && typeof item === 'object') {
      const inner = membersWithin(item, depth + 1, maxDepth, ownEnumeration);
      if (inner < 0) return -1;
      members += inner;
    }
  }
  return members;
}

/**
 * Whether `value`, sitting at level `depth` (the Event object being level 1), holds no container
 * deeper than `maxDepth`: `tooDeepAt`'s verdict for a value nested inside a checked parent, without
 * a path. Recursion never passes `maxDepth + 1`.
 */
export function fitsDepth(value: object, depth: number, maxDepth = MAX_DEPTH): boolean {
  if (maxDepth <= RECURSION_BOUND) return within(value, depth, maxDepth);
  return deepPath({ value }, maxDepth + 2 - depth) === undefined; // the wrapper sits at level depth - 1
}

/** Whether `value` (at `depth`) holds no container deeper than `maxDepth`; recursion never passes `maxDepth + 1`. */
function within(value: object, depth: number, maxDepth: number): boolean {
  if (depth > maxDepth) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item !== null && typeof item === 'object' && !within(item, depth + 1, maxDepth)) return false;
    }
    return true;
  }
  // for...in visits the own enumerable names and any inherited enumerable ones: a superset, so a
  // `true` here holds for the own members; a `false` sends the caller to the exact reference walk.
  for (const key in value) {
    const item: unknown = (value as Record<string, unknown>)[key];
    if (item !== null && typeof item === 'object' && !within(item, depth + 1, maxDepth)) return false;
  }
  return true;
}

/**
 * The JSON path of the first container nested deeper than `maxDepth` (the value itself being
 * level 1 when it is an object or array), or undefined when `value` is within the bound.
 * Stops at the first finding and never descends past `maxDepth + 1`; no path is built unless
 * there is a finding.
 */
export function tooDeepAt(value: unknown, maxDepth = MAX_DEPTH): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (maxDepth <= RECURSION_BOUND && within(value, 1, maxDepth)) return undefined;
  return deepPath(value, maxDepth);
}

/** `tooDeepAt`'s reference walk: iterative, building the path of every container it visits. */
function deepPath(value: object, maxDepth: number): string | undefined {
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
