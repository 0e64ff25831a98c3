/**
 * The known findings stay exact: every excuse is still needed (a fixed integration drops its
 * line), and the control-loop scenarios judged without excuses do fail on exactly those lines.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ulid } from '../../impl/core/ulid.js';
import { readScenarioFile, scenarioFiles } from '../live/scenario-format.js';
import { runScenario } from '../live/scenario-run.js';
import { OFFLINE_EPOCH_MS, offlineTarget } from '../live/offline-target.js';
import { LIVE_ONLY, SCENARIO_ADAPTERS } from '../conformance/families/control-loop.js';
import { KNOWN_TERMINAL_FINDINGS } from './known-findings.js';
import { judgeTerminals } from './terminals.js';
import { terminalsCheck } from './scenario-judge.js';

const corpus = join(fileURLToPath(new URL('.', import.meta.url)), '../../conformance/fixtures');

async function findingsByIntegration(): Promise<Map<string, Set<string>>> {
  const found = new Map<string, Set<string>>();
  for (const rel of scenarioFiles(corpus)) {
    const file = readScenarioFile(corpus, rel);
    const def = SCENARIO_ADAPTERS[file.adapter];
    if (LIVE_ONLY.has(file.adapter) || !def) continue;
    for (const scenario of file.scenarios) {
      let clock = OFFLINE_EPOCH_MS;
      const target = offlineTarget(def, scenario);
      await runScenario(scenario, target, { newId: () => ulid(clock++), now: () => new Date(OFFLINE_EPOCH_MS).toISOString() });
      for (const f of judgeTerminals(target.observed().map((o) => o.event))) {
        if (!found.has(file.adapter)) found.set(file.adapter, new Set());
        found.get(file.adapter)!.add(f.rule);
      }
    }
  }
  return found;
}

describe('known terminal findings', () => {
  it('list exactly what the control-loop scenarios show for integrations owned elsewhere', async () => {
    const found = await findingsByIntegration();
    const listed = Object.fromEntries(Object.entries(KNOWN_TERMINAL_FINDINGS).map(([k, v]) => [k, Object.keys(v).sort()]));
    const seen = Object.fromEntries([...found].map(([k, v]) => [k, [...v].sort()]));
    expect(seen).toEqual(listed);
  }, 60_000);

  it('excuse only their own integration', () => {
    const stream = [{ id: 'a', type: 'tool.requested', source: 's', session: 's', data: { tool: { name: 'x' } } }];
    expect(terminalsCheck('antigravity')(stream)).toBeNull();
    expect(terminalsCheck('codex')(stream)).toMatch(/^terminals judge: terminals\/tool-call-id \(AEP-0002 §2 rule 1\) at events\[0\] tool.requested: /);
  });
});
