/**
 * The descriptor registry: every `impl/adapter-<name>/descriptor.ts` and
 * `impl/bridge-<name>/descriptor.ts` (exporting `descriptor`), found by scanning impl/, so an
 * adapter or bridge joins the matrices by adding its own file and nothing else.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Descriptor } from '../../impl/adapter-kit/descriptor.js';

const HERE = fileURLToPath(import.meta.url);
/** `.ts` under vitest (sources), `.js` from dist/. */
const EXT = HERE.endsWith('.ts') ? '.ts' : '.js';
const IMPL = join(dirname(HERE), '..', '..', 'impl');

/** The directories that may hold a descriptor, sorted: `adapter-*`, then `bridge-*`. */
export function descriptorDirs(implDir: string = IMPL): string[] {
  // Shared kits (`adapter-kit`, `bridge-kit`) and plain files (`bridge-api.ts`) are not integrations.
  const names = readdirSync(implDir).filter((n) => /^(adapter|bridge)-/.test(n) && !n.endsWith('-kit') && statSync(join(implDir, n)).isDirectory());
  return names.sort((a, b) => (a.startsWith('bridge-') === b.startsWith('bridge-') ? a.localeCompare(b) : a.startsWith('bridge-') ? 1 : -1));
}

export interface LoadedDescriptors {
  descriptors: Descriptor[];
  /** Integration directories without a descriptor file (a test fails on any). */
  missing: string[];
}

/** Loads every descriptor; throws when a file does not export a `descriptor` named after its directory. */
export async function loadDescriptors(implDir: string = IMPL): Promise<LoadedDescriptors> {
  const descriptors: Descriptor[] = [];
  const missing: string[] = [];
  for (const dir of descriptorDirs(implDir)) {
    const file = join(implDir, dir, `descriptor${EXT}`);
    if (!existsSync(file)) {
      missing.push(dir);
      continue;
    }
    const mod = (await import(pathToFileURL(file).href)) as { descriptor?: Descriptor };
    const d = mod.descriptor;
    const expected = dir.replace(/^(adapter|bridge)-/, '');
    if (!d || d.name !== expected) throw new Error(`${dir}/descriptor${EXT} must export \`descriptor\` with name '${expected}' (got ${d ? `'${d.name}'` : 'no descriptor export'})`);
    descriptors.push(d);
  }
  return { descriptors, missing };
}
