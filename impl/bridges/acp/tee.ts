/**
 * The ACP command-substitution tee: configured as the editor's agent command, it spawns the
 * real agent from argv and pipes editor stdin → agent stdin and agent stdout → editor stdout
 * byte-transparently (stderr is inherited untouched). Every chunk is ALSO handed to the
 * observer, off-path: a parse failure, a mapping bug or a dead relay never delays, reorders or
 * alters the pass-through. The agent's exit code is the tee's (128 + signal number when the
 * agent was killed). A stop signal to the bridge is forwarded to the agent, whose exit then ends
 * the bridge (after at most EXIT_DRAIN_MS for its output, should a grandchild hold the pipe).
 * Queued observations die with the process: transparency outranks delivery.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import type { AcpObserver } from './observer.js';

export interface TeeOptions {
  argv: string[];
  stdin: Readable;
  stdout: Writable;
  observer: AcpObserver | null;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Resolves with a signal name to forward to the agent (the bridge was asked to stop). */
  stopSignal?: Promise<string>;
}

/** How long the agent's stdout may stay open after the agent exited (a grandchild holding it). */
export const EXIT_DRAIN_MS = 1000;

/** Runs the agent to completion; resolves with its exit code (127 when it cannot be spawned). */
export function runTee(opts: TeeOptions): Promise<number> {
  const [cmd, ...args] = opts.argv;
  return new Promise((resolve) => {
    if (!cmd) return resolve(127);
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'], env: opts.env ?? process.env, ...(opts.cwd ? { cwd: opts.cwd } : {}) });
    let settled = false;
    const done = (code: number): void => {
      if (settled) return;
      settled = true;
      opts.stdin.unpipe(child.stdin);
      opts.stdin.off('data', onInput);
      resolve(code);
    };
    const observe = (dir: 'client' | 'agent', chunk: Buffer): void => {
      try {
        opts.observer?.feed(dir, chunk);
      } catch {
        // never let observation touch the session
      }
    };
    const onInput = (chunk: Buffer): void => observe('client', chunk);
    child.on('error', (err) => {
      process.stderr.write(`aep bridge acp: cannot start the agent '${cmd}': ${err.message}\n`);
      done(127);
    });
    child.stdin.on('error', () => undefined); // the agent closed its stdin or died: its exit tells the story
    opts.stdin.on('data', onInput);
    opts.stdin.pipe(child.stdin);
    child.stdout.on('data', (chunk: Buffer) => observe('agent', chunk));
    child.stdout.pipe(opts.stdout, { end: false });
    void opts.stopSignal?.then((sig) => {
      if (!settled) child.kill(sig as NodeJS.Signals);
    });
    const codeOf = (code: number | null, signal: NodeJS.Signals | null): number => {
      const signum = signal ? (constants.signals as Record<string, number>)[signal] : undefined;
      return code ?? (signum !== undefined ? 128 + signum : 1);
    };
    // 'close' waits for the agent's stdout to end; a grandchild that inherited it (a launcher
    // script that spawned the real binary and died) can hold it open forever. Once the agent
    // itself has exited, its output gets EXIT_DRAIN_MS to drain, then the tee ends anyway.
    child.on('exit', (code, signal) => {
      const exitCode = codeOf(code, signal);
      setTimeout(() => {
        if (settled) return;
        child.stdout.unpipe(opts.stdout);
        child.stdout.destroy();
        done(exitCode);
      }, EXIT_DRAIN_MS).unref();
    });
    child.on('close', (code, signal) => done(codeOf(code, signal)));
  });
}
