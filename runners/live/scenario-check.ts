/**
 * One check from what a judge found (a control-loop scenario, a live mapping entry): pass when
 * nothing, else fail with every problem on its own line. Its basis is the strictest one a problem
 * has (`must`, then `pin`, then `reference`), its rule that problem's. `pin` problems on members a
 * `--deviations` file declares are excused: when nothing else is left, the check is a skip the
 * file excuses, "deviation (documented)", naming each member and its reason.
 */
import { BASES } from '../conformance/check-meta.js';
import { declaredDeviation, type TargetDeviations } from '../conformance/target-deviations.js';
import type { Check, CheckBasis, CheckRule } from '../conformance/types.js';

export interface Problem {
  basis: CheckBasis;
  rule: CheckRule;
  message: string;
  /** A `pin` problem's member, for declared deviations. */
  member?: string;
}

export interface CheckFrom {
  /** The basis and rule of a check that found nothing. */
  passBasis: CheckBasis;
  passRule: CheckRule;
  integration?: string;
  deviations?: TargetDeviations;
  /** Where the deviations came from (the `--deviations` path), for `excusedBy`. */
  deviationsFile?: string;
}

export function checkFrom(name: string, problems: readonly Problem[], o: CheckFrom): Check {
  const own = o.integration !== undefined ? { integration: o.integration } : {};
  const excused: string[] = [];
  const left = problems.filter((p) => {
    if (p.basis !== 'pin' || p.member === undefined) return true;
    const d = declaredDeviation(o.deviations, p.member);
    if (!d) return true;
    excused.push(`deviation (documented): ${p.member} (declared as ${d.member}: ${d.reason}): ${p.message}`);
    return false;
  });
  if (left.length === 0 && excused.length === 0) return { name, status: 'pass', basis: o.passBasis, rule: o.passRule, ...own };
  if (left.length === 0) {
    const rule = problems[0]!.rule;
    return { name, status: 'skip', basis: 'pin', rule, detail: excused.join('\n'), excusedBy: o.deviationsFile ?? 'the deviations file', ...own };
  }
  const strictest = BASES.find((b) => left.some((p) => p.basis === b))!;
  const first = left.find((p) => p.basis === strictest)!;
  const undeclared = (p: Problem) => (p.basis === 'pin' && o.deviations ? `${p.message} (pin member ${p.member ?? '?'}: not declared in the deviations file)` : p.message);
  return { name, status: 'fail', basis: strictest, rule: first.rule, detail: [...left.map(undeclared), ...excused].join('\n'), ...own };
}
