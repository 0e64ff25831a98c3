/**
 * `aep conformance --lint-corpus`: the corpus problems no run shows (runners/conformance/lint-corpus.ts):
 * pins carrying data members their type's schema does not declare, and mapping entries for hooks
 * the integration's descriptor does not list. Exit 1 on any finding; `--json PATH|-` also writes
 * `{findings, notes}` as JSON.
 */
import { lintCorpus, renderFinding } from '../../runners/conformance/lint-corpus.js';
import { packageRoot } from '../../runners/conformance/corpus.js';
import { INTEGRATIONS } from '../integrations/registry.js';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkOutputFile } from '../adapter-kit/ensure-dir.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import { count } from '../operator/plural.js';

export function runLint(corpusDir: string, json: string | undefined, io: CliIo): number {
  const human = json === '-' ? io.stderr : io.stdout;
  const result = lintCorpus(corpusDir, INTEGRATIONS.map((i) => i.descriptor), packageRoot());
  human(`aep conformance --lint-corpus: corpus ${corpusDir}\n`);
  for (const f of result.findings) human(`${renderFinding(f)}\n`);
  for (const n of result.notes) human(`note: ${n}\n`);
  human(`${count(result.findings.length, 'finding')}${result.findings.length ? '' : ': the corpus is clean'}\n`);
  const text = `${JSON.stringify(result, null, 2)}\n`;
  if (json === '-') io.stdout(text);
  else if (json !== undefined) {
    const path = resolve(io.cwd, json);
    const ok = checkOutputFile(path, '--json');
    if (ok !== true) throw new UsageError(ok);
    writeFileSync(path, text);
  }
  return result.findings.length ? EXIT.failed : EXIT.ok;
}
