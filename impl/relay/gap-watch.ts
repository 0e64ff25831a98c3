/**
 * The late half of the AEP-0003 §5 exhaustion rule. A resume into a session the relay holds
 * nothing of (and never evicted, e.g. after a restart) cannot be judged at subscribe time; the
 * subscriber judges the first event of that session it delivers: unless it sits right after the
 * requested position, a `replay-exhausted` marker naming it goes out first. Pure.
 */
import type { Received } from './buffer.js';
import { isSuccessor } from './buffer.js';
import { comparePositions, type Position, type ResumePoint } from './positions.js';

export class GapWatch {
  readonly #waiting = new Map<string, ResumePoint>();

  constructor(points: readonly ResumePoint[]) {
    for (const p of points) this.#waiting.set(p.session, p);
  }

  /** Whether no session is watched any more: `check` answers undefined for every event. */
  get idle(): boolean {
    return this.#waiting.size === 0;
  }

  /**
   * Call once per event, just before delivering it. Returns the position to announce in a
   * `replay-exhausted` marker before the event, or undefined. Only the first positioned event
   * of a watched session is judged; an event at or before the requested position is not (the
   * consumer has it already), and one right after it is continuous.
   */
  check(rec: Received): Position | undefined {
    if (this.#waiting.size === 0) return undefined;
    const { session, seq } = rec.event;
    if (typeof session !== 'string' || typeof seq !== 'number') return undefined;
    const asked = this.#waiting.get(session);
    if (!asked) return undefined;
    const pos: Position = { epoch: rec.event.epoch ?? 0, seq };
    if (comparePositions(pos, asked) <= 0) return undefined;
    this.#waiting.delete(session);
    return isSuccessor(asked, pos) ? undefined : pos;
  }
}
