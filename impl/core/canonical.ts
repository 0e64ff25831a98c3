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
  const out = serialize(value, new Set<object>(), '$');
  if (out === undefined) throw new TypeError(`canonicalJson: cannot serialize a top-level ${typeof value}`);
  return out;
}

function serialize(value: unknown, ancestors: Set<object>, path: string): string | undefined {
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
  try {
    if (Array.isArray(obj)) {
      return `[${obj.map((item, i) => serialize(item, ancestors, `${path}[${i}]`) ?? 'null').join(',')}]`;
    }
    const record = obj as Record<string, unknown>;
    const members: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const encoded = serialize(record[key], ancestors, `${path}.${key}`);
      if (encoded !== undefined) members.push(`${JSON.stringify(key)}:${encoded}`);
    }
    return `{${members.join(',')}}`;
  } finally {
    ancestors.delete(obj);
  }
}
