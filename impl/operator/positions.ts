/**
 * Resume positions per session (AEP-0003 §7), pure: the highest (epoch, seq) seen per session,
 * the `from` list it becomes, and the state file's shape (checked on load, never trusted).
 */

type Json = Record<string, unknown>;

export interface Position {
  epoch: number;
  seq: number;
}

export type Positions = Record<string, Position>;

/** Whether `a` is after `b`. */
export const after = (a: Position, b: Position): boolean => a.epoch > b.epoch || (a.epoch === b.epoch && a.seq > b.seq);

/** The event's position, or undefined for an unsequenced event (commands, agent.*). */
export function positionOf(e: Json): { session: string; pos: Position } | undefined {
  if (typeof e.session !== 'string' || typeof e.seq !== 'number') return undefined;
  return { session: e.session, pos: { epoch: typeof e.epoch === 'number' ? e.epoch : 0, seq: e.seq } };
}

/** Advances `map` with `e`; returns true when it moved. Mutates `map` (null-prototype safe). */
export function advance(map: Positions, e: Json): boolean {
  const p = positionOf(e);
  if (!p) return false;
  const cur = Object.hasOwn(map, p.session) ? map[p.session] : undefined;
  if (cur && !after(p.pos, cur)) return false;
  map[p.session] = p.pos;
  return true;
}

export function toFrom(map: Positions): Array<{ session: string; epoch: number; seq: number }> {
  return Object.entries(map).map(([session, p]) => ({ session, epoch: p.epoch, seq: p.seq }));
}

/** Parses a state file's text; returns an error message for anything that is not a position map. */
export function parseState(text: string): { ok: true; positions: Positions } | { ok: false; error: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { ok: false, error: 'it is not JSON' };
  }
  const positions: Positions = Object.create(null) as Positions;
  const src = typeof v === 'object' && v !== null && !Array.isArray(v) ? ((v as Json).positions ?? v) : undefined;
  if (typeof src !== 'object' || src === null || Array.isArray(src)) return { ok: false, error: 'expected {"positions": {"<session>": {"epoch": N, "seq": N}}}' };
  for (const [session, p] of Object.entries(src as Json)) {
    const pos = p as Json;
    if (typeof pos !== 'object' || pos === null || !Number.isInteger(pos.epoch) || !Number.isInteger(pos.seq)) {
      return { ok: false, error: `session ${JSON.stringify(session)} has no integer epoch and seq` };
    }
    positions[session] = { epoch: pos.epoch as number, seq: pos.seq as number };
  }
  return { ok: true, positions };
}

export function renderState(map: Positions): string {
  return `${JSON.stringify({ positions: map }, null, 1)}\n`;
}

/** A bounded "seen" set on (source, id): redeliveries are dropped, memory stays bounded. */
export class SeenIds {
  private readonly set = new Set<string>();
  constructor(private readonly capacity = 100_000) {}
  /** True the first time this event is seen. */
  first(e: Json): boolean {
    const key = `${String(e.source)}\u0000${String(e.id)}`;
    if (this.set.has(key)) return false;
    this.set.add(key);
    if (this.set.size > this.capacity) this.set.delete(this.set.values().next().value as string);
    return true;
  }
}
