/**
 * Test-only: drive a vendor session through the hook shim exactly as an example configuration
 * invokes it, and read the adapter's session log back.
 * - In process: `runHookCommand` takes a configured command (`aep hook <adapter> <Event>`) and runs
 *   its argv through `main()` with the hook JSON on stdin; `shimHook` does the same for an adapter,
 *   a hook and a daemon port.
 * - As the vendor spawns it: `runCommand` runs a file without blocking the event loop (an
 *   in-process daemon keeps answering), with `aepOnPath()` prepended to PATH so the configured
 *   `aep hook ...` resolves to this checkout; `spawnConfiguredCommand` is that for `sh -c <command>`.
 * - `sessionLog` reads the daemon's JSONL session log: its events, and what `aep validate` says.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../cli/main.js';
import { parseJsonl } from '../core/stream.js';
import { sessionFileName } from '../adapter-kit/store.js';
import { flushSessionLogs } from '../adapter-kit/session-log.js';
import { fakeIo } from './cli-io.js';

/** Run one configured hook command (`aep hook ...`); resolves with its exit code and exact stdout. */
export async function runHookCommand(command: string, stdin: string, env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const argv = command.trim().split(/\s+/);
  if (argv[0] !== 'aep' || argv[1] !== 'hook') throw new Error(`not an 'aep hook' command: ${command}`);
  const io = fakeIo({ stdin, env });
  const code = await main(argv.slice(1), io);
  return { code, out: io.out, err: io.err };
}

/** Run one hook through the shim against a daemon on `port` (no environment); the exact stdout and the exit code. */
export async function shimHook(adapter: string, hookEvent: string, input: unknown, port: number): Promise<{ code: number; out: string }> {
  const { code, out } = await runHookCommand(`aep hook ${adapter} ${hookEvent} --port ${port}`, typeof input === 'string' ? input : JSON.stringify(input), {});
  return { code, out };
}

/**
 * One session log written by a daemon (in-process writers flushed first): its events, and what `aep validate <log>` says about it
 * (exit code and output; 0 = every line and the stream as a whole are valid).
 */
export async function sessionLog(home: string, agent: string, session: string): Promise<{ events: Record<string, any>[]; validate: { code: number; out: string } }> {
  await flushSessionLogs(); // an in-process daemon writes its log off the reply path
  const file = join(home, 'logs', agent, sessionFileName(session));
  const events = parseJsonl(readFileSync(file, 'utf8')).events.map((e) => e.value as Record<string, any>);
  const io = fakeIo();
  const code = await main(['validate', file], io);
  return { events, validate: { code, out: io.out + io.err } };
}

/**
 * A directory holding an `aep` executable that runs this checkout's `bin/aep.js` (what `npm link`
 * or a global install provides): prepend it to PATH to run a configured command as written.
 * Needs the compiled dist/ (callers skip when it is absent).
 */
export function aepOnPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'aep-bin-'));
  const bin = join(dir, 'aep');
  writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${resolve('bin/aep.js')}" "$@"\n`);
  chmodSync(bin, 0o755);
  return dir;
}

/** Run a command asynchronously; resolves with its status, stdout, stderr and duration. Killed after `timeoutMs` (10 s). */
export function runCommand(file: string, args: string[], opts: { input: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<{ status: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(file, args, { env: opts.env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 10_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      done({ status, stdout, stderr, ms: Date.now() - started });
    });
    child.stdin.end(opts.input);
  });
}

/** Run a configured hook command as the vendor would: `sh -c <command>` with `aep` on PATH (15 s limit). */
export function spawnConfiguredCommand(command: string, stdin: string, env: Record<string, string>): ReturnType<typeof runCommand> {
  return runCommand('sh', ['-c', command], { input: stdin, env: { ...process.env, ...env, PATH: `${aepOnPath()}:${process.env.PATH ?? ''}` }, timeoutMs: 15_000 });
}
