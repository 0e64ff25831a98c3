/**
 * The Kimi Code hook shim (`aep hook kimi-code <Event>`), run exactly as config.example.toml
 * registers it: always exit 0, `{}` within the fixed bound with no daemon, the reply with one.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startAdapter, type RunningAdapter } from '../../adapter-kit/daemon.js';
import { SHIM_CONNECT_TIMEOUT_MS } from '../../adapter-kit/shim.cjs';
import { tempHome } from '../../adapter-kit/test-utils/daemon-harness.js';
import { deadPort } from '../../test-utils/dead-port.js';
import { runHookCommand, spawnConfiguredCommand } from '../../test-utils/hook-command.js';
import { adapter } from './adapter.js';
import { skipped, WHY } from '../../test-utils/skip.js';

const toml = readFileSync(new URL('./config.example.toml', import.meta.url), 'utf8');
const commandFor = (event: string): string => new RegExp(`event = "${event}"\\ncommand = "([^"]+)"`).exec(toml)![1]!;
const input = JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 'ks-shim', prompt: [{ type: 'text', text: 'hi' }] });

let running: RunningAdapter | null = null;
afterEach(async () => {
  await running?.close();
  running = null;
});

describe('aep hook kimi-code', () => {
  it('with no daemon: exit 0 and {} at once', async () => {
    const started = Date.now();
    expect(await runHookCommand(commandFor('UserPromptSubmit'), input, { AEP_KIMI_CODE_PORT: String(await deadPort()) })).toEqual({ code: 0, out: '{}', err: '' });
    expect(Date.now() - started).toBeLessThan(SHIM_CONNECT_TIMEOUT_MS);
  });

  it.skipIf(!existsSync('dist/impl/adapters/kimi-code/adapter.js'))(`the configured command, spawned with aep on PATH: {} with no daemon, the reply with one${skipped(!existsSync('dist/impl/adapters/kimi-code/adapter.js'), WHY.build)}`, async () => {
    const dead = await spawnConfiguredCommand(commandFor('UserPromptSubmit'), input, { AEP_KIMI_CODE_PORT: String(await deadPort()) });
    expect(dead).toMatchObject({ status: 0, stdout: '{}' });
    expect(dead.ms).toBeLessThan(SHIM_CONNECT_TIMEOUT_MS + 1500);
    const seen: string[] = [];
    running = await startAdapter(adapter, { port: 0, home: tempHome(), onEmit: (e) => seen.push(e.type) });
    const live = await spawnConfiguredCommand(commandFor('UserPromptSubmit'), input, { AEP_KIMI_CODE_PORT: String(running.port) });
    expect(live).toMatchObject({ status: 0, stdout: '{}', stderr: '' });
    expect(seen).toEqual(['run.started']);
  });
});
