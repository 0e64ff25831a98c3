/**
 * The runners' per-adapter tables are code (each adapter's mapper or scenario instance has its
 * own signature), so they cannot be generated from the registry; they are held equal to it here:
 * an integration added to impl/ without its runner entries fails this test.
 */
import { describe, expect, it } from 'vitest';
import { ADAPTER_INTEGRATIONS, BRIDGE_INTEGRATIONS } from '../../impl/integrations/registry.js';
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

  it('the reference API names a module of every adapter and every inbound bridge', () => {
    const folders = new Set(Object.keys(modules).map((k) => k.split('/')[0]!));
    // The module names are the standard's reference stack's (`adapter-codex`, `bridge-acp`): the
    // folder's name, or, for an integration we renamed, the earlier name its descriptor keeps as an
    // alias (Kimi's web bridge is `kimi-web` here, `bridge-kimi-code-web` in the standard).
    const named = (i: (typeof ADAPTER_INTEGRATIONS)[number]): boolean =>
      folders.has(i.dir.replace(/^(adapter|bridge)s\//, '$1-')) || i.aliases.some((a) => folders.has(a));
    for (const i of ADAPTER_INTEGRATIONS) expect(named(i), i.dir).toBe(true);
    for (const i of BRIDGE_INTEGRATIONS.filter((b) => b.role === 'inbound-bridge')) expect(named(i), i.dir).toBe(true);
  });
});
