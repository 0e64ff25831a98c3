/**
 * `npm run gen:matrices` (also run by `npm run conformance`): writes reports/feature-matrix.md,
 * reports/control-matrix.md and the adapter table of docs/integrations.md from the descriptors. With `--check`
 * it writes nothing and exits 1 naming every stale file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from './corpus.js';
import { loadDescriptors } from './descriptors.js';
import { ADAPTER_TABLE_FILE, generatedFiles } from './matrices.js';

/** The generated files that differ from what is on disk. */
export async function staleFiles(root: string = packageRoot()): Promise<{ stale: string[]; files: Record<string, string> }> {
  const { descriptors } = await loadDescriptors();
  const files = generatedFiles(descriptors, readFileSync(join(root, ADAPTER_TABLE_FILE), 'utf8'));
  const stale = Object.entries(files).filter(([rel, text]) => {
    try {
      return readFileSync(join(root, rel), 'utf8') !== text;
    } catch {
      return true;
    }
  }).map(([rel]) => rel);
  return { stale, files };
}

async function main(): Promise<number> {
  const root = packageRoot();
  const { stale, files } = await staleFiles(root);
  if (process.argv.includes('--check')) {
    for (const rel of stale) process.stderr.write(`stale: ${rel} (run npm run gen:matrices)\n`);
    return stale.length ? 1 : 0;
  }
  for (const rel of stale) {
    writeFileSync(join(root, rel), files[rel]!);
    process.stdout.write(`wrote ${rel}\n`);
  }
  if (stale.length === 0) process.stdout.write('matrices up to date\n');
  return 0;
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  main().then((code) => process.exit(code), (err: unknown) => {
    process.stderr.write(`gen-matrices: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
