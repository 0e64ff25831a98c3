/**
 * Test-only: the reliability suite's scale and its figure lines. `AEP_RELIABILITY=ci` is the
 * bounded run CI uses; anything else is the full run the issue asks for.
 */
export const CI = process.env.AEP_RELIABILITY === 'ci';

/** Generated cases per property: at least 10,000 in the full run. */
export const CASES = CI ? 1_000 : 10_000;

/** Soak: emitters, consumers and seconds (20 x 50 x 60 s full, 10 s in CI). */
export const SOAK = CI ? { emitters: 20, consumers: 50, seconds: 10 } : { emitters: 20, consumers: 50, seconds: 60 };

/** One figure line: what was loaded, injected, tried, and lost. Collected by the suite's readers. */
export function figures(test: string, values: Record<string, number | string>): void {
  console.log(`[reliability] ${test}: ${Object.entries(values).map(([k, v]) => `${k}=${v}`).join(' ')}`);
}
