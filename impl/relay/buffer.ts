/**
 * The per-session replay buffer (AEP-0003 §5). Pure data structure, no I/O.
 *
 * Bytes first, by column: a held event is its received JSON text (a range of a per-session text
 * chunk) plus the index routing needs (position, arrival order, its `(source, agent, type, epoch)`
 * kind, where its id lies in its text, the over-declared mark), stored in typed arrays per
 * session (`held-columns.ts`): no object and no string per held event. `Held` records are made on
 * demand (`held-record.ts`); `Held.event` re-parses the text (validated at admission, so it parses
 * to the same value), and the last `MATERIALIZED` parses are memoized so a replay that reads an
 * event several times (filter, framing, rendering) parses it once.
 * `buffer-reference.ts` is the buffer as it was (parsed objects held), kept for the property
 * test that runs both side by side. The hub calls `settle` after each batch, so the held text is
 * a copy and keeps no batch body alive (docs/performance.md, issue 33: the columnar replay buffer).
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
import { HeldColumns } from './held-columns.js';
import { HeldRecord, type Held, type ParseMemo } from './held-record.js';
import { comparePositions, type Position, type ResumePoint } from './positions.js';
import type { Received } from './received.js';
import { shareRendering } from './render-link.js';

export type { Received } from './received.js';
export { MATERIALIZED, type Held } from './held-record.js';

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
 * The filter keys a held record answers from its index, with the same value its event has:
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
  return rec instanceof HeldRecord;
}

/** Positions are kept as two numbers in the session (no object per event or eviction). */
interface SessionState {
  /** The session name every record of the session shares (one string, not one per event). */
  readonly name: string;
  readonly events: HeldColumns;
  /** The highest own position admitted, when `high`. */
  high: boolean;
  highEpoch: number;
  highSeq: number;
  /** The highest position evicted, when `lost` (may be before every position: a seq-less event held first). */
  lost: boolean;
  lostEpoch: number;
  lostSeq: number;
  /** Whether the session is listed in the buffer's `#unsettled`. */
  unsettled: boolean;
}

/** The `id` of an event text whose id is not spelled verbatim in it (escapes): read from its parse. */
const parseId = (raw: string): string => (JSON.parse(raw) as AepEvent).id;

