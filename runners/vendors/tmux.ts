/**
 * A TUI in a tmux pane (I/O): start, read the screen, type, and wait for text. Each run has its
 * own tmux server (`-L <socket>`, no user config) that the ProcessJar kills at teardown.
 */
import { execFile, execFileSync } from 'node:child_process';
import type { ProcessJar } from './procs.js';

function tmux(socket: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('tmux', ['-L', socket, '-f', '/dev/null', ...args], { timeout: 5000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`tmux ${args[0]} failed: ${stderr.trim() || err.message}`));
      else resolve(stdout);
    });
  });
}

export class TmuxPane {
  private constructor(
    private readonly socket: string,
    readonly target: string,
  ) {}

  /**
   * Start `argv` in a new detached session sized 160x50, in `cwd`, with exactly `env`
   * (through `env -i`, so nothing of the caller's environment leaks into the vendor).
   */
  static start(jar: ProcessJar, name: string, cwd: string, env: Record<string, string>, argv: readonly string[]): TmuxPane {
    const socket = `aep-vendors-${jar.runId}`;
    jar.tmux(socket);
    const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
    // Synchronous on purpose: a signal handler never runs while the server is half started, so
    // teardown always finds it (kill-server), and the server carries the run marker for the sweep.
    const serverEnv = jar.marked(process.env as Record<string, string>);
    execFileSync('tmux', ['-L', socket, '-f', '/dev/null', 'new-session', '-d', '-s', name, '-x', '160', '-y', '50', '-c', cwd, 'env', '-i', ...envArgs, ...argv], { env: serverEnv, stdio: 'ignore', timeout: 5000 });
    execFileSync('tmux', ['-L', socket, '-f', '/dev/null', 'set-option', '-t', name, 'remain-on-exit', 'on'], { env: serverEnv, stdio: 'ignore', timeout: 5000 });
    return new TmuxPane(socket, name);
  }

  /** The pane's visible text plus up to 300 lines of history. */
  async screen(): Promise<string> {
    return tmux(this.socket, ['capture-pane', '-p', '-J', '-S', '-300', '-t', this.target]);
  }

  /** Send keys (tmux key names, e.g. "Enter", "C-c", or literal text with `literal`). */
  async keys(keys: string, literal = false): Promise<void> {
    await tmux(this.socket, ['send-keys', '-t', this.target, ...(literal ? ['-l'] : []), keys]);
  }

  /** Whether the pane's process has exited (remain-on-exit keeps the pane). */
  async dead(): Promise<boolean> {
    try {
      return (await tmux(this.socket, ['display-message', '-p', '-t', this.target, '#{pane_dead}'])).trim() === '1';
    } catch {
      return true;
    }
  }

  /** Wait until the screen matches `pattern`; resolves with the screen, or null after `ms`. */
  async waitFor(pattern: RegExp, ms: number): Promise<string | null> {
    const deadline = Date.now() + ms;
    for (;;) {
      const text = await this.screen().catch(() => '');
      if (pattern.test(text)) return text;
      if (Date.now() > deadline) return null;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Wait until the pane's process exits; false after `ms`. */
  async waitExit(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (await this.dead()) return true;
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  }
}
