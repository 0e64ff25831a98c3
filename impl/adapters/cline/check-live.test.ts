/**
 * The Cline adapter with hub control on (`AEP_CLINE_HUB_CONTROL=1`, against a stub hub) as a
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
import { startStubHub, type StubHub } from './test-utils/hub.js';

let relay: RunningRelay | null = null;
let daemon: RunningAdapter | null = null;
let hub: StubHub | null = null;
afterEach(async () => {
  await daemon?.close();
  await relay?.close();
  await hub?.close();
  relay = daemon = hub = null;
});

const CHECKS = ['control-behalf-refusal', 'control-ack', 'control-nack-unsupported', 'control-dedupe'];

describe('cline hub control under check-live', () => {
  it.each(['control.attention.respond', 'control.cancel', 'x.cline.control.send_input'])('passes the four control checks with --control-accepts %s', async (accepts) => {
    const token = 'tok-cline-live';
    hub = await startStubHub('hub-secret');
    relay = await startRelay({ host: '127.0.0.1', port: 0, token, drainMs: 100 });
    const def = configuredForTest(adapter, { AEP_CLINE_HUB_CONTROL: '1', AEP_CLINE_HUB_URL: hub.url, AEP_CLINE_HUB_TOKEN: 'hub-secret' });
    daemon = await startAdapter(def, { port: 0, relay: relay.url, token, home: tempHome(), hostname: 'ci' });
    const deadline = Date.now() + 5000;
    while ((!daemon.relayReady() || !hub.frames.some((f) => f.kind === 'stream.subscribe')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await postHook(daemon.url, 'agent_start', { hookName: 'agent_start', taskId: 'ci-cline', agent_id: 'a', parent_agent_id: null });
    await new Promise((r) => setTimeout(r, 200));
    const io = fakeIo();
    const code = await main(['check-live', relay.url, '--token', token, '--control-session', 'ci-cline', '--control-accepts', accepts, '--checks', CHECKS.join(',')], io);
    for (const name of CHECKS) expect(io.out).toMatch(new RegExp(`pass  ${name} `));
    expect(io.out).toContain('4 passed, 0 failed, 0 skipped');
    expect(code).toBe(0);
  });
});
