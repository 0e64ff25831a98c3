/**
 * `aep replay`'s plan, pure: a capture becomes NEW sessions (a re-emitter cannot carry a
 * foreign emitter's (epoch, seq) forward, AEP-0001 §7). Per recorded (source, session) group:
 * duplicates coalesced on (source, id) first, recorded (epoch, seq) order kept, then fresh ids,
 * one fresh epoch, contiguous seq from 0, restamped time; cause and subject references rewritten
 * through the group's id map; provenance in the extension attributes aepreplayof (the recorded
 * session), aepreplayid (the recorded id) and aepreplaytime (the recorded time). Commands are
 * skipped: a replay must never drive a live target. Groups interleave by recorded time.
 */

type Json = Record<string, unknown>;

export interface ReplayOptions {
  /** Fresh ids (ULIDs in the CLI). */
  newId: () => string;
  /** The replay's start, ms since the epoch. */
  now: number;
  /** The fresh epoch (seconds in the CLI). */
  epoch: number;
  source: string;
  /** Pacing: recorded gaps divided by `speed` (default 1), each capped at `maxGapMs` first. */
  speed?: number;
  maxGapMs?: number;
}

export interface PlannedEvent {
  /** Wait this long after the previous emission. */
  delayMs: number;
  event: Json;
}

export interface GroupSummary {
  source: string;
  session: string;
  replay: string;
  events: number;
}

export interface ReplayPlan {
  events: PlannedEvent[];
  groups: GroupSummary[];
  skippedCommands: number;
  duplicates: number;
  /** Lines that were not events (not an object, no type). */
  unusable: number;
}

/** Any `control.{verb}` other than the two acks is a command (the relay reads it so too). */
export function isCommand(type: unknown): boolean {
  return typeof type === 'string' && type.startsWith('control.') && type !== 'control.accepted' && type !== 'control.rejected' || (typeof type === 'string' && /^x\.[a-z0-9_-]+\.control\./.test(type));
}

const ms = (t: unknown): number => {
  const v = typeof t === 'string' ? Date.parse(t) : NaN;
  return Number.isNaN(v) ? 0 : v;
};

export function planReplay(input: unknown[], o: ReplayOptions): ReplayPlan {
  let skippedCommands = 0;
  let duplicates = 0;
  let unusable = 0;
  const seen = new Set<string>();
  const groups = new Map<string, { source: string; session: string; items: Array<{ e: Json; n: number }> }>();
  input.forEach((v, n) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v) || typeof (v as Json).type !== 'string') {
      unusable++;
      return;
    }
    const e = v as Json;
    if (isCommand(e.type)) {
      skippedCommands++;
      return;
    }
    const key = `${String(e.source)}\u0000${String(e.id)}`;
    if (seen.has(key)) {
      duplicates++;
      return;
    }
    seen.add(key);
    const session = typeof e.session === 'string' ? e.session : '';
    const gk = `${String(e.source)}\u0000${session}`;
    const g = groups.get(gk) ?? { source: String(e.source), session, items: [] };
    g.items.push({ e, n });
    groups.set(gk, g);
  });
  const merged: Array<{ e: Json; out: Json; rec: number; g: number; i: number }> = [];
  const summaries: GroupSummary[] = [];
  [...groups.values()].forEach((g, gi) => {
    // Recorded (epoch, seq) order is the authority; unsequenced events keep their file order.
    const seqd = g.items.filter((x) => typeof x.e.seq === 'number').sort((a, b) => ((a.e.epoch as number) ?? 0) - ((b.e.epoch as number) ?? 0) || (a.e.seq as number) - (b.e.seq as number) || a.n - b.n);
    const loose = g.items.filter((x) => typeof x.e.seq !== 'number');
    const ordered = [...seqd, ...loose];
    const replay = g.session === '' ? '' : `replay-${o.newId()}`;
    const ids = new Map<string, string>();
    for (const x of ordered) if (typeof x.e.id === 'string') ids.set(x.e.id, o.newId());
    let seq = 0;
    ordered.forEach((x, i) => {
      const out: Json = { ...x.e, id: ids.get(x.e.id as string) ?? o.newId(), source: o.source };
      if (g.session !== '') out.session = replay;
      if (typeof x.e.seq === 'number') {
        out.epoch = o.epoch;
        out.seq = seq++;
      }
      for (const k of ['cause', 'subject'] as const) if (typeof x.e[k] === 'string' && ids.has(x.e[k] as string)) out[k] = ids.get(x.e[k] as string);
      if (g.session !== '') out.aepreplayof = g.session;
      out.aepreplayid = String(x.e.id);
      if (typeof x.e.time === 'string') out.aepreplaytime = x.e.time;
      merged.push({ e: x.e, out, rec: ms(x.e.time), g: gi, i });
    });
    summaries.push({ source: g.source, session: g.session, replay, events: ordered.length });
  });
  // Interleave groups by recorded time, each group keeping its own order.
  const heads = summaries.map(() => 0);
  const byGroup = summaries.map((_, gi) => merged.filter((m) => m.g === gi));
  const events: PlannedEvent[] = [];
  const speed = o.speed && o.speed > 0 ? o.speed : 1;
  let prevRec: number | undefined;
  let clock = o.now;
  for (;;) {
    let pick = -1;
    for (let gi = 0; gi < byGroup.length; gi++) {
      const h = byGroup[gi]![heads[gi]!];
      if (h && (pick < 0 || h.rec < byGroup[pick]![heads[pick]!]!.rec)) pick = gi;
    }
    if (pick < 0) break;
    const m = byGroup[pick]![heads[pick]!++]!;
    let gap = prevRec === undefined ? 0 : Math.max(0, m.rec - prevRec);
    if (o.maxGapMs !== undefined) gap = Math.min(gap, o.maxGapMs);
    const delayMs = Math.round(gap / speed);
    prevRec = prevRec === undefined ? m.rec : Math.max(prevRec, m.rec);
    clock += delayMs;
    m.out.time = new Date(clock).toISOString();
    events.push({ delayMs, event: m.out });
  }
  return { events, groups: summaries, skippedCommands, duplicates, unusable };
}
