/**
 * Test-only: drive a vendor session through the hook shim (`aep hook <adapter> <Event>`,
 * in-process through `main()`, exactly the verb the example configurations invoke), and read the
 * adapter's JSONL session log back for `validateStream`.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../cli/main.js';
import { sessionFileName } from '../adapter-kit/store.js';
import { fakeIo } from './cli-io.js';

/** Run one hook through the shim against a daemon on `port`; resolves with the exact stdout and the exit code. */
export async function shimHook(adapter: string, hookEvent: string, input: unknown, port: number): Promise<{ code: number; out: string }> {
  const io = fakeIo({ stdin: typeof input === 'string' ? input : JSON.stringify(input) });
  const code = await main(['hook', adapter, hookEvent, '--port', String(port)], io);
  return { code, out: io.out };
}

/** The events of one session log under `home`, parsed, in order. */
export function sessionLog(home: string, agent: string, session: string): Record<string, unknown>[] {
  const text = readFileSync(join(home, 'logs', agent, sessionFileName(session)), 'utf8');
  return text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
}

/**
 * A directory holding an `aep` executable that runs this checkout's `bin/aep.js`: prepend it to
 * PATH to run an example configuration's `aep hook ...` command exactly as written.
 */
export function aepOnPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'aep-bin-'));
  const bin = join(dir, 'aep');
  writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${resolve('bin/aep.js')}" "$@"\n`);
  chmodSync(bin, 0o755);
  return dir;
}

/** Run a command without blocking the event loop (an in-process daemon must keep answering); resolves with status and stdout. */
export function runCommand(file: string, args: string[], opts: { input: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<{ status: number | null; stdout: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolvePromise) => {
    const child = spawn(file, args, { env: opts.env, stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 10_000);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.on('close', (status) => {
      clearTimeout(timer);
      resolvePromise({ status, stdout, ms: Date.now() - started });
    });
    child.stdin.end(opts.input);
  });
}
