
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

/**
 * The real process. SIGINT/SIGTERM exit at once with 130/143, unless a daemon verb has read
 * `stopSignal`: then the first signal resolves it (the daemon drains) and a second one exits at once.
 */
export function processIo(): CliIo {
  let draining = false;
  let claimed = false;
  let resolveStop: (signal: string) => void = () => {};
  const stop = new Promise<string>((resolve) => (resolveStop = resolve));
  const onSignal = (signal: 'SIGINT' | 'SIGTERM'): void => {
    if (claimed && !draining) {
      draining = true;
      resolveStop(signal);
      return;
    }
    process.exit(SIGNAL_EXIT[signal]);
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  return {
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    },
    stdin: process.stdin, // a stream, not a blocking read of fd 0: exit must not wait on a blocked thread-pool read
    drained: () =>
      process.stdout.writableNeedDrain
        ? new Promise<void>((resolve) => {
            const done = (): void => {
              process.stdout.off('drain', done).off('close', done).off('error', done);
              resolve();
            };
            process.stdout.on('drain', done).on('close', done).on('error', done);
          })
        : Promise.resolve(),
    env: process.env,
    cwd: process.cwd(),
    get stopSignal() {
      claimed = true;
      return stop;
    },
  };
}
