/** `aep conformance --live`: the live counterparts of the selected families run after them, in the report. */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runConformance } from '../../impl/cli/conformance.js';
import { main } from '../../impl/cli/main.js';
import { fakeIo } from '../../impl/test-utils/cli-io.js';
import type { Family } from '../conformance/types.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const fake = (name: string, status: 'pass' | 'fail' = 'pass'): Family => ({
  name,
  description: `${name} (fake)`,
  detect: () => true,
  run: () => [{ name: `${name}/one`, status }],
});

async function conformance(values: Record<string, unknown>, live: Record<string, Family>) {
  const io = fakeIo();
  const corpusDir = mkdtempSync(join(tmpdir(), 'aep-cli-live-'));
  dirs.push(corpusDir);
  const code = await runConformance({ values: { corpus: corpusDir, json: '-', ...values }, positionals: [] }, io, {
    families: [fake('golden'), fake('mappings'), fake('control-loop')],
    liveFamilies: live,
  });
  return { code, io, report: JSON.parse(io.out) as { checks: Array<{ name: string; status: string }> } };
}

describe('aep conformance --live', () => {
  const live = { mappings: fake('live/mappings'), 'control-loop': fake('live/control-loop', 'fail') };

  it('adds the live counterpart of each selected family after the fixture families', async () => {
    const { code, io, report } = await conformance({ live: true }, live);
    expect(report.checks.map((c) => c.name)).toEqual(['golden/one', 'mappings/one', 'control-loop/one', 'live/mappings/one', 'live/control-loop/one']);
    expect(code).toBe(1);
    expect(io.err).toContain('live/mappings: 1/1 pass\n');
    expect(io.err).toContain('live/control-loop: 0/1 pass, 1 fail\n');
  });

  it('runs only the counterparts of the families asked for, and says so when there is none', async () => {
    expect((await conformance({ live: true, family: ['mappings'] }, live)).report.checks.map((c) => c.name)).toEqual(['mappings/one', 'live/mappings/one']);
    const none = await conformance({ live: true, family: ['golden'] }, live);
    expect(none.report.checks.map((c) => c.name)).toEqual(['golden/one']);
    expect(none.io.err).toContain('--live: none of the selected families has a live counterpart (mappings, control-loop do)\n');
  });

  it('without --live nothing live runs', async () => {
    expect((await conformance({}, live)).report.checks.map((c) => c.name)).toEqual(['golden/one', 'mappings/one', 'control-loop/one']);
  });

  it('documents the flag in --help', async () => {
    const io = fakeIo();
    expect(await main(['conformance', '--help'], io)).toBe(0);
    expect(io.out).toMatch(/--live {11}also run the live counterpart of each selected family/);
  });
});
