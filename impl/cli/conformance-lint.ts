/**
 * `aep conformance --lint-corpus`: the corpus problems no run shows (runners/conformance/lint-corpus.ts):
 * pins carrying data members their type's schema does not declare, and mapping entries for hooks
 * the integration's descriptor does not list. Exit 1 on any finding.
 */
import { lintCorpus, renderFinding } from '../../runners/conformance/lint-corpus.js';
import { packageRoot } from '../../runners/conformance/corpus.js';
import { INTEGRATIONS } from '../integrations.js';
import { EXIT, type CliIo } from './io.js';
import { count } from '../operator/plural.js';

export function runLint(corpusDir: string, json: string | undefined, io: CliIo): number {
  const human = json === '-' ? io.stderr : io.stdout;
  const result = lintCorpus(corpusDir, INTEGRATIONS.map((i) => i.descriptor), packageRoot());
  human(`aep conformance --lint-corpus: corpus ${corpusDir}\n`);
  for (const f of result.findings) human(`${renderFinding(f)}\n`);
  for (const n of result.notes) human(`note: ${n}\n`);
  human(`${count(result.findings.length, 'finding')}${result.findings.length ? '' : ': the corpus is clean'}\n`);
  if (json === '-') io.stdout(`${JSON.stringify(result, null, 2)}\n`);
  return result.findings.length ? EXIT.failed : EXIT.ok;
}