/** Whether `(epoch, seq)` is after `(e, s)`. */
const above = (epoch: number, seq: number, e: number, s: number): boolean => epoch > e || (epoch === e && seq > s);

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
  /** The most recently written session (the Map's last key), so a run of writes to it skips the re-insert. */
  #newest: string | undefined;
  /** Sessions written since the last `settle`, whose open text chunk may hold slices of a batch body. */
  #unsettled: SessionState[] = [];
  #ord = 0;

  /**
   * @param perSession events held per session (AEP_BUFFER)
   * @param maxSessions sessions held at once (AEP_MAX_SESSIONS)
   */
  constructor(readonly perSession: number, readonly maxSessions: number) {}

  /**
   * Offer an event for buffering. Returns `buffered: false` for agent-scoped events and for
   * a `(source, id)` already held in its session. Call once per accepted event, in arrival order.
   * The buffer keeps a copy of `rec.raw` and the index, not `rec.event` (as `store`: call `settle`
   * after a batch).
   */
  admit(rec: Received): { buffered: boolean; held?: Held } {
    const held = this.store(rec);
    return held === undefined ? { buffered: false } : { buffered: true, held };
  }

  /**
   * `admit` without the result object (the hub's fan-out path): the held record, or undefined when
   * not buffered. Call `settle` after a batch: until then the text may keep the batch body alive.
   */
  store(rec: Received): Held | undefined {
    const event = rec.event;
    const session = event.session;
    if (typeof session !== 'string') return undefined;
    let state = this.#sessions.get(session);
    if (state !== undefined && state.events.find(event.source, event.id) >= 0) return undefined;
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
      const events = new HeldColumns(this.perSession + 1, parseId);
      state = { name: session, events, high: false, highEpoch: 0, highSeq: 0, lost: lost !== undefined, lostEpoch: lost?.epoch ?? 0, lostSeq: lost?.seq ?? 0, unsettled: false };
      this.#sessions.set(session, state);
    } else if (session !== this.#newest) {
      this.#sessions.delete(session); // re-inserted last: Map order is recency order
      this.#sessions.set(session, state);
    }
    this.#newest = session;

    const seq = event.seq;
    const positioned = typeof seq === 'number';
    // A seq-less event is held at the session's high-water position (before all when none).
    const epoch = positioned ? (event.epoch ?? 0) : state.high ? state.highEpoch : -1;
    const at = positioned ? seq : state.high ? state.highSeq : -1;
    const ord = ++this.#ord;
    const events = state.events;
    if (!state.unsettled) {
      // Bounded even if `settle` is never called: it lists each session once.
      if (this.#unsettled.length >= this.maxSessions) this.settle();
      state.unsettled = true;
      this.#unsettled.push(state);
    }
    events.add(rec.raw, event.id, epoch, at, positioned ? ord : -ord, event.source, event.agent, event.type, rec.overDeclared);
    if (positioned && (!state.high || above(epoch, at, state.highEpoch, state.highSeq))) {
      state.high = true;
      state.highEpoch = epoch;
      state.highSeq = at;
    }
    const held = new HeldRecord(rec.raw, state.name, event.id, epoch, at, positioned ? ord : -ord, this.#parsed, event.agent, event.type, rec.overDeclared);
    // A down-levelled copy made for live delivery is the held record's too (made once per event and ceiling).
    shareRendering(rec, held);

    // Equal positions keep arrival order: the columns insert after every equal position.
    while (events.length > this.perSession) {
      const gone = events.slotAt(0);
      const e = events.epoch(gone);
      const s = events.seq(gone);
      if (!state.lost || above(e, s, state.lostEpoch, state.lostSeq)) {
        state.lost = true;
        state.lostEpoch = e;
        state.lostSeq = s;
      }
      events.shift();
    }
    return held;
  }

  /**
   * The end of a batch: the text of the events stored since the last call is copied into their
   * sessions' text chunks, so no held event keeps a received batch body alive.
   */
  settle(): void {
    const unsettled = this.#unsettled;
    if (unsettled.length === 0) return;
    for (const state of unsettled) {
      state.events.seal();
      state.unsettled = false;
    }
    this.#unsettled = [];
  }

  #rememberEvicted(session: string, state: SessionState): void {
    let high: Position | undefined;
    if (state.high) high = { epoch: state.highEpoch, seq: state.highSeq };
    if (state.lost && (!high || above(state.lostEpoch, state.lostSeq, high.epoch, high.seq))) high = { epoch: state.lostEpoch, seq: state.lostSeq };
    if (!high) return;
    this.#evicted.delete(session);
    this.#evicted.set(session, high);
    if (this.#evicted.size > 4 * this.maxSessions) this.#evicted.delete(this.#evicted.keys().next().value!);
  }

  /** The record of the event in `slot` of `state`. */
  #record(state: SessionState, slot: number): HeldRecord {
    const events = state.events;
    const raw = events.raw(slot);
    const kind = events.kind(slot);
    return new HeldRecord(raw, state.name, events.id(slot, raw), events.epoch(slot), events.seq(slot), events.signedOrd(slot), this.#parsed, kind.agent, kind.type, events.overDeclared(slot));
  }

  /** The records of `state` from index `from` in order on. */
  #records(state: SessionState, from: number): HeldRecord[] {
    const out: HeldRecord[] = [];
    for (let i = from; i < state.events.length; i++) out.push(this.#record(state, state.events.slotAt(i)));
    return out;
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
      const lost = this.#evicted.get(point.session) ?? (state?.lost ? { epoch: state.lostEpoch, seq: state.lostSeq } : undefined);
      if (lost && comparePositions(point, lost) < 0) return { events: [], exhausted: { epoch: lost.epoch, seq: lost.seq + 1 } };
      return lost ? { events: [] } : { events: [], unanchored: true };
    }
    const columns = state.events;
    const events = this.#records(state, columns.upperBound(point.epoch, point.seq));
    const head = columns.slotAt(0);
    const first = { epoch: columns.epoch(head), seq: columns.seq(head) };
    if (state.lost && !above(point.epoch, point.seq, state.lostEpoch, state.lostSeq)) return { events, exhausted: first };
    for (let i = 0; i < columns.length; i++) {
      const slot = columns.slotAt(i);
      if (columns.signedOrd(slot) < 0) continue;
      const earliest = { epoch: columns.epoch(slot), seq: columns.seq(slot) };
      if (comparePositions(point, earliest) < 0 && !isSuccessor(point, earliest)) return { events, exhausted: earliest };
      break;
    }
    return { events };
  }

  /** Every held session, each from its earliest held event (replay-all, AEP-0003 §5). */
  replayAll(): Held[] {
    return [...this.#sessions.values()].flatMap((s) => this.#records(s, 0));
  }

  /** Whether the event's `(source, id)` is held in its session (a new admit would be a duplicate). */
  has(event: AepEvent): boolean {
    const state = typeof event.session === 'string' ? this.#sessions.get(event.session) : undefined;
    return state !== undefined && state.events.find(event.source, event.id) >= 0;
  }

  /** Counts for `/healthz`. */
  stats(): { sessions: number; events: number } {
    let events = 0;
    for (const s of this.#sessions.values()) events += s.events.length;
    return { sessions: this.#sessions.size, events };
  }
}
