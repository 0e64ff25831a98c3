/**
 * Builds the console's page into `dist/console/` with esbuild: `web/main.ts` and everything it
 * imports (Preact, htm, and the project's own pure modules: forms, positions, the causal tree,
 * the text rule, command envelopes) as one ES module, plus the stylesheet. Run by `npm run
 * build` (so `npm install`'s prepare step builds it too). No network access.
 *
 * Two imports of the shared modules are swapped for browser-side stand-ins: `node:os` (only
 * `hostname`, for the operator's source URI) and the payload rule catalogue that `rules.ts`
 * pulls in (ajv and zod; the page needs the form rules only, which rules.ts holds itself).
 */
import { copyFileSync } from 'node:fs';
import { ensureDir } from '../adapter-kit/ensure-dir.js';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { packageRoot } from '../operator/package-root.js';
import { assetDir } from './assets.js';

const stand_ins: Plugin = {
  name: 'console-stand-ins',
  setup(b) {
    const web = join(packageRoot(), 'impl', 'console', 'web');
    b.onResolve({ filter: /^node:os$/ }, () => ({ path: join(web, 'stand-in-os.ts') }));
    b.onResolve({ filter: /^\.\/payload\.js$/ }, (args) => (args.importer.endsWith(join('core', 'rules.ts')) ? { path: join(web, 'stand-in-payload.ts') } : undefined));
  },
};

export async function bundleConsole(root = packageRoot(), out = assetDir(root)): Promise<void> {
  ensureDir(out);
  await build({
    entryPoints: [join(root, 'impl', 'console', 'web', 'main.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    jsx: 'preserve',
    outfile: join(out, 'app.js'),
    plugins: [stand_ins],
    logLevel: 'warning',
  });
  copyFileSync(join(root, 'impl', 'console', 'web', 'app.css'), join(out, 'app.css'));
}
