/**
 * `npm run gen:matrices` (also run by `npm run conformance`): writes reports/feature-matrix.md,
 * reports/control-matrix.md, the adapter table of docs/integrations.md and each integration's
 * deviations table (between the markers of impl/<dir>/README.md; the README is created when
 * absent) from the descriptors. With `--check` it writes nothing and exits 1 naming every stale
 * file. A README that exists without the deviations markers is never edited: it is reported,
 * and the run fails.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from './corpus.js';
import { DEVIATIONS_BEGIN, DEVIATIONS_END, dirOf, readmeWithDeviations, rowProblems } from './deviations.js';
import { loadDescriptors } from './descriptors.js';
import { PORTS_BEGIN, PORTS_END, environmentDoc } from './env-tables.js';
import { ADAPTER_TABLE_FILE, generatedFiles } from './matrices.js';

const readOrNull = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

/**
 * The generated files that differ from what is on disk, and `problems`: READMEs that exist without
 * the deviations markers, and unusable deviation rows (each makes the run fail; nothing is written for them).
 */
export async function staleFiles(root: string = packageRoot()): Promise<{ stale: string[]; files: Record<string, string>; problems: string[] }> {
  const { descriptors } = await loadDescriptors();
  const files = generatedFiles(descriptors, readFileSync(join(root, ADAPTER_TABLE_FILE), 'utf8'));
  const problems: string[] = descriptors.flatMap(rowProblems);
  for (const d of descriptors) {
    const rel = `impl/${dirOf(d)}/README.md`;
    const next = readmeWithDeviations(d, readOrNull(join(root, rel)));
    if (next === null) problems.push(`${rel} has no ${DEVIATIONS_BEGIN} ... ${DEVIATIONS_END} block; add the two markers where the table belongs`);
    else files[rel] = next;
  }
  const envRel = 'docs/environment.md';
  const env = environmentDoc(readOrNull(join(root, envRel)) ?? '');
  if (env === null) problems.push(`${envRel} lacks the generated ports or variables markers (${PORTS_BEGIN} ... ${PORTS_END})`);
  else files[envRel] = env;
  const stale = Object.entries(files).filter(([rel, text]) => {
    try {
      return readFileSync(join(root, rel), 'utf8') !== text;
    } catch {
      return true;
    }
  }).map(([rel]) => rel);
  return { stale, files, problems };
}

async function main(): Promise<number> {
  const root = packageRoot();
  const { stale, files, problems } = await staleFiles(root);
  for (const p of problems) process.stderr.write(`gen-matrices: ${p}\n`);
  if (process.argv.includes('--check')) {
    for (const rel of stale) process.stderr.write(`stale: ${rel} (run npm run gen:matrices)\n`);
    return stale.length || problems.length ? 1 : 0;
  }
  for (const rel of stale) {
    writeFileSync(join(root, rel), files[rel]!);
    process.stdout.write(`wrote ${rel}\n`);
  }
  if (stale.length === 0) process.stdout.write('matrices up to date\n');
  return problems.length ? 1 : 0;
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  main().then((code) => process.exit(code), (err: unknown) => {
    process.stderr.write(`gen-matrices: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
