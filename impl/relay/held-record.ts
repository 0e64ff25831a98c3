/**
 * A held event as the buffer hands it out (`Held`): made on demand from the session's columns
 * (`held-columns.ts`) for each admission, replay or lookup, and not kept by the buffer. It carries
 * the index routing needs as own fields (`session`, `id`, `agent`, `type`: a filter on
 * `INDEX_KEYS` reads them without a parse) and parses its text on demand; the buffer's last
 * `MATERIALIZED` parses are memoized by arrival counter, so several records of one event (a replay
 * reads an event several times: filter, framing, rendering) share one parse. Pure.
 */
import type { AepEvent } from '../core/event.js';
import type { Position } from './positions.js';
import type { Received } from './received.js';

/** An event as held by the buffer. */
export interface Held extends Received {
  readonly session: string;
  /** The event's own `(epoch, seq)`, or its attach point when `positioned` is false. */
  readonly pos: Position;
  /** Whether the event carries its own `seq` (and so has an SSE `id:`). */
  readonly positioned: boolean;
  /** Arrival counter: breaks ties between equal positions. */
  readonly ord: number;
}

/**
 * How many held events keep their parsed form at once (the most recently parsed ones): more than
 * one session at the default `AEP_BUFFER` (10 000), so a replay that filters a whole session and
 * then frames it parses each event once. About 1 KiB per kept parse of a ~600 B event.
 */
export const MATERIALIZED = 16_384;

/**
 * The memoized parses of one buffer, by arrival counter: at most `MATERIALIZED`, the oldest dropped
 * first (Map order is insertion order). One per buffer, not one per process: a module-level memo
 * kept up to 16 384 events of a relay after it closed (issue 37, the soak's heap after close).
 */
export type ParseMemo = Map<number, AepEvent>;

export class HeldRecord implements Held, Position {
  declare readonly overDeclared?: boolean;
  /** The arrival counter, negated for a seq-less event (one field for `ord` and `positioned`). */
  readonly #order: number;
  readonly #parsed: ParseMemo;

  constructor(
    readonly raw: string,
    readonly session: string,
    readonly id: string,
    readonly epoch: number,
    readonly seq: number,
    signedOrd: number,
    parsed: ParseMemo,
    readonly agent: string | undefined,
    readonly type: string,
    overDeclared: boolean | undefined,
  ) {
    this.#order = signedOrd;
    this.#parsed = parsed;
    if (overDeclared !== undefined) (this as { overDeclared?: boolean }).overDeclared = overDeclared;
  }

  /** The event's own `(epoch, seq)`, or its attach point when `positioned` is false (a new object per read). */
  get pos(): Position {
    return { epoch: this.epoch, seq: this.seq };
  }

  get positioned(): boolean {
    return this.#order > 0;
  }

  get ord(): number {
    return this.#order > 0 ? this.#order : -this.#order;
  }

  /** The event, parsed from `raw` on demand; the buffer's last `MATERIALIZED` parses are kept. */
  get event(): AepEvent {
    return parseHeld(this.#parsed, this.ord, this.raw);
  }
}

/** The parse of the event with arrival counter `ord` and text `raw`, through the memo. */
export function parseHeld(parsed: ParseMemo, ord: number, raw: string): AepEvent {
  let event = parsed.get(ord);
  if (event === undefined) {
    event = JSON.parse(raw) as AepEvent;
    if (parsed.size >= MATERIALIZED) parsed.delete(parsed.keys().next().value!);
    parsed.set(ord, event);
  }
  return event;
}
