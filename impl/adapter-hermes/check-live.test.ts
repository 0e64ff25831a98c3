/**
 * The Hermes adapter with its operator-deny gate on (`AEP_HERMES_CONTROL=1`) as a
 * control-capable target: `aep check-live --control-session` through a tokened relay passes
 * the behalf-refusal, ack, unsupported-nack and dedupe checks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../relay/server.js';
import { startAdapter, type RunningAdapter } from '../adapter-kit/daemon.js';
import { postHook, tempHome } from '../adapter-kit/test-utils.js';
import { main } from '../cli/main.js';
import { fakeIo } from '../test-utils/cli-io.js';
import { fromEnv } from './adapter.js';

let relay: RunningRelay | null = null;
let daemon: RunningAdapter | null = null;
afterEach(async () => {
  await daemon?.close();
  await relay?.close();
  relay = daemon = null;
});

describe('hermes gate under check-live', () => {
  it('passes control-behalf-refusal, control-ack, control-nack-unsupported, control-dedupe', async () => {
    const token = 'tok-hermes-live';
    relay = await startRelay({ host: '127.0.0.1', port: 0, token, drainMs: 100 });
    const def = fromEnv({ AEP_HERMES_CONTROL: '1' });
    daemon = await startAdapter(def, { port: 0, relay: relay.url, token, home: tempHome(), hostname: 'ci' });
    const deadline = Date.now() + 5000;
    while ((!daemon.relayReady()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await postHook(daemon.url, 'on_session_start', { hook_event_name: 'on_session_start', session_id: 'ci-hermes', extra: {} });
    await new Promise((r) => setTimeout(r, 200));
    const io = fakeIo();
    const code = await main(['check-live', relay.url, '--token', token, '--control-session', 'ci-hermes', '--checks', 'control-behalf-refusal,control-ack,control-nack-unsupported,control-dedupe'], io);
    for (const name of ['control-behalf-refusal', 'control-ack', 'control-nack-unsupported', 'control-dedupe']) expect(io.out).toMatch(new RegExp(`pass  ${name} `));
    expect(io.out).toContain('4 passed, 0 failed, 0 skipped');
    expect(code).toBe(0);
  });
});
