/**
 * The Hermes example configuration (`config.example.yaml`, the `hooks:` block of
 * ~/.hermes/config.yaml): every registered command runs as written; with no daemon it prints {}
 * and exits 0 at once; with a daemon the event arrives. The vendor timeout stays above the hold.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startAdapter, type RunningAdapter } from '../../adapter-kit/daemon.js';
import { tempHome } from '../../adapter-kit/test-utils/daemon-harness.js';
import { aepOnPath, runCommand } from '../../test-utils/hook-command.js';
import { adapter } from './adapter.js';
import { skipped, WHY } from '../../test-utils/skip.js';

const yaml = readFileSync('impl/adapters/hermes/config.example.yaml', 'utf8');
/** The (event, command, timeout) triples of the example's `hooks:` block (a flat, regular YAML subset). */
const entries = [...yaml.matchAll(/^ {2}([a-z_]+):\n {4}- command: "([^"]+)"\n {6}timeout: (\d+)$/gm)].map((m) => ({ event: m[1]!, command: m[2]!, timeout: Number(m[3]) }));

let running: RunningAdapter | null = null;
afterEach(async () => {
  await running?.close();
  running = null;
});

describe('hermes example configuration', () => {
  it('registers the twelve observation hooks, each `aep hook hermes <event>`, with a timeout above the 55 s hold', () => {
    expect(entries.map((e) => e.event)).toEqual(['on_session_start', 'pre_llm_call', 'pre_tool_call', 'post_tool_call', 'on_session_end', 'on_session_finalize', 'on_session_reset', 'subagent_start', 'subagent_stop', 'pre_approval_request', 'post_approval_response', 'api_request_error']);
    for (const e of entries) {
      expect(e.command).toBe(`aep hook hermes ${e.event}`);
      expect(e.timeout * 1000).toBeGreaterThan(55_000);
    }
  });

  it.skipIf(!existsSync('dist/impl/adapters/hermes/adapter.js'))(`the commands run as written: {} and exit 0 with no daemon; with one, the event arrives${skipped(!existsSync('dist/impl/adapters/hermes/adapter.js'), WHY.build)}`, async () => {
    const PATH = `${aepOnPath()}:${process.env.PATH ?? ''}`;
    const input = JSON.stringify({ hook_event_name: 'pre_tool_call', tool_name: 'terminal', tool_input: { command: 'ls' }, session_id: 'hs_shim', cwd: '/tmp', extra: { tool_call_id: 'tc', telemetry_schema_version: 'hermes.observer.v1' } });
    const dead = await runCommand('/bin/sh', ['-c', entries[2]!.command], { input, env: { ...process.env, PATH, AEP_HERMES_PORT: '1' } });
    expect([dead.status, dead.stdout]).toEqual([0, '{}']);
    expect(dead.ms).toBeLessThan(4000);
    const seen: string[] = [];
    running = await startAdapter(adapter, { port: 0, home: tempHome(), onEmit: (e) => seen.push(e.type) });
    const live = await runCommand('/bin/sh', ['-c', entries[2]!.command], { input, env: { ...process.env, PATH, AEP_HERMES_PORT: String(running.port) } });
    expect([live.status, live.stdout]).toEqual([0, '{}']);
    expect(seen).toEqual(['tool.requested']);
  });
});

describe('aep adapter hermes configuration errors', () => {
  it('a malformed AEP_HERMES_GATE_TOOLS is a usage error naming the variable', async () => {
    const { main } = await import('../../cli/main.js');
    const { fakeIo } = await import('../../test-utils/cli-io.js');
    const io = fakeIo({ env: { AEP_HERMES_CONTROL: '1', AEP_HERMES_GATE_TOOLS: '(unclosed', AEP_HOME: tempHome() } });
    expect(await main(['adapter', 'hermes', '--port', '0', '--relay', 'none'], io)).toBe(2);
    expect(io.err).toMatch(/AEP_HERMES_GATE_TOOLS must be a regular expression/);
  });
});
