/**
 * The corpus lint: a pin member the type's schema does not declare (at any depth the schema
 * describes) and a mapping entry for a hook the integration's descriptor does not list, each a
 * finding with rule, file and path; what it cannot judge it says so.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INTEGRATIONS } from '../../impl/integrations/registry.js';
import { descriptorHooks, entryHook, hookFindings, lintCorpus, pinFindings, undeclaredMembers } from './lint-corpus.js';
import { packageRoot } from './corpus.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

const descriptors = INTEGRATIONS.map((i) => i.descriptor);
const codex = descriptors.find((d) => d.name === 'codex')!;

describe('pin members the schema does not declare', () => {
  it('flags a renamed member and a misspelt nested one, never a declared one', () => {
    const file = { hooks: { SessionStart: { input: { origin: 'not a pin' }, expected: { type: 'session.started', data: { client: { name: 'codex', nme: 'x' }, origin: 'startup', cwd: '/w' } } } } };
    const found = pinFindings('mappings/codex.json', file);
    expect(found.map((f) => [f.rule, f.path])).toEqual([
      ['lint.pin.undeclared-member', '$.hooks.SessionStart.expected.data.client.nme'],
      ['lint.pin.undeclared-member', '$.hooks.SessionStart.expected.data.origin'],
    ]);
    expect(found[1]!.message).toMatch(/^the session\.started schema does not declare "origin" \(declared here: label, parent, client, .*cwd\)/);
  });

  it('reads array pins, deltas and mode pins; an unregistered type or a schema that says nothing is not judged', () => {
    const file = {
      events: { a: { input: {}, expected: [{ type: 'run.started', data: { triger: 'user' } }], deltas_expected: { type: 'run.started', data: { trigger: 'user' } } } },
      sse_modes: { modes: { m: { companion: null, primary: { type: 'x.vendor.thing', data: { anything: 1 } } } } },
    };
    expect(pinFindings('mappings/x.json', file).map((f) => f.path)).toEqual(['$.events.a.expected[0].data.triger']);
    expect(undeclaredMembers({ a: 1 }, [{ type: 'object' }], '$')).toEqual([]);
    expect(undeclaredMembers({ a: 1, b: 2 }, [{ anyOf: [{ properties: { a: {} } }, { properties: { b: {} } }] }], '$')).toEqual([]);
    expect(undeclaredMembers([{ a: 1, c: 2 }], [{ items: { properties: { a: {} } } }], '$').map((u) => u.path)).toEqual(['$[0].c']);
  });
});

describe('mapping entries for hooks the descriptor does not list', () => {
  const read = (rel: string) => ({ kind: 'file' as const, text: JSON.stringify(rel.endsWith('.json') ? { hooks: { SessionStart: [], Stop: [] } } : {}) });

  it('holds a hooks section to the hooks the descriptor\'s configurations wire', () => {
    const hooks = descriptorHooks(codex, read)!;
    expect(hooks).toEqual(expect.arrayContaining(['SessionStart', 'Stop', ...codex.steering]));
    const file = { hooks: { SessionStart: { input: { hook_event_name: 'SessionStart' } }, 'Stop (late)': { input: {} }, Bogus: { input: { hook_event_name: 'Bogus' } } } };
    const found = hookFindings('mappings/codex.json', file, 'codex', hooks);
    expect(found.map((f) => [f.rule, f.path])).toEqual([['lint.mapping.unlisted-hook', '$.hooks.Bogus']]);
    expect(found[0]!.message).toMatch(/^hook "Bogus" is not listed by the codex descriptor/);
    expect(entryHook('PreToolUse (Bash)', { hook: 'X' })).toBe('X');
    expect(entryHook('PreToolUse (Bash)', {})).toBe('PreToolUse');
  });

  it('says when a descriptor lists nothing readable', () => {
    expect(descriptorHooks({ ...codex, steering: [], configs: ['impl/x/config.example.toml'] }, () => ({ kind: 'file', text: '' }))).toBeUndefined();
  });
});

describe('lintCorpus over a corpus folder', () => {
  it('finds both kinds in one mapping file, from the real descriptors and example configurations', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aep-lint-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, 'mappings'));
    writeFileSync(join(dir, 'mappings', 'codex.json'), JSON.stringify({
      hooks: {
        Stop: { input: { hook_event_name: 'Stop' }, expected: { type: 'run.finished', data: {} } },
        Teleport: { input: { hook_event_name: 'Teleport' }, expected: { type: 'session.started', data: { orign: 'x' } } },
      },
    }));
    writeFileSync(join(dir, 'mappings', 'heron.json'), JSON.stringify({ hooks: { A: { input: {}, expected: null } } }));
    const r = lintCorpus(dir, descriptors, packageRoot());
    expect(r.findings.map((f) => `${f.file} ${f.path} ${f.rule}`)).toEqual([
      'mappings/codex.json $.hooks.Teleport.expected.data.orign lint.pin.undeclared-member',
      'mappings/codex.json $.hooks.Teleport lint.mapping.unlisted-hook',
    ]);
    expect(r.notes).toEqual(['mappings/heron.json: hooks not held to a descriptor: no adapter is named heron']);
  });
});
