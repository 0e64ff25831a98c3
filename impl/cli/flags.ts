/**
 * Flag parsing for every verb, with errors in our words. node:util's parseArgs tokenizes (in
 * non-strict mode, so it never throws); this module checks the tokens against the verb's options
 * and says what is wrong the way the rest of the CLI does:
 *   unknown flag --jsn (did you mean --json?)
 *   --json needs a value (--json VALUE)
 *   --json needs a value, but the next argument '--live' is a flag; write --json=--live if you mean it
 *   --live takes no value (got --live=yes)
 *   unexpected argument 'x' (this verb takes no arguments)
 * Names are looked up as own properties only, so `--__proto__` or `--constructor` is just unknown.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './io.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Edit distance (Levenshtein), for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const here = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = here;
    }
  }
  return row[b.length]!;
}

/** The closest known name, when close enough to be a likely typo (or a prefix of exactly one). */
export function closest(name: string, known: readonly string[]): string | undefined {
  const prefixed = known.filter((k) => k.startsWith(name));
  if (name.length >= 2 && prefixed.length === 1) return prefixed[0];
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = distance(name, k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(Math.min(name.length, best.length) / 3)) ? best : undefined;
}

/** The parsed flags of one verb. `values` has no prototype. */
export interface ParsedFlags {
  values: Record<string, unknown>;
  positionals: string[];
}

/**
 * Parse `args` against `options` (plus `--help`/`-h`). Throws {@link UsageError} on any mistake;
 * with `strict: false`, unknown flags are kept as booleans (or their `=value`) instead.
 */
export function parseFlags(args: readonly string[], options: Options, opts: { allowPositionals: boolean; strict?: boolean }): ParsedFlags {
  const all: Options = { ...options, help: { type: 'boolean', short: 'h' } };
  const strict = opts.strict !== false;
  const { tokens } = parseArgs({ args: [...args], options: all, strict: false, allowPositionals: true, tokens: true });
  const values: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const positionals: string[] = [];
  const longNames = Object.keys(all);
  for (const token of tokens) {
    if (token.kind === 'positional') {
      if (!opts.allowPositionals) throw new UsageError(`unexpected argument '${token.value}' (this verb takes no arguments)`);
      positionals.push(token.value);
      continue;
    }
    if (token.kind === 'option-terminator') continue;
    const spec = Object.hasOwn(all, token.name) ? all[token.name] : undefined;
    if (spec === undefined) {
      if (!strict) {
        values[token.name] = token.value ?? true;
        continue;
      }
      const guess = token.rawName.startsWith('--') ? closest(token.name, longNames) : undefined;
      throw new UsageError(`unknown flag ${token.rawName}${guess ? ` (did you mean --${guess}?)` : ''}`);
    }
    let value: unknown;
    if (spec.type === 'boolean') {
      if (token.value !== undefined) throw new UsageError(`${token.rawName} takes no value (got ${token.rawName}=${token.value})`);
      value = true;
    } else {
      if (token.value === undefined) throw new UsageError(`${token.rawName} needs a value (${token.rawName} VALUE)`);
      if (!token.inlineValue && token.value.startsWith('-') && token.value !== '-') {
        throw new UsageError(`${token.rawName} needs a value, but the next argument '${token.value}' is a flag; write ${token.rawName}=${token.value} if you mean it`);
      }
      value = token.value;
    }
    if (spec.multiple) values[token.name] = [...((values[token.name] as unknown[] | undefined) ?? []), value];
    else values[token.name] = value;
  }
  return { values, positionals };
}
