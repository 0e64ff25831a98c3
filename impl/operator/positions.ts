/**
 * Resume positions, pure. A position belongs to one emitter's session: the key is
 * `(source, session)` (AEP-0001 §5.2: two sources carrying one `session` string are two
 * sessions that share a name), and redeliveries are recognised on `(source, id)` (§7.4).
 *
 * The wire `from` list (AEP-0003 §7) names bare sessions, so `toFrom` sends, per session name,
 * the EARLIEST position among its sources: the relay then replays every source from at or
 * before its own position, and the consumer drops the overlap on `(source, session)` positions
 * (`covers`) and `(source, id)` (`SeenIds`). Sending the latest instead would skip the other
 * sources' events.
 *
 * State file, version 2: `{"version":2,"positions":{"<session>":{"<source>":{"epoch":N,"seq":N}}},
 * "recent":[["<source>","<id>"], ...]}`. `recent` (optional) holds the last RECENT_MAX events seen
 * without a position (commands, `attention.routed`): the relay holds those right after the
 * session's high-water position, so a resume from an earlier source's position sends them again.
 * A version-1 file (`{"positions":{"<session>":{"epoch":N,"seq":N}}}`, or the bare map) is still
 * read: its positions do not say which source they belong to, so they are kept under the
 * source `""` (LEGACY) and used only to resume (`from`), never to drop an event; the first
 * event of a source in that session replaces it, and the next save writes version 2.
 */

type Json = Record<string, unknown>;

export interface Position {
  epoch: number;
  seq: number;
}

/** session → source → position (null-prototype maps at both levels). */
export type Positions = Record<string, Record<string, Position>>;

/** The source key of a version-1 position, whose source is unknown. No event carries an empty `source`. */
export const LEGACY = '';

/** Whether `a` is after `b`. */
export const after = (a: Position, b: Position): boolean => a.epoch > b.epoch || (a.epoch === b.epoch && a.seq > b.seq);

/** The `(source, id)` key of an event: the dedupe identity (AEP-0001 §7.4). */
export const eventKey = (e: Json): string => `${String(e.source)}\u0000${String(e.id)}`;

/** A new, empty position map. */
export const emptyPositions = (): Positions => Object.create(null) as Positions;

/** The event's source as a key: its `source`, or LEGACY when it has none (an invalid event). */
const sourceOf = (e: Json): string => (typeof e.source === 'string' ? e.source : LEGACY);

/** The event's position, or undefined for an unsequenced event (commands, agent.*). */
export function positionOf(e: Json): { source: string; session: string; pos: Position } | undefined {
  if (typeof e.session !== 'string' || typeof e.seq !== 'number') return undefined;
  return { source: sourceOf(e), session: e.session, pos: { epoch: typeof e.epoch === 'number' ? e.epoch : 0, seq: e.seq } };
}

/** The position held for `(source, session)`, if any. */
export function positionFor(map: Positions, source: string, session: string): Position | undefined {
  const bySource = Object.hasOwn(map, session) ? map[session]! : undefined;
  return bySource && Object.hasOwn(bySource, source) ? bySource[source] : undefined;
}

/** Sets `(source, session)` to `pos` unconditionally. Mutates `map`. */
export function setPosition(map: Positions, source: string, session: string, pos: Position): void {
  const bySource = Object.hasOwn(map, session) ? map[session]! : (map[session] = Object.create(null) as Record<string, Position>);
  bySource[source] = { epoch: pos.epoch, seq: pos.seq };
}

/**
 * Advances the event's `(source, session)` position; returns true when it moved. A sourced
 * position replaces a version-1 (LEGACY) one of the same session. Mutates `map`.
 */
export function advance(map: Positions, e: Json): boolean {
  const p = positionOf(e);
  if (!p) return false;
  const cur = positionFor(map, p.source, p.session);
  if (cur && !after(p.pos, cur)) return false;
  setPosition(map, p.source, p.session, p.pos);
  if (p.source !== LEGACY) delete map[p.session]![LEGACY];
  return true;
}

/**
 * Whether `map` already covers the event: a position for the event's own `(source, session)`
 * at or after it. LEGACY positions cover nothing (their source is unknown).
 */
export function covers(map: Positions, e: Json): boolean {
  const p = positionOf(e);
  if (!p || p.source === LEGACY) return false;
  const cur = positionFor(map, p.source, p.session);
  return cur !== undefined && !after(p.pos, cur);
}

/** Every `(source, session)` entry, in insertion order. */
export function entries(map: Positions): Array<{ source: string; session: string; pos: Position }> {
  const out: Array<{ source: string; session: string; pos: Position }> = [];
  for (const session of Object.keys(map)) for (const source of Object.keys(map[session]!)) out.push({ source, session, pos: map[session]![source]! });
  return out;
}

/** A deep copy (for a snapshot saved while events keep arriving). */
export function clonePositions(map: Positions): Positions {
  const out = emptyPositions();
  for (const x of entries(map)) setPosition(out, x.source, x.session, x.pos);
  return out;
}

