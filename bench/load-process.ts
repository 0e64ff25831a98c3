/**
 * A load generator in its own process (`child_process.fork`), so the client side of a benchmark
 * (POSTs, subscribers, WebSocket frames, timing) never shares the event loop of what it measures.
 * Each load script lives beside this file and speaks one protocol over IPC: a request message in,
 * exactly one reply out (`{kind: 'error', message}` on failure); `{kind: 'stop'}` makes it close
 * everything and exit.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The compiled script `name` (e.g. `fanout-load.js`), from dist/ even when this module runs from source. */
export function loadScript(name: string): string {
  const here = fileURLToPath(import.meta.url);
  return here.includes('/dist/') ? fileURLToPath(new URL(`./${name}`, import.meta.url)) : fileURLToPath(new URL(`../dist/bench/${name}`, import.meta.url));
}

/** One load-generator process; one request at a time. */
export class LoadProcess {
  private readonly child: ChildProcess;
  private pending: { ok: (m: Record<string, unknown>) => void; fail: (e: Error) => void } | undefined;
  private exited = false;

  /** @param script the compiled script's file name; @param label prefixes its errors. */
  constructor(script: string, private readonly label: string, execArgv: readonly string[] = []) {
    this.child = fork(loadScript(script), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [...execArgv] });
    this.child.on('message', (m: Record<string, unknown>) => {
      const p = this.pending;
      this.pending = undefined;
      if (m.kind === 'error') p?.fail(new Error(`${this.label}: ${String(m.message)}`));
      else p?.ok(m);
    });
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      const p = this.pending;
      this.pending = undefined;
      p?.fail(new Error(`${this.label}: the load generator exited (${code ?? signal})`));
    });
  }

  /** The process id (for resident-memory readings of a child that is itself measured). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  ask(msg: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (this.exited) return Promise.reject(new Error(`${this.label}: the load generator has exited`));
    return new Promise((ok, fail) => {
      this.pending = { ok, fail };
      this.child.send(msg);
    });
  }

  /** Ask it to close and exit; killed after a second if it has not. */
  stop(): void {
    if (this.child.connected) this.child.send({ kind: 'stop' });
    const timer = setTimeout(() => this.child.kill(), 1000);
    timer.unref();
  }

  /** {@link stop}, resolving once the process has exited (a relay child must be gone before its NATS server). */
  stopped(): Promise<void> {
    if (this.exited) return Promise.resolve();
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.stop();
    return gone;
  }
}

/**
 * The child side: answer each request with `handle`'s reply, errors as `{kind: 'error'}`; `stop`
 * calls `onStop` then disconnects. Does nothing unless the module at `moduleUrl` is the process's
 * main script and it has an IPC channel, so importing a load script elsewhere is harmless.
 */
export function serveLoad(moduleUrl: string, handle: (msg: { kind: string; [k: string]: unknown }) => Promise<Record<string, unknown>>, onStop: () => void | Promise<void>): void {
  if (!process.send || process.argv[1] === undefined || pathToFileURL(process.argv[1]).href !== moduleUrl) return;
  process.on('message', (msg: { kind: string; [k: string]: unknown }) => {
    void (async () => {
      try {
        if (msg.kind === 'stop') {
          await onStop();
          process.disconnect?.();
          return;
        }
        process.send?.(await handle(msg));
      } catch (err) {
        process.send?.({ kind: 'error', message: err instanceof Error ? err.message : String(err) });
      }
    })();
  });
}
