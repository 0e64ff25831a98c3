/**
 * TEST-ONLY: the replay buffer as it was before the bytes-first buffer (`buffer.ts`), kept
 * unchanged as the reference the property test (`buffer.property.test.ts`) drives side by side
 * with the new one. It holds the parsed event of every admitted record. Nothing but tests may
 * import it. Pure data structure, no I/O.
 *
 * The per-session replay buffer (AEP-0003 §5).
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
import type { AepEvent } from '../../core/event.js';
import { comparePositions, type Position, type ResumePoint } from '../positions.js';
import { SortedDeque } from '../sorted-deque.js';
import { isSuccessor, type Held, type Received, type Replay } from '../buffer.js';

interface SessionState {
  readonly events: SortedDeque<Held, Position>;
  readonly keys: HeldKeys;
  highWater: Position | undefined;
  evictedHigh: Position | undefined;
}

const BEFORE_ALL: Position = Object.freeze({ epoch: -1, seq: -1 });

const posOf = (h: Held): Position => h.pos;

// The held `(source, id)` pairs of a session, keyed by id (one hash per lookup): the source,
// or a set of sources once two sources share an id.
type HeldKeys = Map<string, string | Set<string>>;

/** Whether `keys` holds the event's `(source, id)`. */
function holds(keys: HeldKeys, e: AepEvent): boolean {
  const sources = keys.get(e.id);
  return sources === e.source || (typeof sources === 'object' && sources.has(e.source));
}

/** Record a pair found absent; `sources` is what `keys` holds for `e.id` (looked up by the caller). */
function hold(keys: HeldKeys, e: AepEvent, sources: string | Set<string> | undefined): void {
  if (sources === undefined) keys.set(e.id, e.source);
  else if (typeof sources === 'string') keys.set(e.id, new Set([sources, e.source]));
  else sources.add(e.source);
}

function release(keys: HeldKeys, e: AepEvent): void {
  const sources = keys.get(e.id);
  if (sources === e.source) keys.delete(e.id);
  else if (typeof sources === 'object') {
    sources.delete(e.source);
    if (sources.size === 0) keys.delete(e.id);
  }
}

export class ReferenceReplayBuffer {
  /** Sessions in recency order: the least recently written first. */
  readonly #sessions = new Map<string, SessionState>();
  /**
   * Sessions evicted whole, with the highest position they held (least recently evicted first),
   * so a later resume into one says `replay-exhausted` instead of nothing. Bounded to
   * `4 * maxSessions` names.
   */
  readonly #evicted = new Map<string, Position>();
  /** The most recently written session (the Map's last key), so a run of writes to it skips the re-insert. */
  #newest: string | undefined;
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
    // The sources already holding this id in the session: one lookup serves the dedupe and the record below.
    const sources = state?.keys.get(rec.event.id);
    if (sources === rec.event.source || (typeof sources === 'object' && sources.has(rec.event.source))) return { buffered: false };
    if (!state) {
      if (this.#sessions.size >= this.maxSessions) {
        const oldest = this.#sessions.entries().next().value;
        if (oldest !== undefined) {
          this.#sessions.delete(oldest[0]);
          this.#rememberEvicted(oldest[0], oldest[1]);
        }
      }
      // A session evicted earlier comes back knowing what it lost.
      const lost = this.#evicted.get(session);
      if (lost) this.#evicted.delete(session);
      state = { events: new SortedDeque(posOf, comparePositions), keys: new Map(), highWater: undefined, evictedHigh: lost };
      this.#sessions.set(session, state);
    } else if (session !== this.#newest) {
      this.#sessions.delete(session); // re-inserted last: Map order is recency order
      this.#sessions.set(session, state);
    }
    this.#newest = session;

    const seq = rec.event.seq;
    const positioned = typeof seq === 'number';
    const pos: Position = positioned ? { epoch: rec.event.epoch ?? 0, seq } : (state.highWater ?? BEFORE_ALL);
    const ord = ++this.#ord;
    // Spelled out rather than spread: a spread here costs more than all the rest of admit.
    const held: Held =
      rec.overDeclared === undefined ? { event: rec.event, raw: rec.raw, session, pos, positioned, ord } : { event: rec.event, raw: rec.raw, overDeclared: rec.overDeclared, session, pos, positioned, ord };
    if (positioned && (!state.highWater || comparePositions(pos, state.highWater) > 0)) state.highWater = pos;

    // Equal positions keep arrival order: the deque inserts after every equal key.
    state.events.insert(held);
    hold(state.keys, rec.event, sources);
    while (state.events.length > this.perSession) {
      const gone = state.events.shift()!;
      release(state.keys, gone.event);
      if (!state.evictedHigh || comparePositions(gone.pos, state.evictedHigh) > 0) state.evictedHigh = gone.pos;
    }
    return { buffered: true, held };
  }

  #rememberEvicted(session: string, state: SessionState): void {
    const high = [state.highWater, state.evictedHigh].reduce<Position | undefined>((a, b) => (!b ? a : !a || comparePositions(b, a) > 0 ? b : a), undefined);
    if (!high) return;
    this.#evicted.delete(session);
    this.#evicted.set(session, high);
    if (this.#evicted.size > 4 * this.maxSessions) this.#evicted.delete(this.#evicted.keys().next().value!);
  }

  /**
   * Held events of `point.session` strictly after its position, with the exhaustion marker when
   * owed (AEP-0003 §5): whenever the requested position is not the one right before the first
   * event delivered and the buffer does not cover it. That is: the position is at or before an
   * evicted one (the marker fires even if nothing after it was lost, the literal reading), or it
   * lies before the earliest held position without being its predecessor (e.g. after a restart),
   * or the whole session was evicted (then `earliest` is the position after the last one lost).
   */
  replay(point: ResumePoint): Replay {
    const state = this.#sessions.get(point.session);
    if (!state || state.events.length === 0) {
      const lost = this.#evicted.get(point.session) ?? state?.evictedHigh;
      if (lost && comparePositions(point, lost) < 0) return { events: [], exhausted: { epoch: lost.epoch, seq: lost.seq + 1 } };
      return lost ? { events: [] } : { events: [], unanchored: true };
    }
    const events = state.events.after(point);
    const first = state.events.first()!.pos;
    if (state.evictedHigh && comparePositions(point, state.evictedHigh) <= 0) return { events, exhausted: first };
    let earliest: Held | undefined;
    for (let i = 0; i < state.events.length && !earliest; i++) if (state.events.at(i)!.positioned) earliest = state.events.at(i);
    if (earliest && comparePositions(point, earliest.pos) < 0 && !isSuccessor(point, earliest.pos)) return { events, exhausted: earliest.pos };
    return { events };
  }

  /** Every held session, each from its earliest held event (replay-all, AEP-0003 §5). */
  replayAll(): Held[] {
    return [...this.#sessions.values()].flatMap((s) => s.events.toArray());
  }

  /** Whether the event's `(source, id)` is held in its session (a new admit would be a duplicate). */
  has(event: AepEvent): boolean {
    const state = typeof event.session === 'string' ? this.#sessions.get(event.session) : undefined;
    return state !== undefined && holds(state.keys, event);
  }

  /** Counts for `/healthz`. */
  stats(): { sessions: number; events: number } {
    let events = 0;
    for (const s of this.#sessions.values()) events += s.events.length;
    return { sessions: this.#sessions.size, events };
  }
}
