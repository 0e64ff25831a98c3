/**
 * The Gemini CLI hook shim (`aep hook gemini-cli <Event>`), run exactly as settings.example.json
 * configures it: always exit 0, `{}` within the fixed bound when no daemon runs, the daemon's
 * reply byte for byte when one does.
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

const settings = JSON.parse(readFileSync(new URL('./settings.example.json', import.meta.url), 'utf8'));
const commandFor = (event: string): string => settings.hooks[event][0].hooks[0].command;
const input = JSON.stringify({ hook_event_name: 'BeforeTool', session_id: 'gm-shim', tool_name: 'write_file', tool_input: { file_path: 'a' } });

let running: RunningAdapter | null = null;
afterEach(async () => {
  await running?.close();
  running = null;
});

describe('aep hook gemini-cli', () => {
  it('with no daemon: exit 0 and {} at once', async () => {
    const started = Date.now();
    expect(await runHookCommand(commandFor('BeforeTool'), input, { AEP_GEMINI_CLI_PORT: String(await deadPort()) })).toEqual({ code: 0, out: '{}', err: '' });
    expect(Date.now() - started).toBeLessThan(SHIM_CONNECT_TIMEOUT_MS);
  });

  it.skipIf(!existsSync('dist/impl/adapters/gemini-cli/adapter.js'))(`the configured command, spawned with aep on PATH: {} with no daemon, the reply with one${skipped(!existsSync('dist/impl/adapters/gemini-cli/adapter.js'), WHY.build)}`, async () => {
    const dead = await spawnConfiguredCommand(commandFor('BeforeTool'), input, { AEP_GEMINI_CLI_PORT: String(await deadPort()) });
    expect(dead).toMatchObject({ status: 0, stdout: '{}' });
    expect(dead.ms).toBeLessThan(SHIM_CONNECT_TIMEOUT_MS + 1500);
    const seen: string[] = [];
    running = await startAdapter(adapter, { port: 0, home: tempHome(), onEmit: (e) => seen.push(e.type) });
    const live = await spawnConfiguredCommand(commandFor('BeforeTool'), input, { AEP_GEMINI_CLI_PORT: String(running.port), AEP_DEBUG: '1' });
    expect(live).toMatchObject({ status: 0, stdout: '{}', stderr: '' });
    expect(seen).toEqual(['tool.requested']);
  });
});
