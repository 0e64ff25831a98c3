/**
 * `redact`: `redactText` over 1 MiB of mixed text, against the five AEP-0003 §9.4(a) floor
 * patterns applied alone (written here, independently of impl/core/redact.ts).
 */
import { redactText } from '../../impl/core/redact.js';
import type { Benchmark } from '../harness.js';
import { mixedText } from '../inputs.js';

const MIB = 1024 * 1024;
const MARK = '[REDACTED:secret]';

/** The §9.4(a) floor, literally: PEM blocks, AWS key ids, Bearer tokens, keyword assignments, JWTs. */
export const FLOOR: ReadonlyArray<readonly [RegExp, string]> = [
  [/-----BEGIN [A-Z ]+-----[\s\S]*?-----END [A-Z ]+-----/g, MARK],
  [/AKIA[0-9A-Z]{16}/g, MARK],
  [/Bearer \S+/g, `Bearer ${MARK}`],
  [/(password|passwd|secret|api[_-]?key|token)(\s*[=:]\s*)\S+/g, `$1$2${MARK}`],
  [/eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, MARK],
];

/** The baseline: only the five floor patterns (or `patterns`), in the order the spec lists them. */
export function floorRedact(text: string, patterns: ReadonlyArray<readonly [RegExp, string]> = FLOOR): string {
  let out = text;
  for (const [pattern, replacement] of patterns) out = out.replace(pattern, replacement);
  return out;
}

/** The planted secrets still present in `text` (none, for a redactor meeting the floor). */
export function leaked(text: string, secrets: readonly string[]): string[] {
  return secrets.filter((s) => text.includes(s));
}

export const redactBench: Benchmark = {
  name: 'redact',
  unit: 'MiB',
  what: 'redactText (hardened secrets, home paths, PII) vs the five §9.4(a) floor regexes alone',
  budgetMs: 250,
  async prepare() {
    const { text, secrets } = mixedText(MIB);
    for (const [side, out] of [['redactText', redactText(text)], ['floor baseline', floorRedact(text)]] as const) {
      const left = leaked(out, secrets);
      if (left.length > 0) throw new Error(`redact: ${side} left ${left.length} planted secrets, first ${JSON.stringify(left[0])}`);
    }
    return {
      ours: { run: () => (redactText(text).length > 0 ? text.length / MIB : 0) },
      baseline: { run: () => (floorRedact(text).length > 0 ? text.length / MIB : 0) },
    };
  },
};
