/**
 * The live families `aep conformance --live` adds: `live/mappings`, `live/control-loop` and
 * `live/bridge-mappings` (the AG-UI tee proxy's mapping entries).
 * Each one starts its own stack (a tokened relay and the adapter daemons, all on ephemeral
 * loopback ports, with a temporary AEP home), runs, and tears the stack down, even on failure.
 * Checks are named `live/<family>/<case>`.
 */
import { ulid } from '../../impl/core/ulid.js';
import type { AdapterDef } from '../../impl/adapter-kit/types.js';
import { SCENARIO_ADAPTERS, validity } from '../conformance/families/control-loop.js';
import { ADAPTER_MAPPERS, mappingSources } from '../conformance/families/mappings.js';
import { describeThrown, fail, pass } from '../conformance/check.js';
import type { Check, Family } from '../conformance/types.js';
import { liveTarget } from './live-target.js';
import { liveMappings } from './mappings-live.js';
import { readScenarioFile, scenarioFiles } from './scenario-format.js';
import { runScenario } from './scenario-run.js';
import { terminalsCheck } from '../judge/scenario-judge.js';
import { withStack, type StackOptions } from './stack.js';
import type { ExternalTarget } from './external.js';
import { adapter as hermes } from '../../impl/adapter-hermes/adapter.js';
import { withBridgeScenarios } from './bridge-control-live.js';
import { liveAguiMappings } from './bridge-mappings-live.js';

/** Run every scenario of every scenario file with an adapter end to end; one check per scenario. */
export function liveControlLoopFamily(adapters: Readonly<Record<string, AdapterDef>>, stackOptions: StackOptions = {}): Family {
  return {
    name: 'live/control-loop',
    description: 'every control-loop scenario end to end: hooks to the daemon, commands through a tokened relay',
    detect: (dir) => scenarioFiles(dir).length > 0,
    run: ({ corpusDir, implementation, logger, selects = () => true }) =>
      withStack(async (stack) => {
        const checks: Check[] = [];
        const files = scenarioFiles(corpusDir).map((rel) => readScenarioFile(corpusDir, rel)).filter((f) => adapters[f.adapter]);
        const chosen = (adapter: string, s: { name: string }) => selects(`live/control-loop/${adapter}/${s.name}`);
        const total = files.reduce((n, f) => n + f.scenarios.filter((s) => chosen(f.adapter, s)).length, 0);
        for (const file of files) {
          const def = adapters[file.adapter]!;
          for (const scenario of file.scenarios.filter((s) => chosen(file.adapter, s))) {
            const name = `live/control-loop/${file.adapter}/${scenario.name}`;
            try {
              const daemon = await stack.adapter(def, { attentionTimeoutMs: scenario.attentionTimeoutMs, instruct: scenario.instruct }, scenario.env);
              const target = liveTarget({ daemonUrl: daemon.url, client: stack.client, session: scenario.session, agent: def.agent });
              const problem = await runScenario(scenario, target, {
                newId: () => ulid(),
                now: () => new Date().toISOString(),
                ...validity(implementation),
                judgeStream: terminalsCheck(file.adapter),
                stepMs: 5000,
                quietMs: 100,
              }).finally(() => daemon.close());
              checks.push(problem === null ? pass(name) : fail(name, problem));
            } catch (err) {
              checks.push(fail(name, describeThrown(err)));
            }
            if (checks.length % 10 === 0 || checks.length === total) logger.info(`${checks.length}/${total} scenarios done`);
          }
        }
        return checks;
      }, undefined, { ...stackOptions, progress: (line) => logger.info(line) }),
  };
}

/** Replay every mapping entry of every source with an adapter through its daemon. */
export function liveMappingsFamily(adapters: Readonly<Record<string, AdapterDef>>, stackOptions: StackOptions = {}): Family {
  return {
    name: 'live/mappings',
    description: 'every mapping entry through the adapter daemon: the event at the relay equals the pin, valid, identity-mapped',
    detect: (dir) => mappingSources(dir).some((s) => adapters[s] && ADAPTER_MAPPERS[s]),
    run: ({ corpusDir, implementation, logger, selects }) =>
      withStack((stack) => liveMappings(stack, corpusDir, adapters, validity(implementation).validate, selects), undefined, { ...stackOptions, progress: (line) => logger.info(line) }),
  };
}

/** Replay the inbound bridges' mapping entries through the real bridge (the AG-UI tee proxy today: bridge-mappings-live.ts). */
export function liveBridgeMappingsFamily(stackOptions: StackOptions = {}): Family {
  return {
    name: 'live/bridge-mappings',
    description: 'every AG-UI mapping entry through the tee proxy toward a stub agent: the event at the relay equals the pin, valid, identity-mapped',
    detect: (dir) => mappingSources(dir).includes('agui'),
    run: ({ corpusDir, implementation, logger, selects }) =>
      withStack((stack) => liveAguiMappings(stack, corpusDir, validity(implementation).validate, selects, (line) => logger.info(line)), undefined, { ...stackOptions, progress: (line) => logger.info(line) }),
  };
}

/** The live counterpart of each offline family that has one, by offline family name. */
export const LIVE_FAMILIES: Readonly<Record<string, Family>> = {
  // Mapping pins are the default posture's: Hermes replays through its observe-only adapter.
  mappings: liveMappingsFamily({ ...SCENARIO_ADAPTERS, hermes }),
  // The SSE bridges' opt-in gate scenarios (opencode-sse / kilocode-sse) run after the adapters'.
  'control-loop': withBridgeScenarios(liveControlLoopFamily(SCENARIO_ADAPTERS)),
  'bridge-mappings': liveBridgeMappingsFamily(),
};

/**
 * The live families for `--target`: only the targeted agents, each through its external daemon
 * (an agent this implementation has no adapter for gets a name-only definition: only the wire is judged).
 */
export function targetedLiveFamilies(targets: readonly ExternalTarget[], stack: Omit<StackOptions, 'external' | 'progress'> = {}): Readonly<Record<string, Family>> {
  const external = Object.fromEntries(targets.map((t) => [t.agent, t]));
  const pick = (all: Readonly<Record<string, AdapterDef>>) =>
    Object.fromEntries(targets.map((t) => [t.agent, all[t.agent] ?? ({ agent: t.agent } as AdapterDef)]));
  return {
    mappings: liveMappingsFamily(pick({ ...SCENARIO_ADAPTERS, hermes }), { ...stack, external }),
    'control-loop': liveControlLoopFamily(pick(SCENARIO_ADAPTERS), { ...stack, external }),
  };
}
