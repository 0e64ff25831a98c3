/**
 * Test-only: drive a vendor session through the hook shim exactly as an example configuration
 * invokes it. Each hook's command (`aep hook <adapter> <Event>`) is taken from the example file
 * and run through `main()` in-process with the hook JSON on stdin, so the test exercises the same
 * argv a vendor would spawn; the session log the daemon wrote is read back for `validateStream`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../cli/main.js';
import { parseJsonl } from '../core/stream.js';
import { sessionFileName } from '../adapter-kit/store.js';
import { fakeIo } from './cli-io.js';

/** Run one configured hook command (`aep hook ...`); resolves with its exit code and exact stdout. */
export async function runHookCommand(command: string, stdin: string, env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const argv = command.trim().split(/\s+/);
  if (argv[0] !== 'aep' || argv[1] !== 'hook') throw new Error(`not an 'aep hook' command: ${command}`);
  const io = fakeIo({ stdin, env });
  const code = await main(argv.slice(1), io);
  return { code, out: io.out, err: io.err };
}

/**
 * One session log written by a daemon: its events, and what `aep validate <log>` says about it
 * (exit code and output; 0 = every line and the stream as a whole are valid).
 */
export async function sessionLog(home: string, agent: string, session: string): Promise<{ events: Record<string, any>[]; validate: { code: number; out: string } }> {
  const file = join(home, 'logs', agent, sessionFileName(session));
  const events = parseJsonl(readFileSync(file, 'utf8')).events.map((e) => e.value as Record<string, any>);
  const io = fakeIo();
  const code = await main(['validate', file], io);
  return { events, validate: { code, out: io.out + io.err } };
}

/**
 * Run a configured hook command as the vendor would: `sh -c <command>` with `aep` on PATH (a
 * temporary directory holding a link to this checkout's bin/aep.js, which is what `npm link` or a
 * global install provides). Asynchronous, so an in-process daemon keeps serving meanwhile. Needs
 * the compiled dist/ (callers skip when it is absent).
 */
export function spawnConfiguredCommand(command: string, stdin: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string; ms: number }> {
  const bin = mkdtempSync(join(tmpdir(), 'aep-path-'));
  symlinkSync(resolve('bin/aep.js'), join(bin, 'aep'));
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn('sh', ['-c', command], { env: { ...process.env, ...env, PATH: `${bin}:${process.env.PATH ?? ''}` } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      done({ status, stdout, stderr, ms: Date.now() - started });
    });
    child.stdin.end(stdin);
  });
}
