/**
 * Writes the machine-readable protocol to `spec/schemas/`: `types/<type>.schema.json` (one payload
 * schema per registered type that has one), `aep-event.schema.json` (the envelope) and
 * `registry.json`. Run as `npm run gen:schemas` (i.e. `node dist/spec/generate.js`); the checked-in
 * files are compared with `generateSchemas()` by `generate.test.ts`.
 */
import { readdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSchemas } from './json-schema.js';
import { ensureDir } from '../impl/adapter-kit/ensure-dir.js';

export { generateSchemas, payloadJsonSchema, registryJson, SCHEMA_ID_BASE, typeSchemaFile } from './json-schema.js';

/** Write the generated files below `dir`, removing payload schemas the generator no longer produces. Returns the paths written. */
export async function writeSchemas(dir: string): Promise<string[]> {
  const files = generateSchemas();
  ensureDir(join(dir, 'types'));
  for (const name of await readdir(join(dir, 'types'))) {
    if (!files.has(`types/${name}`)) await rm(join(dir, 'types', name));
  }
  for (const [rel, text] of files) await writeFile(join(dir, rel), text);
  return [...files.keys()];
}

/** The checked-in output directory, `<repo>/spec/schemas`, whether this runs from `dist/spec` or `spec`. */
export function defaultSchemaDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const repo = basename(dirname(here)) === 'dist' ? dirname(dirname(here)) : dirname(here);
  return join(repo, 'spec', 'schemas');
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = defaultSchemaDir();
  writeSchemas(dir).then(
    (written) => process.stdout.write(`wrote ${written.length} files to ${dir}\n`),
    (err: unknown) => {
      process.stderr.write(`gen:schemas: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
