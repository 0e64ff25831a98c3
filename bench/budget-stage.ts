/** The shape of one stage of the per-event cost budget (`budget-stages.ts`, `budget-ws.ts`, `budget-fanout.ts`). */

/** Which path a stage belongs to: the relay's ingest, `validateStream`, or a bare limit. */
export type StageGroup = 'ingest' | 'stream' | 'limit';

export interface Stage {
  readonly name: string;
  readonly group: StageGroup;
  /** One sentence: what one run over a set does. */
  readonly what: string;
  /** Build the inputs of `sets` sets of `n` events; the returned `run(i)` handles set `i` (0 ≤ i < sets). */
  prepare(n: number, sets: number): Promise<PreparedStage>;
}

export interface PreparedStage {
  run(set: number): void | Promise<void>;
  close?(): void | Promise<void>;
}
