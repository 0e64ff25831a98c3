/** `node dist/impl/console/bundle-main.js`: the build step that writes dist/console/ (see bundle.ts). */
import { bundleConsole } from './bundle.js';

bundleConsole().catch((err: unknown) => {
  process.stderr.write(`aep console: building the page failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
