/**
 * Gemini CLI 0.61.0's real hook payloads (captured from the vendor's binary, read at test time from
 * the shared captures when present, never copied): each captured session replayed in firing order
 * through the configured shim. Every hook answers `{}`, every payload maps (unknown fields never
 * break a mapping), and the daemon's log passes `aep validate`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startAdapter, type RunningAdapter } from '../../adapter-kit/daemon.js';
import { tempHome } from '../../adapter-kit/test-utils/daemon-harness.js';
import { describeWhenPresent } from '../../test-utils/suites.js';
import { runHookCommand, sessionLog } from '../../test-utils/hook-command.js';
import { adapter } from './adapter.js';
import { vendorCapturesDir } from '../../test-utils/standard.js';

const CAPTURES = vendorCapturesDir('gemini-cli-0.61.0');
const settings = JSON.parse(readFileSync(new URL('./settings.example.json', import.meta.url), 'utf8'));

let running: RunningAdapter | null = null;
afterEach(async () => {
  await running?.close();
  running = null;
});

describeWhenPresent(CAPTURES, 'gemini-cli 0.61.0 captured sessions through the shim', () => {
  const sessions = readdirSync(CAPTURES).filter((d) => !d.includes('.'));
  it.each(sessions)('%s', async (dir) => {
    const home = tempHome();
    const types: string[] = [];
    running = await startAdapter(adapter.configure!({}) as typeof adapter, { port: 0, home, onEmit: (e) => types.push(e.type) });
    const files = readdirSync(join(CAPTURES, dir)).filter((f) => f.endsWith('.json')).sort();
    let session = '';
    for (const file of files) {
      const body = readFileSync(join(CAPTURES, dir, file), 'utf8');
      const input = JSON.parse(body) as { hook_event_name: string; session_id: string };
      session = input.session_id;
      // AfterModel is unregistered in the example: a registered hook goes through its command, the rest as aep hook would send it.
      const command = settings.hooks[input.hook_event_name]?.[0]?.hooks[0]?.command ?? `aep hook gemini-cli ${input.hook_event_name}`;
      expect(await runHookCommand(command, body, { AEP_GEMINI_CLI_PORT: String(running.port) }), file).toEqual({ code: 0, out: '{}', err: '' });
    }
    expect(types.length).toBe(files.length);
    expect(types[0]).toBe('session.started');
    expect(types.at(-1)).toBe('session.ended');
    expect(types.filter((t) => t === 'run.started').length).toBe(types.filter((t) => t === 'run.finished').length);
    expect(types.every((t) => !t.startsWith('x.gemini-cli.session.') || /before_model|after_model|before_tool_selection/.test(t))).toBe(true);
    const log = await sessionLog(home, 'gemini-cli', session);
    expect(log.validate).toEqual({ code: 0, out: expect.stringMatching(/: \d+ events, valid\n$/) });
  });
});
