/**
 * The live families `aep conformance --live` adds: `live/mappings`, `live/control-loop` and
 * `live/bridge-mappings` (the AG-UI tee proxy's mapping entries).
 * Each one starts its own stack (a tokened relay and the adapter daemons, all on ephemeral
 * loopback ports, with a temporary AEP home), runs, and tears the stack down, even on failure.
 * Checks are named `live/<family>/<case>`.
 */
import { ulid } from '../../impl/core/ulid.js';
import type { AdapterDef } from '../../impl/adapter-kit/types.js';
import { resolve } from 'node:path';
import { SCENARIO_ADAPTERS, SCENARIO_RULE, repliesOf, validity } from '../conformance/families/control-loop.js';
import { defaultCorpusDir } from '../conformance/corpus.js';
import type { Profile } from '../conformance/report.js';
import type { TargetDeviations } from '../conformance/target-deviations.js';
import { checkFrom } from './scenario-check.js';
import { declaredBy, undeclaredNeeds } from './target-profile.js';
import { ADAPTER_MAPPERS, mappingSources } from '../conformance/families/mappings.js';
import { describeThrown, fail } from '../conformance/check.js';
import type { Check, Family, Logger } from '../conformance/types.js';
import { liveTarget } from './live-target.js';
import { liveMappings } from './mappings-live.js';
import { readScenarioFile, scenarioFiles } from './scenario-format.js';
import { judgeScenario } from './scenario-run.js';
import { terminalsCheck } from '../judge/scenario-judge.js';
import { withStack, type StackOptions } from './stack.js';
import type { ExternalTarget } from './external.js';
import { adapter as hermes } from '../../impl/adapters/hermes/adapter.js';
import { withBridgeScenarios } from './bridge-control-live.js';
import { liveAguiMappings } from './bridge-mappings-live.js';

/** How the live families judge a `--target` (absent: our own adapters, every aspect). */
export interface TargetJudging {
  /** `standard` (default for a target): `must` and `pin`; `reference-parity`: this project's choices too. */
  profile: Profile;
  deviations?: TargetDeviations;
  deviationsFile?: string;
  /** Each hello a target said, as the relay received it. */
  onHello?: (agent: string, hello: Record<string, unknown>) => void;
}

/** The scenario files of `corpusDir` for `adapters`; for a target the corpus lacks, this package's own, said in one line. */
function scenarioSources(corpusDir: string, adapters: Readonly<Record<string, AdapterDef>>, target: boolean, logger: Logger): { dir: string; rel: string }[] {
  const files = scenarioFiles(corpusDir).map((rel) => ({ dir: corpusDir, rel, adapter: readScenarioFile(corpusDir, rel).adapter }));
  if (!target) return files.filter((f) => adapters[f.adapter]);
  const own = defaultCorpusDir();
  const out = files.filter((f) => adapters[f.adapter]);
  for (const agent of Object.keys(adapters)) {
    if (out.some((f) => f.adapter === agent)) continue;
    const mine = resolve(own) === resolve(corpusDir) ? [] : scenarioFiles(own).filter((rel) => readScenarioFile(own, rel).adapter === agent);
    if (mine.length > 0) {
      logger.info(`control-loop: ${corpusDir} holds no scenarios for ${agent}; running this package's (${mine.join(', ')}), judged on the standard's MUSTs and pins`);
      out.push(...mine.map((rel) => ({ dir: own, rel, adapter: agent })));
    } else logger.info(`control-loop: no scenario file names ${agent}, in ${corpusDir} or this package's corpus: its control loop is not exercised`);
  }
  return out;
}

