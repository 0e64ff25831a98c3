/**
 * `npm run test:vendors`: the real-vendors lane on its own. Prints one line per scenario and a
 * closing `N passed, N failed, N skipped` line; exits 1 when a check failed.
 *
 *   node dist/runners/vendors/main.js [--vendor NAME]... [--scenario NAME]... [--only VENDOR[/SCENARIO]]... [--update-fixtures]
 *
 * `--only gemini-cli` runs one vendor (the earlier `gemini` is read with a notice), `--only qwen-code/remote-deny` one scenario of it (repeatable;
 * `npm run test:vendors -- --only cline`).
 * `--update-fixtures` writes the captures into conformance/fixtures/vendors (to commit them);
 * otherwise they go to AEP_VENDORS_CAPTURE_DIR, default reports/vendors.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { referenceImplementation } from '../conformance/implementation.js';
import { defaultCaptureDir, projectRoot, runLane } from './lane.js';
import { canonicalSelection } from './versions.js';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { vendor: { type: 'string', multiple: true }, scenario: { type: 'string', multiple: true }, only: { type: 'string', multiple: true }, 'update-fixtures': { type: 'boolean' } },
    allowPositionals: false,
  });
  const captureDir = values['update-fixtures'] ? join(projectRoot(), 'conformance', 'fixtures', 'vendors') : process.env.AEP_VENDORS_CAPTURE_DIR || defaultCaptureDir();
  const canonical = (list: string[] | undefined): string[] | undefined =>
    list?.map((s) => {
      const c = canonicalSelection(s);
      if (c.notice) process.stderr.write(`${c.notice}\n`);
      return c.selection;
    });
  values.vendor = canonical(values.vendor);
  values.only = canonical(values.only);
  const started = Date.now();
  const checks = await runLane({
    implementation: referenceImplementation,
    ...(values.vendor ? { vendors: values.vendor } : {}),
    ...(values.scenario ? { scenarios: values.scenario } : {}),
    ...(values.only ? { only: values.only } : {}),
    captureDir,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  const count = (s: string): number => checks.filter((c) => c.status === s).length;
  process.stdout.write(`\nvendors lane: ${checks.length} scenarios in ${((Date.now() - started) / 1000).toFixed(1)} s; captures in ${captureDir}\n`);
  process.stdout.write(`${count('pass')} passed, ${count('fail')} failed, ${count('skip')} skipped\n`);
  return count('fail') > 0 || checks.length === 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`vendors lane: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  },
);
