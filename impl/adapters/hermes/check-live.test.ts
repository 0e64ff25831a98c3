/**
 * The Hermes adapter with its operator-deny gate on (`AEP_HERMES_CONTROL=1`) as a
 * control-capable target: `aep check-live --control-session` through a tokened relay passes
 * the behalf-refusal, ack, unsupported-nack and dedupe checks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../relay/server.js';
import { startAdapter, type RunningAdapter } from '../../adapter-kit/daemon.js';
import { configuredForTest, postHook, tempHome } from '../../adapter-kit/test-utils/daemon-harness.js';
import { main } from '../../cli/main.js';
import { fakeIo } from '../../test-utils/cli-io.js';
import { adapter } from './adapter.js';

let relay: RunningRelay | null = null;
let daemon: RunningAdapter | null = null;
afterEach(async () => {
  await daemon?.close();
  await relay?.close();
  relay = daemon = null;
});

const CHECKS = ['control-behalf-refusal', 'control-ack', 'control-nack-unsupported', 'control-dedupe'];

/** Run the four control checks against a Hermes daemon started with `env` (and `instruct`), for `accepts`. */
async function checkLive(env: Record<string, string>, instruct: boolean, accepts: string): Promise<{ code: number; out: string }> {
  const token = 'tok-hermes-live';
  relay = await startRelay({ host: '127.0.0.1', port: 0, token, drainMs: 100 });
  daemon = await startAdapter(configuredForTest(adapter, env), { port: 0, relay: relay.url, token, home: tempHome(), hostname: 'ci', instruct });
  const deadline = Date.now() + 5000;
  while (!daemon.relayReady() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await postHook(daemon.url, 'on_session_start', { hook_event_name: 'on_session_start', session_id: 'ci-hermes', extra: {} });
  await new Promise((r) => setTimeout(r, 200));
  const io = fakeIo();
  const code = await main(['check-live', relay.url, '--token', token, '--control-session', 'ci-hermes', '--control-accepts', accepts, '--checks', CHECKS.join(',')], io);
  return { code, out: io.out };
}

describe('hermes opt-in legs under check-live', () => {
  it('the operator-deny gate (AEP_HERMES_CONTROL=1) passes the four control checks', async () => {
    const { code, out } = await checkLive({ AEP_HERMES_CONTROL: '1' }, false, 'control.attention.respond');
    for (const name of CHECKS) expect(out).toMatch(new RegExp(`pass  ${name} `));
    expect(out).toContain('4 passed, 0 failed, 0 skipped');
    expect(code).toBe(0);
  });

  it('steering alone (AEP_INSTRUCT=1, gate off) passes them with x.hermes.control.instruct', async () => {
    const { code, out } = await checkLive({}, true, 'x.hermes.control.instruct');
    for (const name of CHECKS) expect(out).toMatch(new RegExp(`pass  ${name} `));
    expect(code).toBe(0);
  });
});
