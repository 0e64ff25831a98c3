import type { CheckContext } from './context.js';
import { CheckFailure } from './verdicts.js';

export { CheckFailure, CheckSkip } from './verdicts.js';

/** What a check decides. A thrown `CheckFailure` is the same as returning `{status: 'fail'}`. */
export type Outcome = { status: 'pass'; detail?: string } | { status: 'fail' | 'skip'; detail: string };

/**
 * One live check, one module under checks/. `run` is called at most once per checker run,
 * with a context whose `signal` aborts when `timeoutMs` elapses; resources registered with
 * `ctx.defer` are released after `run` settles or times out.
 */
export interface Check {
  /** The standard's check name (conformance/README.md), e.g. `resume`. */
  name: string;
  /** The spec section(s) the check verifies, cited in every fail/skip detail. */
  section: string;
  /** Upper bound for the whole check, in ms, given the run's options. */
  timeoutMs(ctx: CheckContext): number;
  run(ctx: CheckContext): Promise<Outcome>;
}


export const pass = (detail?: string): Outcome => (detail === undefined ? { status: 'pass' } : { status: 'pass', detail });
export const fail = (detail: string): Outcome => ({ status: 'fail', detail });
export const skip = (detail: string): Outcome => ({ status: 'skip', detail: detail.startsWith('skipped') ? detail : `skipped: ${detail}` });

/** Throw a failure unless `cond` holds. */
export function expectThat(cond: unknown, message: string): asserts cond {
  if (!cond) throw new CheckFailure(message);
}
