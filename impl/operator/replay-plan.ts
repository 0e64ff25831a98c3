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

/** A growable column of numbers. */
class Column<T extends Float64Array | Uint32Array> {
  constructor(public data: T) {}
  set(i: number, v: number): void {
    if (i >= this.data.length) {
      const next = new (this.data.constructor as new (n: number) => T)(Math.max(1024, this.data.length * 2));
      next.set(this.data);
      this.data = next;
    }
    this.data[i] = v;
  }
}

/** One step of a {@link LeanPlan}: which kept event, after how long, stamped with which time. */
export interface LeanStep {
  /** The event's `ref`, as given to {@link ReplayIndex.add}. */
  ref: number;
  delayMs: number;
  /** Index of the kept event, for {@link ReplayIndex.rewrite}. */
  kept: number;
}

/**
 * The plan's index: what a replay must keep of a capture to order it, and nothing more. Per event
 * kept: its group, recorded (epoch, seq) and time, the caller's `ref` (e.g. where its line is in
 * the file), its recorded id (the duplicate check and the cause/subject map) and, once planned, its
 * new id: about 200 bytes whatever the event's size. The events themselves are not held: the
 * caller re-reads each one by its `ref` and {@link rewrite}s it.
 */
export class ReplayIndex {
  skippedCommands = 0;
  duplicates = 0;
  unusable = 0;
  /** Every value given to {@link add}. */
  lines = 0;
  private kept = 0;
  private readonly group = new Column(new Uint32Array(1024));
  private readonly epoch = new Column(new Float64Array(1024));
  /** NaN: no numeric seq (an unsequenced event). */
  private readonly seq = new Column(new Float64Array(1024));
  private readonly rec = new Column(new Float64Array(1024));
  private readonly refs = new Column(new Float64Array(1024));
  /** 1: the recorded id is a string (only those are rewritable cause/subject targets). */
  private readonly stringId = new Column(new Uint32Array(1024));
  /** Per recorded source: String(id) -> kept index (the (source, id) duplicate check). */
  private readonly ids = new Map<string, Map<string, number>>();
  /** Per recorded source, per session ('' for none): the group index. */
  private readonly groupOf = new Map<string, Map<string, number>>();
  private readonly groups: Array<{ source: string; session: string; members: number[] }> = [];
  private newIds: string[] = [];
  private outSeq = new Uint32Array(0);
  private replayNames: string[] = [];
  private clock = new Float64Array(0);

  /** One value of the capture, in file order; `ref` is how the caller finds it again. */
  add(v: unknown, ref: number): void {
    this.lines++;
    if (typeof v !== 'object' || v === null || Array.isArray(v) || typeof (v as Json).type !== 'string') {
      this.unusable++;
      return;
    }
    const e = v as Json;
    if (isCommand(e.type)) {
      this.skippedCommands++;
      return;
    }
    const source = String(e.source);
    let ofSource = this.ids.get(source);
    if (ofSource === undefined) this.ids.set(source, (ofSource = new Map()));
    const id = String(e.id);
    if (ofSource.has(id)) {
      this.duplicates++;
      return;
    }
    const k = this.kept++;
    ofSource.set(id, k);
    const session = typeof e.session === 'string' ? e.session : '';
    let sessions = this.groupOf.get(source);
    if (sessions === undefined) this.groupOf.set(source, (sessions = new Map()));
    let gi = sessions.get(session);
    if (gi === undefined) {
      sessions.set(session, (gi = this.groups.length));
      this.groups.push({ source, session, members: [] });
    }
    this.groups[gi]!.members.push(k);
    this.group.set(k, gi);
    // The recorded order compares `epoch ?? 0` and seq as numbers, as the JSON values would.
    this.epoch.set(k, typeof e.seq === 'number' ? Number(e.epoch ?? 0) : 0);
    this.seq.set(k, typeof e.seq === 'number' ? e.seq : NaN);
    this.rec.set(k, ms(e.time));
    this.refs.set(k, ref);
    this.stringId.set(k, typeof e.id === 'string' ? 1 : 0);
  }

