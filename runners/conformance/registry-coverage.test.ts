/**
 * The runners' per-adapter tables come from the registry: the control-loop's adapters are each
 * folder's `scenarioAdapter` (else `adapter`), the mappings family's each folder's `mappers`. The
 * reference API (a public subpath under the standard's module names) is a hand table: every
 * module it names for an integration must belong to one the registry knows.
 */
import { describe, expect, it } from 'vitest';
import { ADAPTER_INTEGRATIONS, INTEGRATIONS } from '../../impl/integrations/registry.js';
import { modules } from '../../impl/reference-api.js';
import { SCENARIO_ADAPTERS } from './families/control-loop.js';
import { ADAPTER_MAPPERS } from './families/mappings.js';

const adapters = ADAPTER_INTEGRATIONS.map((i) => i.name).sort();

describe('the runners cover every integration of the registry', () => {
  it('control-loop and mappings have one entry per adapter, and the same agent', () => {
    expect(Object.keys(SCENARIO_ADAPTERS).sort()).toEqual(adapters);
    for (const [name, def] of Object.entries(SCENARIO_ADAPTERS)) expect(def.agent).toBe(name);
    expect(Object.keys(ADAPTER_MAPPERS).sort()).toEqual(adapters);
  });

  it("the reference API serves exactly the modules the descriptors claim (`reference`), each claimed once", () => {
    const served = Object.keys(modules).filter((k) => !k.startsWith('shared/')).sort();
    const claimed = INTEGRATIONS.flatMap((i) => i.descriptor.reference ?? []);
    expect(new Set(claimed).size, 'a module claimed twice').toBe(claimed.length);
    expect([...claimed].sort()).toEqual(served);
    // The module names are the standard's (`adapter-codex`, `bridge-kimi-code-web`): the folder's name, or an earlier one the descriptor keeps as an alias.
    for (const i of INTEGRATIONS) {
      for (const m of i.descriptor.reference ?? []) {
        const folder = m.split('/')[0]!;
        expect([i.dir.replace(/^(adapter|bridge)s\//, '$1-'), ...i.aliases.map((a) => `${i.kind}-${a}`)], `${i.name}: ${m}`).toContain(folder);
      }
    }
  });
});
