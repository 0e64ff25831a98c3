/**
 * Canonical JSON: the byte form used wherever two parties must agree on "the same JSON"
 * (AEP-0003 §9.3 digests, AEP-0005 round-trip comparison).
 *
 * The spec says "canonical JSON" without defining it; we use the RFC 8785 (JCS) shape,
 * which for JSON data is exactly: object keys sorted recursively by UTF-16 code units,
 * no whitespace, strings and numbers formatted as ECMAScript `JSON.stringify` formats them.
 */

/**
 * Serialize `value` canonically.
 *
 * Follows `JSON.stringify` for everything but key order: `toJSON()` is honored (so a Date
 * becomes its ISO string), non-finite numbers become `null`, object members whose value is
 * `undefined`, a function or a symbol are omitted, and the same values inside arrays become
 * `null`.
 *
 * @throws TypeError when `value` contains a cycle, a BigInt, or is itself a value JSON cannot
 *   represent at the top level (`undefined`, a function, a symbol).
 */
export function canonicalJson(value: unknown): string {
  // The fast path covers plain JSON data; anything else (a toJSON, a BigInt, a cycle, deep
  // nesting, a top-level value JSON cannot represent) is left to the reference walk, which
  // serializes it or throws its precise error.
  try {
    const text = fastJson(value, 0);
    if (text !== undefined) return text;
  } catch {
    // fall through to the reference walk
  }
  return referenceJson(value);
}

/** Deepest nesting the recursive fast path takes on; deeper values go to the iterative reference. */
const FAST_DEPTH = 256;

/** A string JSON.stringify copies verbatim between quotes: no quote, backslash, control character or surrogate. */
const VERBATIM = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/** `JSON.stringify(s)`, without the call for the usual string that needs no escape. */
function quote(s: string): string {
  return VERBATIM.test(s) ? `"${s}"` : JSON.stringify(s);
}

/** Thrown by the fast path for what it leaves to the reference walk. */
const FALLBACK = new Error('canonicalJson: reference walk');

/**
 * Canonical text of plain JSON data, recursively: the same bytes `referenceJson` produces for
 * values with no `toJSON`, no BigInt and at most {@link FAST_DEPTH} levels; throws
 * {@link FALLBACK} otherwise (a cycle trips the depth bound). Undefined: omitted (no JSON form).
 */
function fastJson(value: unknown, depth: number): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      // For a finite number String() is JSON.stringify's text (-0 included: "0").
      return Number.isFinite(value) ? String(value) : 'null';
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'bigint':
      throw FALLBACK;
  }
  if (value === null) return 'null';
  if (depth >= FAST_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') throw FALLBACK;
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += fastJson(value[i], depth + 1) ?? 'null';
    }
    return `${out}]`;
  }
  const keys = Object.keys(value as object).sort();
  let out = '{';
  let first = true;
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    const text = fastJson((value as Record<string, unknown>)[key], depth + 1);
    if (text === undefined) continue;
    if (!first) out += ',';
    first = false;
    out += `${quote(key)}:${text}`;
  }
  return `${out}}`;
}

/** The reference serialization: iterative, honours `toJSON`, names the path of what it cannot serialize. */
function referenceJson(value: unknown): string {
  // Iterative (an explicit stack of open containers), so no nesting depth overflows the call stack.
  const ancestors = new Set<object>();
  const stack: Frame[] = [];
  const first = open(value, '$', ancestors, stack);
  if (first !== OPEN) {
    if (first === undefined) throw new TypeError(`canonicalJson: cannot serialize a top-level ${typeof value}`);
    return first;
  }
  for (;;) {
    const f = stack[stack.length - 1]!;
    const length = f.keys === undefined ? (f.obj as unknown[]).length : f.keys.length;
    if (f.next >= length) {
      stack.pop();
      ancestors.delete(f.obj);
      const text = f.keys === undefined ? `[${f.parts.join(',')}]` : `{${f.parts.join(',')}}`;
      const parent = stack[stack.length - 1];
      if (parent === undefined) return text;
      deliver(parent, text);
      continue;
    }
    const index = f.next++;
    let member: string | undefined | typeof OPEN;
    if (f.keys === undefined) {
      member = open((f.obj as unknown[])[index], `${f.path}[${index}]`, ancestors, stack);
    } else {
      const key = f.keys[index]!;
      f.key = key;
      member = open((f.obj as Record<string, unknown>)[key], `${f.path}.${key}`, ancestors, stack);
    }
    if (member !== OPEN) deliver(f, member);
  }
}

const OPEN = Symbol('open');

interface Frame {
  readonly obj: object;
  /** Sorted member names of an object; undefined for an array. */
  readonly keys: readonly string[] | undefined;
  readonly path: string;
  readonly parts: string[];
  next: number;
  /** The member whose value is being serialized. */
  key: string;
}

/** A member's serialized text (undefined: omitted), or OPEN after pushing its container. */
function open(value: unknown, path: string, ancestors: Set<object>, stack: Frame[]): string | undefined | typeof OPEN {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: (key: string) => unknown }).toJSON('');
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'bigint':
      throw new TypeError(`canonicalJson: BigInt at ${path} has no JSON form; convert it to a number or string first`);
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return 'null';
  const obj = value as object;
  if (ancestors.has(obj)) throw new TypeError(`canonicalJson: cycle at ${path}; JSON cannot represent a value that contains itself`);
  ancestors.add(obj);
  stack.push({ obj, keys: Array.isArray(obj) ? undefined : Object.keys(obj).sort(), path, parts: [], next: 0, key: '' });
  return OPEN;
}

function deliver(f: Frame, text: string | undefined): void {
  if (f.keys === undefined) f.parts.push(text ?? 'null');
  else if (text !== undefined) f.parts.push(`${JSON.stringify(f.key)}:${text}`);
}
