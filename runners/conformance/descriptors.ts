/**
 * The descriptors, as the matrices and certification pages read them: the registry's
 * (impl/integrations/registry.ts, every `impl/adapters/<name>/` and `impl/bridges/<name>/` folder's
 * `descriptor.ts`), so an adapter or bridge joins the matrices by adding its own folder.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Descriptor } from '../../impl/integrations/descriptor.js';
import { dirsWithoutDescriptor, integrationDirs } from '../../impl/integrations/gen.js';
import { INTEGRATIONS } from '../../impl/integrations/registry.js';

const IMPL = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'impl');

/** The directories that may hold a descriptor, sorted: `adapters/*`, then `bridges/*`. */
export function descriptorDirs(implDir: string = IMPL): string[] {
  return integrationDirs(implDir);
}

export interface LoadedDescriptors {
  descriptors: Descriptor[];
  /** Integration directories without a descriptor file (a test fails on any). */
  missing: string[];
}

/**
 * Every descriptor of the registry. Each one's folder is its name (registry.ts `dirOf`): a
 * descriptor whose name is not its folder's leaves that folder without an integration, which
 * impl/integrations/registry.test.ts fails on.
 */
export async function loadDescriptors(): Promise<LoadedDescriptors> {
  return { descriptors: INTEGRATIONS.map((i) => i.descriptor), missing: dirsWithoutDescriptor(IMPL) };
}
