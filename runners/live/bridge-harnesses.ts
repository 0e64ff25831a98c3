/**
 * The live scenario harnesses of the WebSocket bridges' opt-in control gates (bridge-control-live.ts
 * runs them): Kimi web (primary mode, AEP_KIMI_WEB_CONTROL on) against the stub kap-server, and
 * OpenHands (AEP_OPENHANDS_CONTROL on) against the stub agent server. Each bridge observes exactly
 * the scenario's session; a step's `input` is pushed onto the stub's socket as one frame.
 */
import { createEmitter } from '../../impl/bridge-kit/emitter.js';
import { startKimiWeb, type RunningKimiWeb } from '../../impl/bridges/kimi-web/attach.js';
import { CONTROL_ACCEPTS as KIMI_ACCEPTS, KimiControlGate } from '../../impl/bridges/kimi-web/control.js';
import { startStubKap } from '../../impl/bridges/kimi-web/stub-server.js';
import { startOpenHandsBridge, type RunningOpenHands } from '../../impl/bridges/openhands/receiver.js';
import { CONTROL_ACCEPTS as OH_ACCEPTS, OpenHandsControlGate } from '../../impl/bridges/openhands/control.js';
import { startStubAgentServer } from '../../impl/bridges/openhands/stub-server.js';
import type { BridgeHarness } from './bridge-harness.js';
import type { Scenario } from './scenario-format.js';
import { LIVE_HOST, type Stack } from './stack.js';

const KAP_TOKEN = 'live-kap-token';
const quiet = (): void => undefined;

export async function kimiWebHarness(stack: Stack, scenario: Scenario, home: string): Promise<BridgeHarness> {
  const stub = await startStubKap(KAP_TOKEN, [scenario.session]);
  let bridge: RunningKimiWeb | undefined;
  let gate: KimiControlGate | undefined;
  const emitter = createEmitter({
    agent: 'kimi-code', stateKey: 'bridge-kimi-code-web', home, relay: stack.relayUrl, token: stack.token, host: LIVE_HOST, writeLog: false,
    accepts: KIMI_ACCEPTS, onCommand: (raw, v) => gate?.onCommand(raw, v), emits: ['run', 'tool', 'attention', 'x.kimi-code'], log: quiet,
  });
  gate = new KimiControlGate({ server: stub.url, token: KAP_TOKEN, emitter, runOf: (s) => bridge?.runOf(s), guardMs: 2000, log: quiet });
  bridge = await startKimiWeb({ server: stub.url, token: KAP_TOKEN, mode: 'primary', emitter, control: gate, sessions: [scenario.session], log: quiet });
  return {
    agent: 'kimi-code',
    // Subscribed: the stub has answered the subscribe frame with the session's first envelope.
    ready: () => emitter.relayReady() && bridge!.sourceOpen() && stub.subscribes.length > 0,
    push(hook, input) {
      if (hook !== 'ws') return `(a kimi-web scenario step pushes kap-server WS envelopes only: "hook": "ws", got "${hook}")`;
      stub.push(input);
      return '';
    },
    async close() {
      await bridge?.close();
      await emitter.close();
      await stub.close();
    },
  };
}

export async function openHandsHarness(stack: Stack, scenario: Scenario, home: string): Promise<BridgeHarness> {
  const stub = await startStubAgentServer([scenario.session]);
  let bridge: RunningOpenHands | undefined;
  let gate: OpenHandsControlGate | undefined;
  const emitter = createEmitter({
    agent: 'openhands', stateKey: 'bridge-openhands', home, relay: stack.relayUrl, token: stack.token, host: LIVE_HOST, writeLog: false,
    accepts: OH_ACCEPTS, onCommand: (raw, v) => gate?.onCommand(raw, v), emits: ['session', 'run', 'tool', 'attention', 'state', 'error', 'x.openhands'], log: quiet,
  });
  gate = new OpenHandsControlGate({ server: stub.url, emitter, statusOf: (c) => bridge?.statusOf(c) ?? null, guardMs: 2000, log: quiet });
  bridge = await startOpenHandsBridge({ server: stub.url, emitter, control: gate, pollMs: 60_000, log: quiet });
  return {
    agent: 'openhands',
    ready: () => emitter.relayReady() && bridge!.attached().includes(scenario.session),
    push(hook, input) {
      if (hook !== 'event') return `(an openhands scenario step pushes agent-server events only: "hook": "event", got "${hook}")`;
      stub.push(scenario.session, input);
      return '';
    },
    async close() {
      await bridge?.close();
      await emitter.close();
      await stub.close();
    },
  };
}
