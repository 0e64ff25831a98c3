/**
 * The opt-in control legs of the SSE bridges under `aep conformance --live`: scenario files of
 * `control-loop/` whose `adapter` is `opencode-sse` or `kilocode-sse` run end to end against a
 * stub vendor server (impl/bridge-opencode-sse/stub-server.ts). The bridge runs in primary mode
 * with its gate on, linked to the stack's tokened relay; a `{"hook": "bus", "input": <bus event>}`
 * step pushes that event onto the stub's `GET /event` stream (its reply is always ""), commands
 * travel through the relay, and the events are the bridge's as the relay fans them out. The
 * REST writes the gate sends are the stub's to answer (200 `true`). Offline, the control-loop
 * family names these files as not run (a bridge has no hook engine to drive on a fake clock).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ulid } from '../../impl/core/ulid.js';
import { createEmitter } from '../../impl/bridge-kit/emitter.js';
import { startSseBridge, type RunningSseBridge } from '../../impl/bridge-opencode-sse/attach.js';
import { CONTROL_ACCEPTS, ControlGate } from '../../impl/bridge-opencode-sse/control.js';
import { startStubServer } from '../../impl/bridge-opencode-sse/stub-server.js';
import type { BusVendor } from '../../impl/bridge-opencode-sse/map-bus.js';
import { validity } from '../conformance/families/control-loop.js';
import { describeThrown, fail, pass } from '../conformance/check.js';
import type { Check, Family } from '../conformance/types.js';
import { poll } from './live-target.js';
import { readScenarioFile, scenarioFiles, type Scenario } from './scenario-format.js';
import { runScenario, type Observed, type ScenarioTarget } from './scenario-run.js';
import { withStack, LIVE_HOST, type Stack } from './stack.js';

export const BRIDGE_SCENARIO_VENDORS: Readonly<Record<string, BusVendor>> = { 'opencode-sse': 'opencode', 'kilocode-sse': 'kilocode' };

async function runBridgeScenario(stack: Stack, vendor: BusVendor, scenario: Scenario, impl: Parameters<typeof validity>[0]): Promise<string | null> {
  const stub = await startStubServer([]);
  const home = mkdtempSync(join(tmpdir(), 'aep-live-bridge-'));
  let bridge: RunningSseBridge | undefined;
  let gate: ControlGate | undefined;
  const log = (): void => undefined;
  const emitter = createEmitter({
    agent: vendor, stateKey: `bridge-${vendor}-sse`, home, relay: stack.relayUrl, token: stack.token, host: LIVE_HOST, writeLog: false,
    accepts: CONTROL_ACCEPTS, onCommand: (raw, v) => gate?.onCommand(raw, v), emits: ['session', 'run', 'attention', `x.${vendor}`], log,
  });
  try {
    gate = new ControlGate({ server: stub.url, emitter, runOf: (s) => bridge?.runOf(s), guardMs: 2000, log });
    bridge = await startSseBridge({ vendor, server: stub.url, mode: 'primary', emitter, control: gate, log });
    await poll(() => emitter.relayReady() && bridge!.sourceOpen(), 5000);
    if (!emitter.relayReady() || !bridge.sourceOpen()) return `the ${vendor}-sse bridge did not link to the relay and the stub's /event within 5000 ms`;
    const target: ScenarioTarget = {
      async hook(hookEvent, input) {
        if (hookEvent !== 'bus') return `(a bridge scenario step pushes bus events only: "hook": "bus", got "${hookEvent}")`;
        stub.push(input);
        return '';
      },
      command: (raw) => stack.client.send(raw),
      elapse: () => undefined,
      settle: (until, ms) => poll(until, ms),
      observed: (): Observed[] =>
        stack.client.events().flatMap((f) => (f.json!.session === scenario.session && f.json!.agent === vendor ? [{ event: f.json!, line: f.raw }] : [])),
      refusal: (id) => stack.client.refusal(id),
    };
    return await runScenario(scenario, target, { newId: () => ulid(), now: () => new Date().toISOString(), ...validity(impl), stepMs: 5000, quietMs: 100 });
  } finally {
    await bridge?.close();
    await emitter.close();
    await stub.close();
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
      const files = scenarioFiles(ctx.corpusDir).map((rel) => readScenarioFile(ctx.corpusDir, rel)).filter((f) => BRIDGE_SCENARIO_VENDORS[f.adapter]);
      if (files.length === 0) return checks;
      const more = await withStack(async (stack) => {
        const out: Check[] = [];
        for (const file of files) {
          for (const scenario of file.scenarios) {
            const name = `live/control-loop/${file.adapter}/${scenario.name}`;
            try {
              const problem = await runBridgeScenario(stack, BRIDGE_SCENARIO_VENDORS[file.adapter]!, scenario, ctx.implementation);
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
