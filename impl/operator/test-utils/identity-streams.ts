/**
 * Streams for the identity property tests: several sources that share ids and session names
 * (AEP-0001 §5.2, §7.4), interleaved, with redeliveries and consumer restarts. Each source numbers
 * its own ids (`e0`, `e1`, …: every source mints the same ids) and its own `(epoch, seq)` per
 * session (an epoch bump restarts seq at 0), exactly as independent conformant emitters may.
 * Also a model of the relay's replay (per session name, in position order, arrival breaking ties).
 */
import fc from 'fast-check';

export type Ev = Record<string, unknown> & { id: string; source: string; session: string };

export const SOURCES = ['aep://host-a/agent/alpha', 'aep://host-b/agent/beta', 'aep://host-c/agent/gamma'] as const;
export const SESSIONS = ['shared', 'also.shared'] as const;

/** One step of a script: an event of source `src` in session `ses`, and what happens around it. */
export interface Step {
  src: number;
  ses: number;
  /** The source restarted its counter: new epoch, seq from 0. */
  bump: boolean;
  /** An event without a position (`seq` omitted), as commands and `attention.routed` are. */
  loose: boolean;
  /** A redelivery of the event this many steps back (fan-out does not dedupe), when set. */
  dup: number | null;
  /** The consumer stops before this step and starts again after it (the event arrives meanwhile). */
  restart: boolean;
  /** The cause: the id of this source's event this many of its own events back, when set. */
  cause: number | null;
}

export const step = (o: { loose?: boolean; restart?: boolean } = {}): fc.Arbitrary<Step> =>
  fc.record({
    src: fc.nat(SOURCES.length - 1),
    ses: fc.nat(SESSIONS.length - 1),
    bump: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
    loose: o.loose ? fc.integer({ min: 0, max: 9 }).map((n) => n === 0) : fc.constant(false),
    dup: fc.option(fc.nat(12), { freq: 3 }),
    restart: o.restart === false ? fc.constant(false) : fc.integer({ min: 0, max: 7 }).map((n) => n === 0),
    cause: fc.option(fc.nat(4), { freq: 2 }),
  });

export const script = (o: { loose?: boolean; restart?: boolean; max?: number } = {}): fc.Arbitrary<Step[]> => fc.array(step(o), { minLength: 1, maxLength: o.max ?? 40 });

/** The events the steps emit, in arrival order (one per step). */
export function emit(steps: readonly Step[]): Ev[] {
  const nextId = new Map<number, number>();
  const pos = new Map<string, { epoch: number; seq: number }>();
  const mine = new Map<number, string[]>();
  return steps.map((s, i) => {
    const source = SOURCES[s.src]!;
    const session = SESSIONS[s.ses]!;
    const n = nextId.get(s.src) ?? 0;
    nextId.set(s.src, n + 1);
    const id = `e${n}`;
    const own = mine.get(s.src) ?? [];
    const cause = s.cause !== null && own.length > 0 ? own[Math.max(0, own.length - 1 - s.cause)] : undefined;
    own.push(id);
    mine.set(s.src, own);
    const base: Ev = { aep: '0.1', id, type: 'progress.status', time: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(), source, agent: source.split('/').pop()!, session, data: {}, ...(cause ? { cause } : {}) };
    if (s.loose) return base;
    const key = `${source} ${session}`;
    const cur = pos.get(key);
    const next = !cur ? { epoch: 1, seq: 0 } : s.bump ? { epoch: cur.epoch + 1, seq: 0 } : { epoch: cur.epoch, seq: cur.seq + 1 };
    pos.set(key, next);
    return { ...base, epoch: next.epoch, seq: next.seq };
  });
}

/** The `(source, id)` key. */
export const key = (e: Record<string, unknown>): string => `${String(e.source)} ${String(e.id)}`;

/** The distinct keys of `events`. */
export const distinct = (events: readonly Record<string, unknown>[]): Set<string> => new Set(events.map(key));

/** Keys that occur more than once. */
export function repeated(events: readonly Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  const twice: string[] = [];
  for (const e of events) {
    const k = key(e);
    if (seen.has(k)) twice.push(k);
    seen.add(k);
  }
  return twice;
}

type Pos = { epoch: number; seq: number };
const cmp = (a: Pos, b: Pos): number => a.epoch - b.epoch || a.seq - b.seq;

/**
 * The relay's replay of `held` (arrival order) for `from`: `'all'` replays every session name;
 * a position list replays the listed names strictly after their bare `(epoch, seq)` (AEP-0003 §7).
 * Within a session name, events go in position order, arrival breaking ties; an event without
 * a position is held right after the session's high-water position at its arrival.
 */
export function relayReplay(held: readonly Ev[], from: 'all' | ReadonlyArray<{ session: string; epoch: number; seq: number }>): Ev[] {
  const out: Ev[] = [];
  for (const session of SESSIONS) {
    const p = from === 'all' ? undefined : from.find((f) => f.session === session);
    if (from !== 'all' && !p) continue;
    let high: Pos = { epoch: -1, seq: -1 };
    const items = held
      .filter((e) => e.session === session)
      .map((e, i) => {
        if (typeof e.seq !== 'number') return { e, pos: high, loose: 1, i };
        const pos = { epoch: (e.epoch as number) ?? 0, seq: e.seq };
        if (cmp(pos, high) > 0) high = pos;
        return { e, pos, loose: 0, i };
      });
    items.sort((a, b) => cmp(a.pos, b.pos) || a.loose - b.loose || a.i - b.i);
    for (const x of items) if (!p || cmp(x.pos, p) > 0) out.push(x.e);
  }
  return out;
}
