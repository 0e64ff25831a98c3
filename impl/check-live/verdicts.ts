/**
 * The two verdicts a check may throw instead of returning an Outcome. A leaf module: the
 * context, the logs and the clients throw them without importing the check contract (check.ts).
 */

/** A check's verdict that the target is non-conformant; `message` says what was observed. */
export class CheckFailure extends Error {
  override name = 'CheckFailure';
}

/** A check that cannot run in this posture; `message` explains why ("skipped: ..."). */
export class CheckSkip extends Error {
  override name = 'CheckSkip';
}
