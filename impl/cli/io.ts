/** The I/O a verb may touch, injected so verbs are testable without a real process. */
export interface CliIo {
  /** Machine output (JSON reports, validated streams). */
  stdout(text: string): void;
  /** Human output: progress, findings, usage errors. */
  stderr(text: string): void;
  /** Reads all of standard input (used by `-` file arguments). */
  readStdin(): Promise<Buffer>;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM); long-running verbs await it. */
  stopSignal: Promise<string>;
}

/** Exit codes shared by every verb. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** A usage mistake: rendered as `aep <verb>: <message>` plus a hint, exit 2, never a stack trace. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function processIo(): CliIo {
  return {
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    },
    env: process.env,
    cwd: process.cwd(),
    stopSignal: new Promise((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
    }),
  };
}
