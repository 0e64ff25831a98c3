/**
 * The demo's child processes (I/O): each is a real `aep <verb>` process; lines of its output
 * are kept, a readiness line can be awaited, and every child is killed at teardown, also when
 * the demo itself is interrupted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** bin/aep.js, found upward from this module (it runs from impl/ under tests and dist/impl/ when built). */
export function aepBin(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'bin', 'aep.js');
    if (existsSync(candidate) && existsSync(join(dir, 'package.json'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('cannot find bin/aep.js above the demo module');
}

export interface Proc {
  name: string;
  child: ChildProcess;
  out: string[];
  err: string[];
  exited: Promise<number | null>;
  /** Resolves with the first output line matching `re` (stdout or stderr), within `ms`. */
  line(re: RegExp, ms?: number): Promise<string>;
}

export class Procs {
  private readonly all: Proc[] = [];

  constructor(private readonly env: NodeJS.ProcessEnv, private readonly bin: string = aepBin()) {}

  start(name: string, args: string[], env: NodeJS.ProcessEnv = {}): Proc {
    const child = spawn(process.execPath, [this.bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...this.env, ...env } });
    const out: string[] = [];
    const err: string[] = [];
    const waiters: Array<() => void> = [];
    const collect = (into: string[]) => {
      let rest = '';
      return (chunk: Buffer) => {
        const parts = (rest + chunk.toString('utf8')).split('\n');
        rest = parts.pop()!;
        into.push(...parts);
        for (const w of waiters.splice(0)) w();
      };
    };
    child.stdout!.on('data', collect(out));
    child.stderr!.on('data', collect(err));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => {
      r(code);
      for (const w of waiters.splice(0)) w();
    }));
    const proc: Proc = {
      name,
      child,
      out,
      err,
      exited,
      async line(re, ms = 15_000) {
        const deadline = Date.now() + ms;
        for (;;) {
          const hit = [...out, ...err].find((l) => re.test(l));
          if (hit) return hit;
          if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited before printing ${re}: ${err.slice(-5).join(' | ')}`);
          if (Date.now() > deadline) throw new Error(`${name} did not print ${re} within ${ms} ms: ${err.slice(-5).join(' | ')}`);
          await new Promise<void>((r) => {
            waiters.push(r);
            setTimeout(r, 100);
          });
        }
      },
    };
    this.all.push(proc);
    return proc;
  }

  /** Runs `aep <args>` to completion; resolves with its exit code and output. */
  async run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
    const p = this.start(`aep ${args[0]}`, args);
    const code = await p.exited;
    return { code, out: p.out.join('\n'), err: p.err.join('\n') };
  }

  /** SIGTERM every child still running (SIGKILL after 3 s), newest first; resolves when all exited. */
  async stopAll(): Promise<void> {
    const alive = this.all.filter((p) => p.child.exitCode === null && p.child.signalCode === null).reverse();
    for (const p of alive) p.child.kill('SIGTERM');
    const timer = setTimeout(() => {
      for (const p of alive) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    }, 3000);
    await Promise.all(alive.map((p) => p.exited));
    clearTimeout(timer);
  }
}
