/**
 * Test-only: drive a vendor session through the hook shim (`aep hook <adapter> <Event>`,
 * in-process through `main()`, exactly the verb the example configurations invoke), and read the
 * adapter's JSONL session log back for `validateStream`.
 */
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
