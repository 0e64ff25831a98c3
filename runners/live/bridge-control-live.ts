/**
 * The opt-in control legs of the inbound bridges under `aep conformance --live`: scenario files
 * of `control-loop/` whose `adapter` names a bridge in BRIDGE_HARNESSES run end to end against
 * that bridge's stub vendor server. The bridge runs with its gate on (primary mode where it has
 * modes), linked to the stack's tokened relay; a step pushes its `input` onto the stub's stream
 * (its reply is always ""): `"hook": "bus"` for the OpenCode/Kilo SSE bridges (a bus event on
 * `GET /event`), `"ws"` for Kimi web (a kap-server WS envelope), `"event"` for OpenHands (an
 * agent-server event on the conversation socket). Commands travel through the relay, and the
 * events are the bridge's as the relay fans them out; the REST writes the gate sends are the
 * stub's to answer. Offline, the control-loop family names these files as not run (a bridge has
 * no hook engine to drive on a fake clock).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ulid } from '../../impl/core/ulid.js';
import { createEmitter } from '../../impl/bridge-kit/emitter.js';
import { startSseBridge, type RunningSseBridge } from '../../impl/bridges/opencode-sse/attach.js';
import { CONTROL_ACCEPTS, ControlGate } from '../../impl/bridges/opencode-sse/control.js';
import { startStubServer } from '../../impl/bridges/opencode-sse/stub-server.js';
import type { BusVendor } from '../../impl/bridges/opencode-sse/map-bus.js';
import { kimiWebHarness, openHandsHarness } from './bridge-harnesses.js';
import type { BridgeHarness } from './bridge-harness.js';

export type { BridgeHarness } from './bridge-harness.js';
import { validity } from '../conformance/families/control-loop.js';
import { describeThrown, fail, pass } from '../conformance/check.js';
import type { Check, Family } from '../conformance/types.js';
import { poll } from './live-target.js';
import { readScenarioFile, scenarioFiles, type Scenario } from './scenario-format.js';
import { runScenario, type Observed, type ScenarioTarget } from './scenario-run.js';
import { terminalsCheck } from '../judge/scenario-judge.js';
import { withStack, LIVE_HOST, type Stack } from './stack.js';

export const BRIDGE_SCENARIO_VENDORS: Readonly<Record<string, BusVendor>> = { 'opencode-sse': 'opencode', 'kilocode-sse': 'kilocode' };

type HarnessFactory = (stack: Stack, scenario: Scenario, home: string) => Promise<BridgeHarness>;

function sseHarness(vendor: BusVendor): HarnessFactory {
  return async (stack, _scenario, home) => {
    const stub = await startStubServer([]);
    let bridge: RunningSseBridge | undefined;
    let gate: ControlGate | undefined;
    const log = (): void => undefined;
    const emitter = createEmitter({
      agent: vendor, stateKey: `bridge-${vendor}-sse`, home, relay: stack.relayUrl, token: stack.token, host: LIVE_HOST, writeLog: false,
      accepts: CONTROL_ACCEPTS, onCommand: (raw, v) => gate?.onCommand(raw, v), emits: ['session', 'run', 'attention', `x.${vendor}`], log,
    });
    gate = new ControlGate({ server: stub.url, emitter, runOf: (s) => bridge?.runOf(s), guardMs: 2000, log });
    bridge = await startSseBridge({ vendor, server: stub.url, mode: 'primary', emitter, control: gate, log });
    return {
      agent: vendor,
      ready: () => emitter.relayReady() && bridge!.sourceOpen(),
      push(hook, input) {
        if (hook !== 'bus') return `(a ${vendor}-sse scenario step pushes bus events only: "hook": "bus", got "${hook}")`;
        stub.push(input);
        return '';
      },
      async close() {
        await bridge?.close();
        await emitter.close();
        await stub.close();
      },
    };
  };
}

/** Adapter name of a control-loop file → its bridge harness (the gate on, against its stub). */
export const BRIDGE_HARNESSES: Readonly<Record<string, HarnessFactory>> = {
  'opencode-sse': sseHarness('opencode'),
  'kilocode-sse': sseHarness('kilocode'),
  'kimi-web': kimiWebHarness,
  openhands: openHandsHarness,
};

async function runBridgeScenario(stack: Stack, adapter: string, scenario: Scenario, impl: Parameters<typeof validity>[0]): Promise<string | null> {
  const home = mkdtempSync(join(tmpdir(), 'aep-live-bridge-'));
  let harness: BridgeHarness | undefined;
  try {
    harness = await BRIDGE_HARNESSES[adapter]!(stack, scenario, home);
    await poll(() => harness!.ready(), 5000);
    if (!harness.ready()) return `the ${adapter} bridge did not link to the relay and its stub vendor server within 5000 ms`;
    const agent = harness.agent;
    const target: ScenarioTarget = {
      hook: async (hookEvent, input) => harness!.push(hookEvent, input),
      command: (raw) => stack.client.send(raw),
      elapse: () => undefined,
      settle: (until, ms) => poll(until, ms),
      observed: (): Observed[] =>
        stack.client.events().flatMap((f) => (f.json!.session === scenario.session && f.json!.agent === agent ? [{ event: f.json!, line: f.raw }] : [])),
      refusal: (id) => stack.client.refusal(id),
    };
    return await runScenario(scenario, target, { newId: () => ulid(), now: () => new Date().toISOString(), ...validity(impl), judgeStream: terminalsCheck(adapter), stepMs: 5000, quietMs: 100 });
  } finally {
    await harness?.close();
    rmSync(home, { recursive: true, force: true });
  }
}

/** `inner` (the live control-loop family), then every bridge scenario of the corpus; one check each. */
export function withBridgeScenarios(inner: Family): Family {
  return {
    ...inner,
    detect: (dir) => inner.detect(dir),
    async run(ctx) {
      const checks = await inner.run(ctx);
      const files = scenarioFiles(ctx.corpusDir).map((rel) => readScenarioFile(ctx.corpusDir, rel)).filter((f) => BRIDGE_HARNESSES[f.adapter]);
      if (files.length === 0) return checks;
      const more = await withStack(async (stack) => {
        const out: Check[] = [];
        for (const file of files) {
          for (const scenario of file.scenarios) {
            const name = `live/control-loop/${file.adapter}/${scenario.name}`;
            try {
              const problem = await runBridgeScenario(stack, file.adapter, scenario, ctx.implementation);
              out.push(problem === null ? pass(name) : fail(name, problem));
            } catch (err) {
              out.push(fail(name, describeThrown(err)));
            }
          }
        }
        return out;
      });
      return [...checks, ...more];
    },
  };
}
