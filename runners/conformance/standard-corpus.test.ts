/**
 * The standard's own corpus (read from ../shared when present, skipped otherwise): the
 * reference core passes it, and the same corpus catches the core with one function broken.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { STANDARD_CORPUS, describeWhenPresent } from '../../impl/test-utils/suites.js';
import { FAMILIES } from './families/index.js';
import { referenceImplementation as core } from './implementation.js';
import { runFamilies } from './runner.js';
import type { Implementation } from './types.js';

/** The families of the core functions (the adapter `mappings` family tests its own mappers). */
const FIXTURE_FAMILIES = ['golden', 'invalid', 'attr-match', 'ce-roundtrip', 'otlp', 'ocsf', 'redaction', 'capture-gating', 'downlevel'];
const corpusDir = STANDARD_CORPUS;

async function failures(impl: Implementation): Promise<Map<string, number>> {
  const { checks } = await runFamilies({ corpusDir, families: FAMILIES.filter((f) => FIXTURE_FAMILIES.includes(f.name)), implementation: impl, logger: { info: () => {} } });
  const out = new Map<string, number>();
  for (const c of checks) if (c.status === 'fail') out.set(c.name.split('/')[0]!, (out.get(c.name.split('/')[0]!) ?? 0) + 1);
  return out;
}

it('conformance/standard-expected-failures.json excuses nothing: the standard corpus must pass whole', () => {
  const file = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'conformance', 'standard-expected-failures.json'), 'utf8')) as Record<string, unknown>;
  expect(Object.keys(file).filter((k) => !k.startsWith('$'))).toEqual([]);
});

describeWhenPresent(join(corpusDir, 'golden', 'golden.jsonl'), 'the standard corpus', () => {
  it('every family it holds, adapters and bridges included, passes with nothing skipped', async () => {
    const present = FAMILIES.filter((f) => f.detect(corpusDir));
    expect(present.map((f) => f.name)).toEqual(expect.arrayContaining([...FIXTURE_FAMILIES, 'mappings', 'bridge-mappings']));
    const { checks } = await runFamilies({ corpusDir, families: present, implementation: core, logger: { info: () => {} } });
    expect(checks.filter((c) => c.status !== 'pass').map((c) => `${c.name}: ${c.detail ?? c.status}`)).toEqual([]);
    // pi, AG-UI and Antigravity are in it, each through its own mapper.
    for (const source of ['mappings/pi/', 'bridge-mappings/agui/', 'mappings/antigravity/']) expect(checks.some((c) => c.name.startsWith(source))).toBe(true);
  });

  it('the reference core passes every family', async () => {
    expect(FAMILIES.map((f) => f.name)).toEqual(expect.arrayContaining(FIXTURE_FAMILIES));
    expect(await failures(core)).toEqual(new Map());
  });

  it('catches a core with one function broken, in that function\'s family only', async () => {
    const broken: [Partial<Implementation>, string[]][] = [
      [{ attrMatch: () => true }, ['attr-match']],
      [{ validateEvent: () => [], validateStream: () => [] }, ['invalid']],
      [{ redactText: (t) => t }, ['redaction']],
      [{ downlevel: (e) => e }, ['downlevel']],
      [{ toOtlp: (e) => ({ ...(core.toOtlp(e) as object), severity_number: 0 }) }, ['otlp']],
      [{ toCloudEvent: (e) => { const { aepagentid: _a, ...rest } = core.toCloudEvent(e) as Record<string, unknown>; return rest; } }, ['ce-roundtrip']],
      [{ toOcsf: (e) => { const r = core.toOcsf(e); return r && { ...(r as object), class_uid: 9999 }; } }, ['ocsf']],
    ];
    for (const [patch, families] of broken) {
      expect([...(await failures({ ...core, ...patch })).keys()]).toEqual(families);
    }
  });
});