/** Run every scenario of every scenario file with an adapter end to end; one check per scenario. */
export function liveControlLoopFamily(adapters: Readonly<Record<string, AdapterDef>>, stackOptions: StackOptions = {}, judging?: TargetJudging): Family {
  const target = judging !== undefined;
  return {
    name: 'live/control-loop',
    description: 'every control-loop scenario end to end: hooks to the daemon, commands through a tokened relay',
    detect: (dir) => scenarioFiles(dir).length > 0 || target,
    run: ({ corpusDir, implementation, logger, selects = () => true }) =>
      withStack(async (stack) => {
        const checks: Check[] = [];
        const files = scenarioSources(corpusDir, adapters, target, logger).map((f) => readScenarioFile(f.dir, f.rel));
        const chosen = (adapter: string, s: { name: string }) => selects(`live/control-loop/${adapter}/${s.name}`);
        const total = files.reduce((n, f) => n + f.scenarios.filter((s) => chosen(f.adapter, s)).length, 0);
        for (const file of files) {
          const def = adapters[file.adapter]!;
          for (const scenario of file.scenarios.filter((s) => chosen(file.adapter, s))) {
            const name = `live/control-loop/${file.adapter}/${scenario.name}`;
            try {
              const daemon = await stack.adapter(def, { attentionTimeoutMs: scenario.attentionTimeoutMs, instruct: scenario.instruct }, scenario.env);
              const hello = stack.external(def.agent) ? stack.hello(def.agent) : undefined;
              const needs = hello ? undeclaredNeeds(scenario, def.agent, declaredBy(hello, def.agent)) : [];
              if (needs.length > 0) {
                await daemon.close();
                checks.push({ name, status: 'skip', basis: 'must', rule: SCENARIO_RULE, integration: file.adapter, excusedBy: "the target's hello", detail: `not declared: the target's hello does not declare ${needs.join(', ')}` });
              } else {
                const liveOpts = { daemonUrl: daemon.url, client: stack.client, session: scenario.session, agent: def.agent, evidence: () => stack.evidence() };
                const problems = await judgeScenario(scenario, liveTarget(liveOpts), {
                  newId: () => ulid(),
                  now: () => new Date().toISOString(),
                  ...validity(implementation),
                  // Our adapters' known findings excuse nothing of a target's: it is judged strictly.
                  judgeStream: terminalsCheck(stack.external(def.agent) ? `target:${file.adapter}` : file.adapter),
                  stepMs: 5000,
                  quietMs: 100,
                  profile: judging?.profile === 'standard' ? 'standard' : 'reference',
                  replies: repliesOf(file.adapter),
                  agent: file.adapter,
                }).finally(() => daemon.close());
                checks.push(checkFrom(name, problems, {
                  passBasis: judging?.profile === 'standard' ? 'must' : 'reference',
                  passRule: SCENARIO_RULE,
                  integration: file.adapter,
                  ...(judging?.deviations ? { deviations: judging.deviations } : {}),
                  ...(judging?.deviationsFile ? { deviationsFile: judging.deviationsFile } : {}),
                }));
              }
            } catch (err) {
              checks.push({ ...fail(name, describeThrown(err)), basis: 'must', rule: SCENARIO_RULE, integration: file.adapter });
            }
            if (checks.length % 10 === 0 || checks.length === total) logger.info(`${checks.length}/${total} scenarios done`);
          }
        }
        return checks;
      }, undefined, { ...stackOptions, progress: (line) => logger.info(line) }),
  };
}

/** Replay every mapping entry of every source with an adapter through its daemon. */
export function liveMappingsFamily(adapters: Readonly<Record<string, AdapterDef>>, stackOptions: StackOptions = {}, judging?: TargetJudging): Family {
  return {
    name: 'live/mappings',
    description: 'every mapping entry through the adapter daemon: the event at the relay equals the pin, valid, identity-mapped',
    detect: (dir) => mappingSources(dir).some((s) => adapters[s] && (ADAPTER_MAPPERS[s] || judging !== undefined)),
    run: ({ corpusDir, implementation, logger, selects }) =>
      withStack(
        (stack) =>
          liveMappings(stack, corpusDir, adapters, validity(implementation).validate, selects, {
            ownCorpus: resolve(corpusDir) === resolve(defaultCorpusDir()),
            ...(judging
              ? {
                  target: true,
                  profile: judging.profile === 'standard' ? 'standard' : 'reference',
                  declared: (agent: string) => {
                    const hello = stack.external(agent) ? stack.hello(agent) : undefined;
                    return hello ? declaredBy(hello, agent) : undefined;
                  },
                  ...(judging.deviations ? { deviations: judging.deviations } : {}),
                  ...(judging.deviationsFile ? { deviationsFile: judging.deviationsFile } : {}),
                }
              : {}),
          }),
        undefined,
        { ...stackOptions, progress: (line) => logger.info(line) },
      ),
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
export function targetedLiveFamilies(
  targets: readonly ExternalTarget[],
  stack: Omit<StackOptions, 'external' | 'progress'> = {},
  judging: TargetJudging = { profile: 'standard' },
): Readonly<Record<string, Family>> {
  const external = Object.fromEntries(targets.map((t) => [t.agent, t]));
  if (judging.onHello) stack = { ...stack, onHello: judging.onHello };
  const pick = (all: Readonly<Record<string, AdapterDef>>) =>
    Object.fromEntries(targets.map((t) => [t.agent, all[t.agent] ?? ({ agent: t.agent } as AdapterDef)]));
  return {
    mappings: liveMappingsFamily(pick({ ...SCENARIO_ADAPTERS, hermes }), { ...stack, external }, judging),
    'control-loop': liveControlLoopFamily(pick(SCENARIO_ADAPTERS), { ...stack, external }, judging),
  };
}
