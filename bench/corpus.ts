/**
 * Reading the project's own files the benchmarks run over: the golden corpus and the
 * generated envelope schema. Found from this module's URL, so it works from `bench/` (tests)
 * and from `dist/bench/` (the built bench) alike.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the nearest folder above this module holding a package.json. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('bench: no package.json above this module; run the bench from inside the repository');
    dir = parent;
  }
  return dir;
}

/** `conformance/fixtures/golden/golden.jsonl`, one parsed value per non-blank line. */
export function readGolden(root = repoRoot()): Record<string, unknown>[] {
  const file = join(root, 'conformance', 'fixtures', 'golden', 'golden.jsonl');
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch (err) {
        throw new Error(`${file}:${i + 1}: not JSON (${(err as Error).message})`);
      }
    });
}

/** The generated envelope schema, `spec/schemas/aep-event.schema.json`. */
export function readEnvelopeSchema(root = repoRoot()): Record<string, unknown> {
  return JSON.parse(readFileSync(join(root, 'spec', 'schemas', 'aep-event.schema.json'), 'utf8')) as Record<string, unknown>;
}
