/** Prototype-safe lookups into the bridge tables. Pure. */

/** `table[key]` when `key` is the table's own member, else `undefined` (no prototype lookups). */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: unknown): T | undefined {
  return typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined;
}
