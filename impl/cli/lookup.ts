/**
 * Name lookups for every user-supplied name (verbs, adapters, families): own properties only, so
 * `__proto__`, `constructor` or `hasOwnProperty` is an unknown name, never Object.prototype's member.
 */
export function own<T>(map: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(map, name) ? map[name] : undefined;
}
