/** Test-only: a `CliIo` that records what a verb writes, for driving `main()` in-process. */
import type { CliIo } from '../contract/cli.js';

/** What the fake feeds the verb; every member is optional. */
export interface FakeIoOptions {
  /** Standard input, read whole by `readStdin()`. Default: empty. */
  stdin?: string;
  /** The environment the verb sees. Default: `{}` (nothing from the real process). */
  env?: Record<string, string>;
  /** The working directory. Default: `process.cwd()`. */
  cwd?: string;
}

/** A recording `CliIo`: `out`/`err` accumulate stdout/stderr text; `stopSignal` never resolves. */
export function fakeIo(options: FakeIoOptions = {}): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout: (t: string) => void (io.out += t),
    stderr: (t: string) => void (io.err += t),
    readStdin: async () => Buffer.from(options.stdin ?? ''),
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    stopSignal: new Promise<string>(() => {}),
  };
  return io;
}
