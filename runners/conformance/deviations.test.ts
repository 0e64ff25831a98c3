import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Descriptor } from '../../impl/integrations/descriptor.js';
import { deviation, unnamed } from '../../impl/integrations/deviation.js';
import { DEVIATIONS_BEGIN, DEVIATIONS_END, deviationsTable, readmeWithDeviations, rowProblems } from './deviations.js';
import { loadDescriptors } from './descriptors.js';
import { ADAPTER_TABLE_FILE } from './matrices.js';
import { packageRoot } from './corpus.js';

const rows = [
  unnamed('data.step_idx', 'stepIdx verbatim', 'the record names none'),
  deviation('unknown | types', 'x.v.unknown', 'x.v.<type>', 'the pin says so'),
];
const d = { kind: 'adapter', name: 'demo', vendor: 'Demo Agent', deviations: rows } as unknown as Descriptor;

describe('deviations tables', () => {
  it('renders deviations first, then our names, pipes escaped, with the counts', () => {
    expect(deviationsTable(rows)).toBe([
      "<!-- generated from the descriptor's `deviations` by `npm run gen:matrices`; do not edit by hand -->",
      '',
      '1 deliberate deviation(s), 1 name(s) chosen where the record gives none.',
      '',
      '| what | the record says | we emit | why | kind |',
      '|---|---|---|---|---|',
      '| unknown \\| types | x.v.unknown | x.v.<type> | the pin says so | deviation |',
      '| data.step_idx | names none | stepIdx verbatim | the record names none | our name (the record gives none) |',
    ].join('\n'));
    expect(deviationsTable([])).toContain('None: every name');
  });

  it('creates a README when absent, rewrites only between the markers, and refuses a README without them', () => {
    const created = readmeWithDeviations(d, null)!;
    expect(created.startsWith('# Adapter: Demo Agent (`demo`)\n\n## Deviations from the design record\n\n')).toBe(true);
    const prose = `# Demo\n\nOur words.\n\n${DEVIATIONS_BEGIN}\nstale text\n${DEVIATIONS_END}\n\nMore words.\n`;
    const next = readmeWithDeviations(d, prose)!;
    expect(next.startsWith(`# Demo\n\nOur words.\n\n${DEVIATIONS_BEGIN}\n<!-- generated`)).toBe(true);
    expect(next.endsWith(`| our name (the record gives none) |\n${DEVIATIONS_END}\n\nMore words.\n`)).toBe(true);
    expect(next).not.toContain('stale text');
    expect(readmeWithDeviations(d, next)).toBe(next);
    expect(readmeWithDeviations(d, '# Demo\n\nno markers\n')).toBeNull();
  });

  it('flags unusable rows', () => {
    expect(rowProblems({ name: 'demo', deviations: [{ what: '', record: 'r', ours: 'o', why: ' ', kind: 'other' as 'unnamed' }] })).toEqual([
      'demo: deviations[0].what is empty; say it in a few words',
      'demo: deviations[0].why is empty; say it in a few words',
      "demo: deviations[0].kind is 'other'; use 'deviation' or 'unnamed'",
    ]);
  });

  it('every integration states at least one row, and every row is usable', async () => {
    const { descriptors } = await loadDescriptors();
    expect(descriptors.filter((x) => x.deviations.length === 0).map((x) => x.name)).toEqual([]);
    expect(descriptors.flatMap(rowProblems)).toEqual([]);
  });
});

describe('the generated block is held against the READMEs on disk', () => {
  it('a stale or missing block is reported by staleFiles', async () => {
    const { staleFiles } = await import('./gen-matrices.js');
    const root = mkdtempSync(join(tmpdir(), 'aep-dev-'));
    try {
      const real = packageRoot();
      mkdirSync(join(root, 'reports'), { recursive: true });
      mkdirSync(join(root, 'docs'), { recursive: true });
      writeFileSync(join(root, ADAPTER_TABLE_FILE), readFileSync(join(real, ADAPTER_TABLE_FILE), 'utf8'));
      writeFileSync(join(root, 'docs/environment.md'), readFileSync(join(real, 'docs/environment.md'), 'utf8'));
      const first = await staleFiles(root);
      expect(first.stale).toContain('impl/adapters/pi/README.md');
      for (const [rel, text] of Object.entries(first.files)) {
        mkdirSync(join(root, rel, '..'), { recursive: true });
        writeFileSync(join(root, rel), text);
      }
      expect((await staleFiles(root)).stale).toEqual([]);
      const pi = join(root, 'impl/adapters/pi/README.md');
      writeFileSync(pi, readFileSync(pi, 'utf8').replace('| deviation |', '| edited by hand |'));
      expect((await staleFiles(root)).stale).toEqual(['impl/adapters/pi/README.md']);
      writeFileSync(pi, '# pi\n\nno block here\n');
      const missing = await staleFiles(root);
      expect(missing.problems).toEqual([`impl/adapters/pi/README.md has no ${DEVIATIONS_BEGIN} ... ${DEVIATIONS_END} block; add the two markers where the table belongs`]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
