/**
 * A family written as a plan: `plan(ctx)` reads the fixtures and names every case, each with the
 * judgement a run calls. `run` is made from it, so `aep conformance --list` (which reads the names
 * only) and a run cannot disagree on a case's name or order.
 */
import { judgeInOrder } from './check.js';
import type { Family, FamilyContext, PlannedCase } from './types.js';

export type PlannedFamily = Omit<Family, 'run' | 'plan'> & { plan(ctx: FamilyContext): Promise<readonly PlannedCase[]> | readonly PlannedCase[] };

/** The family whose `run` judges every planned case in order. */
export function plannedFamily(f: PlannedFamily): Family & Required<Pick<Family, 'plan'>> {
  return { ...f, run: async (ctx) => judgeInOrder(await f.plan(ctx)) };
}
