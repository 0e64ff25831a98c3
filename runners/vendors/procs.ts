/**
 * Every process a vendor run starts, and their teardown (I/O).
 *
 * - Each child is spawned `detached`, i.e. as the leader of its own process group, so killing
 *   the group (`kill(-pid)`) takes its descendants with it.
 * - TUIs run in a tmux server of their own (`tmux -L <socket>`), killed whole at teardown.
 * - Every vendor process gets `AEP_VENDOR_RUN=<run id>` in its environment; teardown also kills
 *   any process still carrying it (a detached `codex app-server` that left our groups cannot
 *   survive). Only processes carrying this run's id are touched.
 * `killAllSync` is safe to call from a signal handler.
 */
import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const RUN_MARKER = 'AEP_VENDOR_RUN';

/** Pids of processes (other than this one) whose environment carries `AEP_VENDOR_RUN=<runId>`. */
export function markedPids(runId: string): number[] {
  const needle = Buffer.from(`${RUN_MARKER}=${runId}\0`);
  const out: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`).includes(needle)) out.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

export class ProcessJar {
  private readonly children = new Set<ChildProcess>();
  private readonly tmuxSockets = new Set<string>();

  constructor(readonly runId: string) {}

  /** The environment a vendor process runs with: `env` plus this run's marker. */
  marked(env: Record<string, string>): Record<string, string> {
    return { ...env, [RUN_MARKER]: this.runId };
  }

  /** Spawn a child as its own process group leader; tracked until teardown. */
  spawn(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
    const child = spawn(command, args, { ...options, detached: true });
    this.children.add(child);
    child.on('exit', () => this.children.delete(child));
    return child;
  }

  /** Register a tmux socket name so teardown kills its server. */
  tmux(socket: string): void {
    this.tmuxSockets.add(socket);
  }

  /** Kill everything now (SIGKILL, synchronous): for signal handlers and the last resort. */
  killAllSync(): void {
    for (const child of this.children) if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
    for (const socket of this.tmuxSockets) {
      try {
        execFileSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore', timeout: 2000 });
      } catch {
        // no server left
      }
    }
    for (const pid of markedPids(this.runId)) signalGroup(pid, 'SIGKILL');
    // A killed server leaves its socket file behind.
    const dir = process.env.TMUX_TMPDIR || '/tmp';
    const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
    for (const socket of this.tmuxSockets) rmSync(join(dir, `tmux-${uid}`, socket), { force: true });
  }

  /** Graceful teardown: SIGTERM the groups, wait up to `graceMs`, then SIGKILL whatever remains. */
  async killAll(graceMs = 1500): Promise<void> {
    for (const child of this.children) if (child.pid !== undefined) signalGroup(child.pid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (this.children.size > 0 && Date.now() < deadline) await sleep(25);
    this.killAllSync();
    const settle = Date.now() + 1000;
    while (markedPids(this.runId).length > 0 && Date.now() < settle) await sleep(25);
  }
}

/**
 * Runs `body` with SIGINT/SIGTERM handlers that tear the jar down and exit (130/143), so a
 * Ctrl-C never leaves a vendor process running. The handlers are removed when `body` settles.
 */
export async function withTeardownOnSignal<T>(jar: ProcessJar, body: () => Promise<T>): Promise<T> {
  const handler = (signal: NodeJS.Signals): void => {
    if (process.env.AEP_VENDORS_DEBUG) process.stderr.write(`vendors lane: ${signal}: tearing down run ${jar.runId}\n`);
    jar.killAllSync();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  try {
    return await body();
  } finally {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
    await jar.killAll();
  }
}