/** The wire `from` list: per session name, the earliest position among its sources (see the header). */
export function toFrom(map: Positions): Array<{ session: string; epoch: number; seq: number }> {
  const out: Array<{ session: string; epoch: number; seq: number }> = [];
  for (const session of Object.keys(map)) {
    let min: Position | undefined;
    for (const p of Object.values(map[session]!)) if (!min || after(min, p)) min = p;
    if (min) out.push({ session, epoch: min.epoch, seq: min.seq });
  }
  return out;
}

const isPos = (p: unknown): p is Position => typeof p === 'object' && p !== null && Number.isInteger((p as Json).epoch) && Number.isInteger((p as Json).seq);

/** How many unpositioned events' keys a state file remembers. */
export const RECENT_MAX = 1000;

export type Recent = Array<[string, string]>;

/** Parses a state file's text (version 2 or 1); returns an error message for anything else. */
export function parseState(text: string): { ok: true; positions: Positions; recent: Recent; version: 1 | 2 } | { ok: false; error: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { ok: false, error: 'it is not JSON' };
  }
  const positions = emptyPositions();
  const shape = 'expected {"version":2,"positions":{"<session>":{"<source>":{"epoch":N,"seq":N}}}}';
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ok: false, error: shape };
  const doc = v as Json;
  if (doc.version === 2) {
    const src = doc.positions;
    if (typeof src !== 'object' || src === null || Array.isArray(src)) return { ok: false, error: shape };
    for (const [session, bySource] of Object.entries(src as Json)) {
      if (typeof bySource !== 'object' || bySource === null || Array.isArray(bySource)) return { ok: false, error: `session ${JSON.stringify(session)} is not a map of sources to positions` };
      for (const [source, p] of Object.entries(bySource as Json)) {
        if (!isPos(p)) return { ok: false, error: `session ${JSON.stringify(session)} of source ${JSON.stringify(source)} has no integer epoch and seq` };
        setPosition(positions, source, session, p);
      }
    }
    const recent = doc.recent ?? [];
    if (!Array.isArray(recent) || !recent.every((r) => Array.isArray(r) && r.length === 2 && typeof r[0] === 'string' && typeof r[1] === 'string')) {
      return { ok: false, error: 'recent must be a list of ["<source>", "<id>"] pairs' };
    }
    return { ok: true, positions, recent: (recent as Recent).slice(-RECENT_MAX), version: 2 };
  }
  if (doc.version !== undefined) return { ok: false, error: `version ${JSON.stringify(doc.version)} is not one this aep reads (1 or 2)` };
  const src = doc.positions ?? doc;
  if (typeof src !== 'object' || src === null || Array.isArray(src)) return { ok: false, error: shape };
  for (const [session, p] of Object.entries(src as Json)) {
    if (!isPos(p)) return { ok: false, error: `session ${JSON.stringify(session)} has no integer epoch and seq` };
    setPosition(positions, LEGACY, session, p);
  }
  return { ok: true, positions, recent: [], version: 1 };
}

export function renderState(map: Positions, recent: Recent = []): string {
  return `${JSON.stringify({ version: 2, positions: map, ...(recent.length > 0 ? { recent } : {}) }, null, 1)}\n`;
}

/** A bounded "seen" set on (source, id): redeliveries are dropped, memory stays bounded. */
export class SeenIds {
  private readonly set = new Set<string>();
  constructor(private readonly capacity = 100_000) {}
  /** True the first time this event is seen. */
  first(e: Json): boolean {
    const key = eventKey(e);
    if (this.set.has(key)) return false;
    this.set.add(key);
    if (this.set.size > this.capacity) this.set.delete(this.set.values().next().value as string);
    return true;
  }
}

/**
 * The consumer side of a resume, pure: what `follow` keeps of a subscription. An event is new
 * when its `(source, session)` position is not covered by the positions it started from (the
 * relay replays each session name from its earliest source, so the others' overlap comes back)
 * and its `(source, id)` was not seen on this run; a new event advances `positions`.
 */
export class Resume {
  private readonly horizon: Positions;
  private readonly loose = new Map<string, [string, string]>();
  constructor(
    readonly positions: Positions,
    private readonly seen: SeenIds = new SeenIds(),
    recent: Recent = [],
  ) {
    this.horizon = clonePositions(positions);
    for (const [source, id] of recent) {
      this.seen.first({ source, id });
      this.loose.set(eventKey({ source, id }), [source, id]);
    }
  }
  /** True when `e` is new here (its position is then advanced, or, without one, its key kept in `recent`). */
  admit(e: Json): boolean {
    if (covers(this.horizon, e) || !this.seen.first(e)) return false;
    if (!advance(this.positions, e) && !positionOf(e)) {
      this.loose.set(eventKey(e), [String(e.source), String(e.id)]);
      if (this.loose.size > RECENT_MAX) this.loose.delete(this.loose.keys().next().value as string);
    }
    return true;
  }
  /** The unpositioned events seen, newest last (for the state file). */
  recent(): Recent {
    return [...this.loose.values()];
  }
  /** The `from` list for the next subscription. */
  from(): Array<{ session: string; epoch: number; seq: number }> {
    return toFrom(this.positions);
  }
}
