/**
 * The machine's load around each benchmark row, so that a figure taken on a busy machine cannot
 * pass for a quiet one. A loaded machine slows a bare baseline server far more than it slows
 * ours, so its ratios flatter us; a row measured while the load was high is marked `noisy`, and
 * its target verdict becomes `null` (unknown), never `true`. Pure, apart from the default probe.
 */
import { availableParallelism, loadavg } from 'node:os';

/** Reads the machine's state; injectable so the verdicts can be tested. */
export interface LoadProbe {
  /** The one-minute load average (`os.loadavg()[0]`). */
  load(): number;
  /** The cores the machine offers (`os.availableParallelism()`). */
  cores(): number;
}

export const SYSTEM_PROBE: LoadProbe = { load: () => loadavg()[0] ?? 0, cores: () => availableParallelism() };

/** Load average per core above which a row is noisy. */
export const NOISY_LOAD_PER_CORE = 1.0;

/** The load seen when a row started and when it ended. */
export interface RowLoad {
  readonly start: number;
  readonly end: number;
  readonly cores: number;
  /** True when `start` or `end` exceeds `NOISY_LOAD_PER_CORE` times `cores`. */
  readonly noisy: boolean;
}

/** The verdict for one row from the two readings. */
export function rowLoad(start: number, end: number, cores: number): RowLoad {
  const limit = NOISY_LOAD_PER_CORE * Math.max(1, cores);
  return { start: round2(start), end: round2(end), cores, noisy: start > limit || end > limit };
}

/** Times a row: reads the probe before and after `work`. */
export async function withLoad<T>(probe: LoadProbe, work: () => Promise<T>): Promise<{ value: T; load: RowLoad }> {
  const start = probe.load();
  const value = await work();
  return { value, load: rowLoad(start, probe.load(), probe.cores()) };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
