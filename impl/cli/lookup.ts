/**
 * Name lookups for every user-supplied name (verbs, adapters, families): own properties only, so
 * `__proto__`, `constructor` or `hasOwnProperty` is an unknown name, never Object.prototype's member.
 */
import { UsageError } from './io.js';

export function own<T>(map: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(map, name) ? map[name] : undefined;
}

/**
 * A verb's first argument looked up in its table (`aep adapter <name>`, `aep bridge <name>`): the
 * entry, or a usage error listing the known names, whether the name is missing or unknown.
 */
export function named<T>(map: Readonly<Record<string, T>>, name: string | undefined, article: 'a' | 'an', noun: string): T {
  const known = Object.keys(map).join(', ');
  if (name === undefined) throw new UsageError(`name ${article} ${noun}: ${known}`);
  const entry = own(map, name);
  if (entry === undefined) throw new UsageError(`unknown ${noun} '${name}'; known: ${known}`);
  return entry;
}
