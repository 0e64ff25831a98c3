import type { ParseArgsConfig } from 'node:util';
import type { CliIo } from './io.js';

/** One `aep <verb>`. Registered in verbs.ts; main.ts owns parsing, --help and error rendering. */
export interface Verb {
  name: string;
  /** One line for `aep --help`. */
  summary: string;
  /** Full text for `aep <verb> --help`: synopsis, every flag with its default, env vars, exit codes. */
  help: string;
  /** Options in node:util parseArgs form. `help` is added by main. */
  options: NonNullable<ParseArgsConfig['options']>;
  /** Whether positional arguments are accepted. */
  allowPositionals: boolean;
  /**
   * Strict flag parsing (default true): an unknown flag is a usage error, exit 2. A verb that must
   * never fail its caller (the hook shim: a vendor may treat exit 2 as "block") sets false and
   * tolerates unknown flags instead.
   */
  strict?: boolean;
  /** Runs the verb; returns the exit code. Throw UsageError for bad flags. */
  run(args: { values: Record<string, unknown>; positionals: string[] }, io: CliIo): Promise<number>;
}
