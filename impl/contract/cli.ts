/**
 * The CLI's I/O contract: what a verb receives (`CliIo`), how it fails (`UsageError`, `EXIT`,
 * `SIGNAL_EXIT`) and what a verb is (`Verb`). A low floor: types and one error class, no I/O, so
 * bridges, operator modules and adapters can speak it without importing impl/cli (which imports
 * them). impl/cli/io.ts holds the real process behind it (`processIo`).
 */
import type { ParseArgsConfig } from 'node:util';

/** The I/O a verb may touch, injected so verbs are testable without a real process. */
export interface CliIo {
  /** Machine output (JSON reports, validated streams). */
  stdout(text: string): void;
  /** Human output: progress, findings, usage errors. */
  stderr(text: string): void;
  /** Reads all of standard input (used by `-` file arguments). */
  readStdin(): Promise<Buffer>;
  /**
   * Standard input as chunks, for a verb that reads it bit by bit (`aep validate -`). A chunk may be
   * reused after the next is requested: copy what you keep. Absent: use `readStdin()`.
   */
  stdin?: AsyncIterable<Buffer | string>;
  /** Resolves once stdout has taken what was written (backpressure for a verb that writes as it reads). Absent: never waits. */
  drained?(): Promise<void>;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /**
   * Resolves when the process is asked to stop (SIGINT/SIGTERM). Only the daemons (relay, adapter,
   * demo-agent) read it, and reading it is what makes a signal a graceful drain; for every other
   * verb a signal stops the process at once with exit 130 (SIGINT) or 143 (SIGTERM).
   */
  stopSignal: Promise<string>;
}

/** Exit codes shared by every verb. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Exit codes when a signal stops a verb at once (128 + the signal number, as a shell reports it). */
export const SIGNAL_EXIT: Readonly<Record<'SIGINT' | 'SIGTERM', number>> = { SIGINT: 130, SIGTERM: 143 };

/** A usage mistake: rendered as `aep <verb>: <message>` plus a hint, exit 2, never a stack trace. */
export class UsageError extends Error {
  override name = 'UsageError';
}

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

/** What one bridge runner receives: parsed flags, the positionals after the bridge name. */
export interface BridgeArgs {
  values: Record<string, unknown>;
  rest: string[];
}

/** One `aep bridge <name>` runner; returns the exit code. */
export type BridgeRunner = (args: BridgeArgs, io: CliIo) => Promise<number>;
