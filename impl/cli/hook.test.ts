/** `aep hook`: always exit 0; with no daemon, the vendor's neutral output within the bound. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startAdapter, type RunningAdapter } from '../adapter-kit/daemon.js';
import { tempHome } from '../adapter-kit/test-utils.js';
import { adapter } from '../adapter-claude-code/adapter.js';
import { main } from './main.js';
import { fakeIo } from '../test-utils/cli-io.js';
import { deadPort } from '../test-utils/dead-port.js';

let running: RunningAdapter | null = null;
afterEach(async () => {
  await running?.close();
  running = null;
});

const input = '{"hook_event_name":"PreToolUse","session_id":"s_h","tool_name":"Read","tool_input":{}}';

describe('aep hook', () => {
  it('with no daemon: exit 0 and the neutral {} at once', async () => {
    const io = fakeIo({ stdin: input, env: { AEP_CLAUDE_CODE_PORT: String(await deadPort()) } });
    const started = Date.now();
    expect(await main(['hook', 'claude-code', 'PreToolUse'], io)).toBe(0);
    expect(io.out).toBe('{}');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('with a live daemon: the daemon reply on stdout', async () => {
    running = await startAdapter(adapter, { port: 0, home: tempHome() });
    const io = fakeIo({ stdin: input, env: { AEP_DEBUG: '1' } });
    expect(await main(['hook', 'claude-code', 'PreToolUse', '--port', String(running.port)], io)).toBe(0);
    expect(io.out).toBe('{}');
    expect(io.err).toBe('');
  });

  it('misconfigured (unknown adapter, missing event, bad port): still exit 0, never blocks the vendor', async () => {
    const unknown = fakeIo({ stdin: input, env: {} });
    expect(await main(['hook', 'nope', 'PreToolUse'], unknown)).toBe(0);
    expect(unknown.err).toMatch(/usage: aep hook/);
    const unknownFlag = fakeIo({ stdin: input, env: { AEP_CLAUDE_CODE_PORT: String(await deadPort()) } });
    expect(await main(['hook', 'claude-code', 'Stop', '--bogus'], unknownFlag)).toBe(0);
    expect(unknownFlag.out).toBe('{}');
    const badPort = fakeIo({ stdin: input, env: { AEP_CLAUDE_CODE_PORT: 'x' } });
    expect(await main(['hook', 'claude-code', 'Stop'], badPort)).toBe(0);
    expect(badPort.out).toBe('{}');
  });

  const bin = 'bin/aep.js';
  it.skipIf(!existsSync('dist/impl/cli/hook.js'))('as a real process with no daemon: exit 0, stdout {}, within the 2 s bound', async () => {
    const port = await deadPort();
    const started = Date.now();
    const result = spawnSync(process.execPath, [bin, 'hook', 'claude-code', 'PermissionRequest'], {
      input,
      env: { ...process.env, AEP_CLAUDE_CODE_PORT: String(port) },
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('{}');
    expect(Date.now() - started).toBeLessThan(2000 + 1500); // the bound plus process start-up
  });
});
