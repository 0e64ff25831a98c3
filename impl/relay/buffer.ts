/**
 * The per-session replay buffer (AEP-0003 §5). Pure data structure, no I/O.
 *
 * - Admission dedupes on `(source, id)` (AEP-0001 §7.4); fan-out does not (the caller
 *   forwards duplicates live, so a retried command's re-ack can cross the hop).
 * - Each session is ordered by `(epoch, seq)`, ties broken by arrival, and bounded to
 *   `perSession` events: the earliest position is evicted first.
 * - At most `maxSessions` sessions are held; admitting a new one evicts the least recently
 *   written session whole.
 * - Agent-scoped events (no `session`) are never buffered: they are live-only.
 * - Seq-less session events (forwarded commands, `attention.routed`) have no position of
 *   their own; they are held right after the session's high-water position at arrival, so
 *   a consumer resuming from that position does not receive them again.
 */
import type { AepEvent } from '../core/event.js';
import { comparePositions, type Position, type ResumePoint } from './positions.js';

/** An accepted event: the parsed envelope and its JSON text as received, on one line. */
export interface Received {
  readonly event: AepEvent;
  readonly raw: string;
  /** Set when the content exceeds the declared `capture`: fan-out then treats it as `full`. */
  readonly overDeclared?: boolean;
}

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

/** The result of a resume request against one session. */
export interface Replay {
  /** Held events strictly after the requested position, in order. */
  readonly events: readonly Held[];
  /** Set when events after the requested position were evicted: the earliest held position. */
  readonly exhausted?: Position;
}

interface SessionState {
  events: Held[];
  keys: Set<string>;
  highWater: Position | undefined;
  evictedHigh: Position | undefined;
}

const BEFORE_ALL: Position = Object.freeze({ epoch: -1, seq: -1 });

const dedupeKey = (e: AepEvent): string => `${e.source}\u0000${e.id}`;

function after(a: Held, b: Held): boolean {
  const c = comparePositions(a.pos, b.pos);
  return c !== 0 ? c > 0 : a.ord > b.ord;
}

export class ReplayBuffer {
  readonly #sessions = new Map<string, SessionState>();
  #ord = 0;

  /**
   * @param perSession events held per session (AEP_BUFFER)
   * @param maxSessions sessions held at once (AEP_MAX_SESSIONS)
   */
  constructor(readonly perSession: number, readonly maxSessions: number) {}

  /**
   * Offer an event for buffering. Returns `buffered: false` for agent-scoped events and for
   * a `(source, id)` already held in its session. Call once per accepted event, in arrival order.
   */
  admit(rec: Received): { buffered: boolean; held?: Held } {
    const session = rec.event.session;
    if (typeof session !== 'string') return { buffered: false };
    let state = this.#sessions.get(session);
    if (state?.keys.has(dedupeKey(rec.event))) return { buffered: false };
    if (!state) {
      if (this.#sessions.size >= this.maxSessions) {
        const oldest = this.#sessions.keys().next().value;
        if (oldest !== undefined) this.#sessions.delete(oldest);
      }
      state = { events: [], keys: new Set(), highWater: undefined, evictedHigh: undefined };
    } else {
      this.#sessions.delete(session); // re-inserted below: Map order is recency order
    }
    this.#sessions.set(session, state);

    const seq = rec.event.seq;
    const positioned = typeof seq === 'number';
    const pos: Position = positioned ? { epoch: rec.event.epoch ?? 0, seq } : (state.highWater ?? BEFORE_ALL);
    const held: Held = { ...rec, session, pos, positioned, ord: ++this.#ord };
    if (positioned && (!state.highWater || comparePositions(pos, state.highWater) > 0)) state.highWater = pos;

    const list = state.events;
    let i = list.length;
    while (i > 0 && after(list[i - 1]!, held)) i--;
    list.splice(i, 0, held);
    state.keys.add(dedupeKey(rec.event));
    while (list.length > this.perSession) {
      const gone = list.shift()!;
      state.keys.delete(dedupeKey(gone.event));
      if (!state.evictedHigh || comparePositions(gone.pos, state.evictedHigh) > 0) state.evictedHigh = gone.pos;
    }
    return { buffered: true, held };
  }

  /** Held events of `point.session` strictly after its position, with the exhaustion marker when owed. */
  replay(point: ResumePoint): Replay {
    const state = this.#sessions.get(point.session);
    if (!state) return { events: [] };
    const events = state.events.filter((h) => comparePositions(h.pos, point) > 0);
    const exhausted = state.evictedHigh && comparePositions(point, state.evictedHigh) < 0 ? state.events[0]?.pos : undefined;
    return exhausted ? { events, exhausted } : { events };
  }

  /** Every held session, each from its earliest held event (replay-all, AEP-0003 §5). */
  replayAll(): Held[] {
    return [...this.#sessions.values()].flatMap((s) => s.events);
  }

  /** Counts for `/healthz`. */
  stats(): { sessions: number; events: number } {
    let events = 0;
    for (const s of this.#sessions.values()) events += s.events.length;
    return { sessions: this.#sessions.size, events };
  }
}
