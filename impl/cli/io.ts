
export { EXIT, SIGNAL_EXIT, UsageError, type CliIo } from '../contract/cli.js';
import { SIGNAL_EXIT, type CliIo } from '../contract/cli.js';

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
