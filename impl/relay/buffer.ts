/**
 * The per-session replay buffer (AEP-0003 §5). Pure data structure, no I/O.
 *
 * Bytes first: a held event is its received JSON text plus the index routing needs (session,
 * id, source, position, arrival order, the over-declared mark). No parsed object is kept
 * per held event; `Held.event` re-parses the text on demand (the text was validated at
 * admission, so it parses to the same value), and the last `MATERIALIZED` parses are memoized
 * so a replay that reads an event several times (filter, framing, rendering) parses it once.
 * `buffer-reference.ts` is the buffer as it was (parsed objects held), kept for the property
 * test that runs both side by side.
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
import type { Received } from './received.js';
import { shareRendering } from './render-link.js';
import { SortedDeque } from './sorted-deque.js';

export type { Received } from './received.js';

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
  /**
   * Set when the relay cannot vouch that nothing lies between the requested position and the
   * first event it delivers (AEP-0003 §5): the earliest position it will deliver from.
   */
  readonly exhausted?: Position;
  /**
   * Set when the session holds nothing and was never evicted here (e.g. after a restart): the
   * relay cannot judge yet, so the subscriber checks the first event it delivers (`GapWatch`).
   */
  readonly unanchored?: true;
}

/** Whether `next` is the position right after `pos` (same epoch, next seq). */
export function isSuccessor(pos: Position, next: Position): boolean {
  return next.epoch === pos.epoch && next.seq === pos.seq + 1;
}

/**
 * How many held events keep their parsed form at once (the most recently parsed ones): more than
 * one session at the default `AEP_BUFFER` (10 000), so a replay that filters a whole session and
 * then frames it parses each event once. About 1 KiB per kept parse of a ~600 B event.
 */
export const MATERIALIZED = 16_384;

/**
 * The memoized parses of one buffer: at most `MATERIALIZED`, the oldest dropped first (Map order
 * is insertion order). Kept beside the held events rather than in a field of each (each held
 * event pays one reference to its buffer's memo). One per buffer, not one per process: a
 * module-level memo kept up to 16 384 events (their text and parsed form, tens of MB) of a relay
 * after it closed (issue 37, the soak's heap after close).
 */
type ParseMemo = Map<HeldEvent, AepEvent>;

/**
 * A held event: the received text and its index, never the parsed object (except while it is
 * one of the last `MATERIALIZED` parsed). Implements `Held`, so it goes wherever a `Received` goes.
 * It is its own sort key: `epoch` and `seq` are its position (its attach point when seq-less).
 */
class HeldEvent implements Held, Position {
  declare readonly overDeclared?: boolean;
  /** The arrival counter, negated for a seq-less event (one field for `ord` and `positioned`). */
  readonly #order: number;

  constructor(
    readonly raw: string,
    /** The session and the event's `id`: the index the buffer reads without parsing (the `source` is in the session's keys). */
    readonly session: string,
    readonly id: string,
    readonly epoch: number,
    readonly seq: number,
    positioned: boolean,
    ord: number,
    /** The buffer's parse memo. */
    private readonly parsed: ParseMemo,
    /** The event's `agent` and `type`, so the common filters match on the index (`INDEX_KEYS`) without a parse. */
    readonly agent: string | undefined,
    readonly type: string,
  ) {
    this.#order = positioned ? ord : -ord;
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

  /** The event, parsed from `raw` on demand; the last `MATERIALIZED` parses are kept. */
  get event(): AepEvent {
    const parsed = this.parsed;
    let event = parsed.get(this);
    if (event === undefined) {
      event = JSON.parse(this.raw) as AepEvent;
      if (parsed.size >= MATERIALIZED) parsed.delete(parsed.keys().next().value!);
      parsed.set(this, event);
    }
    return event;
  }
}

/** Distinct event types a buffer shares one string for. */
const TYPES = 1024;

/**
 * The filter keys a held event answers from its index, with the same value its event has:
 * a filter naming only these (`onIndex`) is matched against the held record itself, which
 * carries them as own fields, so a replay filters without parsing a single event.
 */
export const INDEX_KEYS: readonly string[] = ['session', 'agent', 'type', 'id'];

/** Whether every key of `filter` is one of `INDEX_KEYS`. */
export function onIndex(filter: Readonly<Record<string, unknown>>): boolean {
  for (const key of Object.keys(filter)) if (!INDEX_KEYS.includes(key)) return false;
  return true;
}

/** Whether `rec` is an event held by a `ReplayBuffer` (its parsed form is not kept). */
export function isHeldRecord(rec: Received): boolean {
  return rec instanceof HeldEvent;
}

interface SessionState {
  /** The session name every held event of the session shares (one string, not one per event). */
  readonly name: string;
  readonly events: SortedDeque<HeldEvent, Position>;
  readonly keys: HeldKeys;
  highWater: Position | undefined;
  evictedHigh: Position | undefined;
  /** The source of the last event admitted, so a run from one source shares one string. */
  lastSource: string;
  /** The agent of the last event admitted, likewise. */
  lastAgent: string | undefined;
}

const BEFORE_ALL: Position = Object.freeze({ epoch: -1, seq: -1 });

const posOf = (h: HeldEvent): Position => h;

// The held `(source, id)` pairs of a session, keyed by id (one hash per lookup): the source,
// or a set of sources once two sources share an id.
type HeldKeys = Map<string, string | Set<string>>;

/** Whether `keys` holds the pair `(source, id)`. */
function holds(keys: HeldKeys, source: string, id: string): boolean {
  const sources = keys.get(id);
  return sources === source || (typeof sources === 'object' && sources.has(source));
}

/** Record a pair found absent; `sources` is what `keys` holds for `id` (looked up by the caller). */
function hold(keys: HeldKeys, source: string, id: string, sources: string | Set<string> | undefined): void {
  if (sources === undefined) keys.set(id, source);
  else if (typeof sources === 'string') keys.set(id, new Set([sources, source]));
  else sources.add(source);
}

/**
 * Forget an evicted event's pair. A lone source for its id is its own (every held pair is in
 * `keys`), so only an id shared by several sources needs the event's `source`, read from its text.
 */
function release(keys: HeldKeys, gone: HeldEvent): void {
  const sources = keys.get(gone.id);
  if (typeof sources === 'string') keys.delete(gone.id);
  else if (typeof sources === 'object') {
    sources.delete(gone.event.source);
    if (sources.size === 0) keys.delete(gone.id);
  }
}

export class ReplayBuffer {
  /** Sessions in recency order: the least recently written first. */
  readonly #sessions = new Map<string, SessionState>();
  /**
   * Sessions evicted whole, with the highest position they held (least recently evicted first),
   * so a later resume into one says `replay-exhausted` instead of nothing. Bounded to
   * `4 * maxSessions` names.
   */
  readonly #evicted = new Map<string, Position>();
  /** The last `MATERIALIZED` parses of this buffer's held events (see `ParseMemo`). */
  readonly #parsed: ParseMemo = new Map();
  /** Event types seen, so held events share one string per type (bounded: past `TYPES`, a type is held as it came). */
  readonly #types = new Map<string, string>();
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
   * The buffer keeps `rec.raw` and the index, not `rec.event`.
   */
  admit(rec: Received): { buffered: boolean; held?: Held } {
    const held = this.store(rec);
    return held === undefined ? { buffered: false } : { buffered: true, held };
  }

