import { describe, expect, it } from 'vitest';
import { descriptor as codex } from '../adapters/codex/descriptor.js';
import { defineAdapter, specFromDescriptor } from './define.js';

describe('specFromDescriptor', () => {
  it("reads the agent, port, hold window, emits and steerable moments from the descriptor, so the adapter keeps no second copy", () => {
    const spec = specFromDescriptor(codex);
    expect(spec).toMatchObject({ agent: codex.name, defaultPort: codex.port, holdMs: codex.holdMs, emits: [...codex.emits] });
    expect([...spec.steerable].sort()).toEqual([...codex.steering].sort());
    const def = defineAdapter({ ...spec, neutral: '', handle: async () => '' });
    expect(def.holdMs).toBe(codex.holdMs);
    for (const m of codex.steering) expect(def.steerable(m)).toBe(true);
    expect(def.steerable('Stop')).toBe(false);
  });

  it('leaves holdMs unset when the descriptor has none (the kit default applies)', () => {
    const { holdMs: _drop, ...rest } = codex;
    expect('holdMs' in specFromDescriptor(rest)).toBe(false);
  });
});
