/** The package's root directory, found upward from this module (impl/ under tests, dist/impl/ when built). */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'bin', 'aep.js'))) return dir;
    dir = dirname(dir);
  }
  throw new Error('cannot find the aep package root above this module');
}
