/**
 * The deviations table of one integration (pure): every row of its descriptor's `deviations`,
 * rendered for the block between the markers of `impl/<dir>/README.md`, and that README's text
 * with the block brought up to date (or a new README when there is none yet). gen-matrices.ts
 * writes them; a test fails when a committed block is stale or missing.
 */
import type { Descriptor, Deviation } from '../../impl/integrations/descriptor.js';

export const DEVIATIONS_BEGIN = '<!-- BEGIN GENERATED: deviations -->';
export const DEVIATIONS_END = '<!-- END GENERATED: deviations -->';
const HEADING = '## Deviations from the design record';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ').trim();

/** The integration's folder under impl/, `<kind>s/<name>`: the registry's one rule (a descriptor not in the registry, as tests make, gets the same). */
export { dirOf } from '../../impl/integrations/registry.js';

/** The table itself, deviations first, then the names we chose; each group in descriptor order. */
export function deviationRows(rows: readonly Deviation[]): string[] {
  if (rows.length === 0) return ['None: every name this integration emits is the one its design record gives.'];
  const kindText = { deviation: 'deviation', unnamed: 'our name (the record gives none)' } as const;
  const count = (k: Deviation['kind']) => rows.filter((r) => r.kind === k).length;
  const lines = [
    `${count('deviation')} deliberate deviation(s), ${count('unnamed')} name(s) chosen where the record gives none.`,
    '',
    '| what | the record says | we emit | why | kind |',
    '|---|---|---|---|---|',
  ];
  for (const k of ['deviation', 'unnamed'] as const) {
    for (const r of rows.filter((x) => x.kind === k)) lines.push(`| ${cell(r.what)} | ${cell(r.record)} | ${cell(r.ours)} | ${cell(r.why)} | ${kindText[k]} |`);
  }
  return lines;
}

/** The block between the README markers. */
export function deviationsTable(rows: readonly Deviation[]): string {
  return ["<!-- generated from the descriptor's `deviations` by `npm run gen:matrices`; do not edit by hand -->", '', ...deviationRows(rows)].join('\n');
}

/** A README for an integration that has none yet: a title, the heading, the markers. */
export function newReadme(d: Pick<Descriptor, 'kind' | 'name' | 'vendor'>): string {
  return `# ${d.kind === 'adapter' ? 'Adapter' : 'Bridge'}: ${d.vendor} (\`${d.name}\`)\n\n${HEADING}\n\n${DEVIATIONS_BEGIN}\n${DEVIATIONS_END}\n`;
}

/**
 * `current` (the README on disk, `null` when absent) with the deviations block replaced; only
 * the text between the markers changes. `null` when a README exists without the markers: the
 * file is someone's prose, so it is not edited; the caller reports it.
 */
export function readmeWithDeviations(d: Descriptor, current: string | null): string | null {
  const text = current ?? newReadme(d);
  const a = text.indexOf(DEVIATIONS_BEGIN);
  const b = text.indexOf(DEVIATIONS_END);
  if (a < 0 || b < a) return null;
  return `${text.slice(0, a + DEVIATIONS_BEGIN.length)}\n${deviationsTable(d.deviations)}\n${text.slice(b)}`;
}

/** Every way a row is unusable (empty member, unknown kind, a deviation with no record text), one line each. */
export function rowProblems(d: Pick<Descriptor, 'name' | 'deviations'>): string[] {
  const out: string[] = [];
  d.deviations.forEach((r, i) => {
    for (const k of ['what', 'record', 'ours', 'why'] as const) {
      if (typeof r[k] !== 'string' || r[k].trim() === '') out.push(`${d.name}: deviations[${i}].${k} is empty; say it in a few words`);
    }
    if (r.kind !== 'deviation' && r.kind !== 'unnamed') out.push(`${d.name}: deviations[${i}].kind is '${String(r.kind)}'; use 'deviation' or 'unnamed'`);
  });
  return out;
}
