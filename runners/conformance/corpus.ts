/** Where the project's own corpus lives, found from this file's location, never the cwd. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'aep-reference';

/** The package root: the nearest ancestor holding this package's package.json (works from src and dist). */
export function packageRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME) return dir;
      } catch {
        // not ours; keep climbing
      }
    }
    if (dirname(dir) === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package root above ${from}`);
  }
}

/** `<package root>/conformance/fixtures`. */
export function defaultCorpusDir(): string {
  return join(packageRoot(), 'conformance', 'fixtures');
}
