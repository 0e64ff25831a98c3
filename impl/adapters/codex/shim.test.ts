/**
 * The Codex hook shim (`aep hook codex <Event>`): always exit 0; with no daemon, Codex's neutral
 * output (empty stdout) within the fixed bound; with a daemon, its reply byte for byte.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startAdapter, type RunningAdapter } from '../../adapter-kit/daemon.js';
import { SHIM_CONNECT_TIMEOUT_MS } from '../../adapter-kit/shim.cjs';
import { tempHome } from '../../adapter-kit/test-utils/daemon-harness.js';
import { main } from '../../cli/main.js';
import { fakeIo } from '../../test-utils/cli-io.js';
import { deadPort } from '../../test-utils/dead-port.js';
import { adapter } from './adapter.js';
import { skipped, WHY } from '../../test-utils/skip.js';

let running: RunningAdapter | null = null;
afterEach(async () => {
  await running?.close();
  running = null;
});

const input = '{"hook_event_name":"PermissionRequest","session_id":"thr_shim","turn_id":"t1","tool_name":"shell","tool_input":{"command":"make"}}';

describe('aep hook codex', () => {
  it('with no daemon: exit 0 and empty stdout, at once', async () => {
    const io = fakeIo({ stdin: input, env: { AEP_CODEX_PORT: String(await deadPort()) } });
    const started = Date.now();
    expect(await main(['hook', 'codex', 'PermissionRequest'], io)).toBe(0);
    expect(io.out).toBe('');
    expect(Date.now() - started).toBeLessThan(SHIM_CONNECT_TIMEOUT_MS);
  });

  it('with a live daemon: the held reply, byte for byte (here the timeout: empty stdout)', async () => {
    running = await startAdapter(adapter, { port: 0, home: tempHome(), attentionTimeoutMs: 50 });
    const io = fakeIo({ stdin: input, env: { AEP_DEBUG: '1' } });
    expect(await main(['hook', 'codex', 'PermissionRequest', '--port', String(running.port)], io)).toBe(0);
    expect(io.out).toBe('');
    expect(io.err).toBe('');
  });

  it.skipIf(!existsSync('dist/impl/adapters/codex/adapter.js'))(`as a real process with no daemon: exit 0, empty stdout, within the 2 s bound${skipped(!existsSync('dist/impl/adapters/codex/adapter.js'), WHY.build)}`, () => {
    const started = Date.now();
    const result = spawnSync(process.execPath, ['bin/aep.js', 'hook', 'codex', 'PreToolUse'], {
      input,
      env: { ...process.env, AEP_CODEX_PORT: '1' },
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    expect(Date.now() - started).toBeLessThan(SHIM_CONNECT_TIMEOUT_MS + 1500);
  });
});
