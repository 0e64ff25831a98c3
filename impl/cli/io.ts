
export { EXIT, SIGNAL_EXIT, UsageError, type CliIo } from '../contract/cli.js';
import { SIGNAL_EXIT, type CliIo } from '../contract/cli.js';

/** What `stopSignal` resolves with when the reader of stdout (or stderr) went away: the verb ends with its own code. */
export const OUTPUT_CLOSED = 'output-closed';

/** Whether a write error means the reader is gone (a closed pipe or socket), pure. */
export function isReaderGone(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EPIPE' || code === 'ECONNRESET' || code === 'ERR_STREAM_DESTROYED' || code === 'ERR_STREAM_WRITE_AFTER_END';
}

/**
 * One guarded writer per standard stream: the one place a closed stdout or stderr is handled. When
 * its reader goes away (`aep setup status | head -1`) the error is swallowed, later writes are
 * dropped, and `onGone` runs once; any other write error still surfaces.
 */
export function guardedWriter(stream: NodeJS.WritableStream & { on(event: 'error', l: (err: Error) => void): unknown }, onGone: () => void): { write(text: string): void; gone(): boolean } {
  let gone = false;
  const lost = (): void => {
    if (gone) return;
    gone = true;
    onGone();
  };
  stream.on('error', (err: Error) => {
    if (isReaderGone(err)) return lost();
    throw err;
  });
  return {
    write(text: string): void {
      if (gone) return;
      try {
        stream.write(text);
      } catch (err) {
        if (isReaderGone(err)) return lost();
        throw err;
      }
    },
    gone: () => gone,
  };
}

/**
 * The real process. SIGINT/SIGTERM exit at once with 130/143, unless a daemon verb has read
 * `stopSignal`: then the first signal resolves it (the daemon drains) and a second one exits at once.
 * A reader of stdout or stderr that goes away never makes a stack trace: later writes are dropped,
 * a verb that reads `stopSignal` (tail, sink, the daemons) is stopped with OUTPUT_CLOSED and ends
 * with its own code, and every other verb finishes its work and exits with its own code.
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
  const readerGone = (): void => {
    if (claimed && !draining) {
      draining = true;
      resolveStop(OUTPUT_CLOSED);
    }
  };
  const out = guardedWriter(process.stdout, readerGone);
  const err = guardedWriter(process.stderr, readerGone);
  return {
    stdout: (t) => out.write(t),
    stderr: (t) => err.write(t),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    },
    stdin: process.stdin, // a stream, not a blocking read of fd 0: exit must not wait on a blocked thread-pool read
    drained: () =>
      process.stdout.writableNeedDrain && !out.gone() && !process.stdout.destroyed
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