  /**
   * The plan: per group (in order of first appearance) a replay session name, then new ids in the
   * recorded order; then the groups interleaved by recorded time. Call once, after the last add.
   */
  plan(o: ReplayOptions): { steps: LeanStep[]; groups: GroupSummary[] } {
    const n = this.kept;
    const epoch = this.epoch.data;
    const seq = this.seq.data;
    this.newIds = new Array<string>(n);
    this.outSeq = new Uint32Array(n);
    const orders: number[][] = [];
    const summaries: GroupSummary[] = [];
    for (const g of this.groups) {
      // Recorded (epoch, seq) order is the authority; unsequenced events keep their file order.
      const seqd = g.members.filter((k) => !Number.isNaN(seq[k]!)).sort((a, b) => epoch[a]! - epoch[b]! || seq[a]! - seq[b]! || a - b);
      const ordered = seqd.concat(g.members.filter((k) => Number.isNaN(seq[k]!)));
      g.members = []; // the order replaces them
      const replay = g.session === '' ? '' : `replay-${o.newId()}`;
      this.replayNames.push(replay);
      for (const k of ordered) if (this.stringId.data[k] === 1) this.newIds[k] = o.newId();
      let next = 0;
      for (const k of ordered) {
        if (this.stringId.data[k] !== 1) this.newIds[k] = o.newId();
        if (!Number.isNaN(seq[k]!)) this.outSeq[k] = next++;
      }
      orders.push(ordered);
      summaries.push({ source: g.source, session: g.session, replay, events: ordered.length });
    }
    // Interleave groups by recorded time, each group keeping its own order.
    const rec = this.rec.data;
    const heads = orders.map(() => 0);
    const steps: LeanStep[] = [];
    this.clock = new Float64Array(n);
    const speed = o.speed && o.speed > 0 ? o.speed : 1;
    let prevRec: number | undefined;
    let clock = o.now;
    for (;;) {
      let pick = -1;
      for (let gi = 0; gi < orders.length; gi++) {
        const h = orders[gi]![heads[gi]!];
        if (h !== undefined && (pick < 0 || rec[h]! < rec[orders[pick]![heads[pick]!]!]!)) pick = gi;
      }
      if (pick < 0) break;
      const k = orders[pick]![heads[pick]!++]!;
      let gap = prevRec === undefined ? 0 : Math.max(0, rec[k]! - prevRec);
      if (o.maxGapMs !== undefined) gap = Math.min(gap, o.maxGapMs);
      const delayMs = Math.round(gap / speed);
      prevRec = prevRec === undefined ? rec[k]! : Math.max(prevRec, rec[k]!);
      clock += delayMs;
      this.clock[k] = clock;
      steps.push({ ref: this.refs.data[k]!, delayMs, kept: k });
    }
    return { steps, groups: summaries };
  }

  /** The replayed copy of kept event `kept`, given the recorded event `e` (its value re-read by `ref`). */
  rewrite(kept: number, e: Json, o: Pick<ReplayOptions, 'epoch' | 'source'>): Json {
    const gi = this.group.data[kept]!;
    const g = this.groups[gi]!;
    const out: Json = { ...e, id: this.newIds[kept], source: o.source };
    if (g.session !== '') out.session = this.replayNames[gi];
    if (!Number.isNaN(this.seq.data[kept]!)) {
      out.epoch = o.epoch;
      out.seq = this.outSeq[kept];
    }
    const ofSource = this.ids.get(g.source)!;
    for (const key of ['cause', 'subject'] as const) {
      const ref = e[key];
      if (typeof ref !== 'string') continue;
      const target = ofSource.get(ref);
      if (target !== undefined && this.group.data[target] === gi && this.stringId.data[target] === 1) out[key] = this.newIds[target];
    }
    if (g.session !== '') out.aepreplayof = g.session;
    out.aepreplayid = String(e.id);
    if (typeof e.time === 'string') out.aepreplaytime = e.time;
    out.time = new Date(this.clock[kept]!).toISOString();
    return out;
  }
}

/** The whole plan over values held in memory (the index, with each event looked up by its position). */
export function planReplay(input: unknown[], o: ReplayOptions): ReplayPlan {
  const index = new ReplayIndex();
  input.forEach((v, n) => index.add(v, n));
  const { steps, groups } = index.plan(o);
  const events = steps.map((s) => ({ delayMs: s.delayMs, event: index.rewrite(s.kept, input[s.ref] as Json, o) }));
  return { events, groups, skippedCommands: index.skippedCommands, duplicates: index.duplicates, unusable: index.unusable };
}