  /** `admit` without the result object (the hub's fan-out path): the held record, or undefined when not buffered. */
  store(rec: Received): Held | undefined {
    const event = rec.event;
    const session = event.session;
    if (typeof session !== 'string') return undefined;
    let state = this.#sessions.get(session);
    // The sources already holding this id in the session: one lookup serves the dedupe and the record below.
    const sources = state?.keys.get(event.id);
    if (sources === event.source || (typeof sources === 'object' && sources.has(event.source))) return undefined;
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
      state = { name: session, events: new SortedDeque(posOf, comparePositions), keys: new Map(), highWater: undefined, evictedHigh: lost, lastSource: event.source, lastAgent: event.agent };
      this.#sessions.set(session, state);
    } else if (session !== this.#newest) {
      this.#sessions.delete(session); // re-inserted last: Map order is recency order
      this.#sessions.set(session, state);
    }
    this.#newest = session;

    const seq = event.seq;
    const positioned = typeof seq === 'number';
    // No position object per event: the held event is its own position (`epoch`, `seq`).
    const at = positioned ? undefined : (state.highWater ?? BEFORE_ALL);
    const source = event.source === state.lastSource ? state.lastSource : (state.lastSource = event.source);
    const agent = event.agent === state.lastAgent ? state.lastAgent : (state.lastAgent = event.agent);
    const held = new HeldEvent(rec.raw, state.name, event.id, at ? at.epoch : (event.epoch ?? 0), at ? at.seq : seq!, positioned, ++this.#ord, this.#parsed, agent, this.#type(event.type));
    if (rec.overDeclared !== undefined) (held as { overDeclared?: boolean }).overDeclared = rec.overDeclared;
    if (positioned && (!state.highWater || comparePositions(held, state.highWater) > 0)) state.highWater = held;
    // A down-levelled copy made for live delivery is the held event's too (made once per event and ceiling).
    shareRendering(rec, held);

    // Equal positions keep arrival order: the deque inserts after every equal key.
    state.events.insert(held);
    hold(state.keys, source, held.id, sources);
    while (state.events.length > this.perSession) {
      const gone = state.events.shift()!;
      release(state.keys, gone);
      // The evicted event is its own position (no object per eviction); it stays alive, one per
      // session, until the next eviction replaces it.
      if (!state.evictedHigh || comparePositions(gone, state.evictedHigh) > 0) state.evictedHigh = gone;
    }
    return held;
  }

  #type(type: string): string {
    const known = this.#types.get(type);
    if (known !== undefined) return known;
    if (this.#types.size < TYPES) this.#types.set(type, type);
    return type;
  }

  #rememberEvicted(session: string, state: SessionState): void {
    const high = [state.highWater, state.evictedHigh].reduce<Position | undefined>((a, b) => (!b ? a : !a || comparePositions(b, a) > 0 ? b : a), undefined);
    if (!high) return;
    this.#evicted.delete(session);
    // A copy: `high` may be a held event (its text must not outlive the session).
    this.#evicted.set(session, { epoch: high.epoch, seq: high.seq });
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
    let earliest: HeldEvent | undefined;
    for (let i = 0; i < state.events.length && !earliest; i++) if (state.events.at(i)!.positioned) earliest = state.events.at(i);
    if (earliest && comparePositions(point, earliest) < 0 && !isSuccessor(point, earliest)) return { events, exhausted: earliest.pos };
    return { events };
  }

  /** Every held session, each from its earliest held event (replay-all, AEP-0003 §5). */
  replayAll(): Held[] {
    return [...this.#sessions.values()].flatMap((s) => s.events.toArray());
  }

  /** Whether the event's `(source, id)` is held in its session (a new admit would be a duplicate). */
  has(event: AepEvent): boolean {
    const state = typeof event.session === 'string' ? this.#sessions.get(event.session) : undefined;
    return state !== undefined && holds(state.keys, event.source, event.id);
  }

  /** Counts for `/healthz`. */
  stats(): { sessions: number; events: number } {
    let events = 0;
    for (const s of this.#sessions.values()) events += s.events.length;
    return { sessions: this.#sessions.size, events };
  }
}
