/**
 * Where the built page lives (`dist/console/`, written by bundle.ts at `npm install` / `npm run
 * build`) and reading it once at start. I/O.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../operator/package-root.js';

export const ASSET_DIR = ['dist', 'console'] as const;

export interface Assets {
  readonly js: Buffer;
  readonly css: Buffer;
}

export class MissingAssetsError extends Error {
  override name = 'MissingAssetsError';
}

export function assetDir(root = packageRoot()): string {
  return join(root, ...ASSET_DIR);
}

export function loadAssets(dir = assetDir()): Assets {
  try {
    return { js: readFileSync(join(dir, 'app.js')), css: readFileSync(join(dir, 'app.css')) };
  } catch {
    throw new MissingAssetsError(`the console's page is not built (${join(dir, 'app.js')} is missing): run npm run build in the package`);
  }
}
