import { CheckFailure, CheckSkip, type Check, type Outcome } from './check.js';
import { CheckContext, RunState, resolveEndpoint, type LiveOptions } from './context.js';
import { buildReport, type CheckResult, type ConformanceReport } from './report.js';
import { describeError } from './sse-client.js';

/** Cites the check's section in a fail/skip detail unless the detail already names a section. */
function cite(detail: string, section: string): string {
  return /AEP-\d{4}/.test(detail) ? detail : `${detail} (${section})`;
}

/** Can the target be reached at all? Returns a reason when not. */
async function unreachable(opts: LiveOptions): Promise<string | undefined> {
  const url = resolveEndpoint(opts.target, '/events');
  try {
    const res = await fetch(url, {
      headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {},
      signal: AbortSignal.timeout(Math.min(5000, opts.maxCheckMs ?? Infinity)),
    });
    // Headers arrived: reachable. Releasing the body is best effort and never awaited (a cancel
    // can stay pending, e.g. on a tee'd body under a fetch interceptor).
    res.body?.cancel().catch(() => {});
    return undefined;
  } catch (err) {
    return `${url} could not be fetched (${describeError(err)})`;
  }
}

async function runOne(check: Check, opts: LiveOptions, state: RunState): Promise<Outcome> {
  const controller = new AbortController();
  const ctx = new CheckContext(opts, state, controller.signal);
  const ms = Math.min(check.timeoutMs(ctx), opts.maxCheckMs ?? Infinity);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => {
      const waiting = ctx.lastRequest ? ` (last request: ${ctx.lastRequest})` : '';
      controller.abort();
      resolve({ status: 'fail', detail: `timed out after ${ms} ms${waiting}` });
    }, ms);
  });
  try {
    return await Promise.race([check.run(ctx), timeout]);
  } catch (err) {
    if (err instanceof CheckSkip) return { status: 'skip', detail: err.message.startsWith('skipped') ? err.message : `skipped: ${err.message}` };
    if (err instanceof CheckFailure) return { status: 'fail', detail: err.message };
    return { status: 'fail', detail: `unexpected error: ${describeError(err)}` };
  } finally {
    clearTimeout(timer);
    ctx.release();
  }
}

/**
 * Runs `checks` in order against `opts.target` and returns the report. `onResult` is called
 * after each check (for progressive human output). Never throws for anything the target does.
 */
export async function runChecks(
  opts: LiveOptions,
  checks: readonly Check[],
  onResult: (r: CheckResult) => void = () => {},
): Promise<ConformanceReport> {
  const startedAt = new Date();
  const results: CheckResult[] = [];
  const down = await unreachable(opts);
  const state = new RunState();
  for (const check of checks) {
    const outcome: Outcome = down
      ? { status: 'fail', detail: `target unreachable: ${down}` }
      : await runOne(check, opts, state);
    const result: CheckResult = { name: check.name, status: outcome.status };
    if (outcome.detail) result.detail = outcome.status === 'pass' ? outcome.detail : cite(outcome.detail, check.section);
    results.push(result);
    onResult(result);
  }
  return buildReport(opts.target, startedAt, new Date(), results);
}
