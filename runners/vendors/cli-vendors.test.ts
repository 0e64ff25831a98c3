/** `aep conformance --vendors`: the real-vendors family runs after the selected families, in the report. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from '../../impl/cli/conformance.js';
import { main } from '../../impl/cli/main.js';
import { fakeIo } from '../../impl/test-utils/cli-io.js';
import type { Check, Family } from '../conformance/types.js';
import { vendorsFamily } from './lane.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const fake = (name: string, checks: Check[]): Family => ({ name, description: `${name} (fake)`, detect: () => true, run: () => checks });

async function conformance(values: Record<string, unknown>, vendorChecks: Check[]) {
  const io = fakeIo();
  const corpusDir = mkdtempSync(join(tmpdir(), 'aep-cli-vendors-'));
  dirs.push(corpusDir);
  const code = await runConformance({ values: { corpus: corpusDir, json: '-', ...values }, positionals: [] }, io, {
    families: [fake('golden', [{ name: 'golden/one', status: 'pass' }])],
    vendorsFamily: fake('vendors', vendorChecks),
  });
  return { code, report: JSON.parse(io.out) as { checks: Check[] } };
}

describe('aep conformance --vendors', () => {
  it('adds the vendors/<vendor>/<scenario> checks after the fixture families; a failed one fails the run', async () => {
    const failing = await conformance({ vendors: true }, [
      { name: 'vendors/codex/remote-allow', status: 'pass' },
      { name: 'vendors/codex/remote-deny', status: 'fail', detail: 'the tool ran' },
    ]);
    expect(failing.report.checks.map((c) => `${c.name} ${c.status}`)).toEqual(['golden/one pass', 'vendors/codex/remote-allow pass', 'vendors/codex/remote-deny fail']);
    expect(failing.code).toBe(1);
  });

  it('a known failure (skip) keeps the run green; without the flag no vendor runs', async () => {
    expect((await conformance({ vendors: true }, [{ name: 'vendors/codex/tool-fails', status: 'skip', detail: 'known failure', excusedBy: 'runners/vendors/known-failures.ts' }])).code).toBe(0);
    expect((await conformance({ vendors: true }, [{ name: 'vendors/codex/tool-fails', status: 'skip', detail: 'no reason kept anywhere' }])).code).toBe(1);
    expect((await conformance({}, [{ name: 'vendors/x/y', status: 'fail' }])).report.checks.map((c) => c.name)).toEqual(['golden/one']);
  });

  it('documents the flag in --help, and the real family is named vendors', async () => {
    const io = fakeIo();
    expect(await main(['conformance', '--help'], io)).toBe(0);
    expect(io.out).toMatch(/--vendors {8}also run the real vendor CLIs pinned in runners\/vendors\/versions.json/);
    expect(vendorsFamily().name).toBe('vendors');
  });
});
