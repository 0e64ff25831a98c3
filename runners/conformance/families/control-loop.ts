/**
 * control-loop (AEP-0004 §3/§5/§7, AEP-0006, AEP-0008, the steering design record): every
 * scenario of `control-loop/<adapter>.json` runs against that adapter's engine on a fake clock,
 * with no sockets: hook calls with the vendor's input, commands, the attention timeout, with the
 * exact hook reply bytes and the exact event sequence (types, key data, cause links) checked,
 * and the whole stream judged for paired terminals (runners/judge/terminals.ts).
 * `aep conformance --live` runs the same scenarios end to end through a relay and the daemons.
 * Scenario files of adapters this implementation does not have produce no checks; they are
 * named in one progress line.
 */
import { CORE } from '../check-meta.js';
import type { AdapterDef } from '../../../impl/adapter-kit/types.js';
import { renderIssue, type Issue } from '../../../impl/core/issue.js';
import { ulid } from '../../../impl/core/ulid.js';
import { withFixture, describeThrown, fail, known, skip } from '../check.js';
import { plannedFamily } from '../planned.js';
import { readScenarioFile, scenarioFiles } from '../../live/scenario-format.js';
import { judgeScenario } from '../../live/scenario-run.js';
import { checkFrom } from '../../live/scenario-check.js';
import { ADAPTER_INTEGRATIONS, BRIDGE_INTEGRATIONS, adapterNamed } from '../../../impl/integrations/registry.js';
import { terminalsCheck } from '../../judge/scenario-judge.js';
import { OFFLINE_EPOCH_MS, offlineTarget } from '../../live/offline-target.js';
import type { Family, Implementation, PlannedCase } from '../types.js';

/**
 * This implementation's adapters, by agent name: each adapter folder's `scenarioAdapter` (the
 * plugin-family adapters deliver bus-surface answers to an accepting recorder instead of a vendor
 * server, pi runs with its opt-in gate on, Hermes with its opt-in operator-deny gate), else its
 * `adapter`, loaded through the registry (`scenarioAdapter()`); the default postures' replies are
 * the mapping corpus's.
 */
export const SCENARIO_ADAPTERS: Readonly<Record<string, AdapterDef>> = Object.fromEntries(
  await Promise.all(ADAPTER_INTEGRATIONS.map(async (i) => [i.name, (await i.scenarioAdapter()) as AdapterDef] as const)),
);

/** The implementation's validators as scenario checks: null when valid, else the first issue rendered. */
export function validity(impl: Pick<Implementation, 'validateEvent' | 'validateStream'>): {
  validate: (event: unknown) => string | null;
  validateStream: (events: unknown[]) => string | null;
} {
  const first = (issues: Issue[]): string | null => (issues.length === 0 ? null : renderIssue(issues[0]!));
  return { validate: (event) => first(impl.validateEvent(event)), validateStream: (events) => first(impl.validateStream(events)) };
}

/** The rule a whole scenario holds an adapter to (each problem names its own). */
export const SCENARIO_RULE = { id: 'control-loop.scenario', section: 'AEP-0004 §7' } as const;

/** How the vendor reads a hook reply (the registry's `neutral.reads`); `bytes` for an agent the registry does not know. */
export function repliesOf(agent: string): 'json' | 'bytes' {
  return adapterNamed(agent)?.neutral?.reads ?? 'bytes';
}

/**
 * Scenario files of the bridges with a control gate (a posture of theirs accepts a command): no
 * hook engine to drive offline; runners/live/bridge-control-live.ts runs them.
 */
export const LIVE_ONLY: ReadonlySet<string> = new Set(BRIDGE_INTEGRATIONS.filter((i) => i.descriptor.postures.some((p) => (p.accepts?.length ?? 0) > 0)).map((i) => i.name));

export function controlLoopFamily(adapters: Readonly<Record<string, AdapterDef>>): Family {
  return plannedFamily({
    name: 'control-loop',
    description: 'held-loop scenarios (hooks, commands, timeouts, steering): exact replies and event sequences, on a fake clock',
    detect: (dir) => scenarioFiles(dir).length > 0,
    plan({ corpusDir, implementation, logger }) {
      const checks: PlannedCase[] = [];
      const skipped: string[] = [];
      const liveOnly: string[] = [];
      for (const rel of scenarioFiles(corpusDir)) {
        const file = readScenarioFile(corpusDir, rel);
        if (LIVE_ONLY.has(file.adapter)) {
          liveOnly.push(`${rel} (${file.adapter})`);
          continue;
        }
        const def = adapters[file.adapter];
        if (!def) {
          skipped.push(`${rel} (${file.adapter})`);
          checks.push(known({ ...skip(`control-loop/${file.adapter}`, `skipped: ${rel} names adapter ${file.adapter}, which this implementation does not have`), integration: CORE }));
          continue;
        }
        for (const scenario of file.scenarios) {
          const name = `control-loop/${file.adapter}/${scenario.name}`;
          checks.push({
            name,
            judge: async () => {
              try {
                let clock = OFFLINE_EPOCH_MS;
                const problems = await judgeScenario(scenario, offlineTarget(def, scenario), {
                  newId: () => ulid(clock++),
                  now: () => new Date(OFFLINE_EPOCH_MS).toISOString(),
                  ...validity(implementation),
                  judgeStream: terminalsCheck(file.adapter),
                  replies: repliesOf(file.adapter),
                  agent: file.adapter,
                });
                return withFixture(checkFrom(name, problems, { passBasis: 'reference', passRule: SCENARIO_RULE, integration: file.adapter }), scenario);
              } catch (err) {
                return { ...withFixture(fail(name, describeThrown(err)), scenario), integration: file.adapter };
              }
            },
          });
        }
      }
      if (liveOnly.length) logger.info(`control-loop: live only (aep conformance --live): ${liveOnly.join(', ')}`);
      if (skipped.length) logger.info(`control-loop: not run: ${skipped.join(', ')} (this implementation has no such adapter)`);
      return checks;
    },
  });
}

export const family: Family = controlLoopFamily(SCENARIO_ADAPTERS);
