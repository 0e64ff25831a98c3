/**
 * The console's state, pure: what the streams and sockets said, folded into lanes, the attention
 * inbox, the roster and the commands in flight. No I/O and no timers: the clients (clients.ts)
 * feed it, the clock comes in as an argument, the views read it.
 *
 * Lanes take the filtered stream; the inbox takes its own, fixed subscription (attention,
 * control acks, run and session terminals), so a filter narrows the lanes without hiding a
 * request or the outcome of a command. Each stream keeps its own resume positions per
 * (relay, session) and drops anything at or before them: a reconnect resumes without
 * duplicates. A `replay-exhausted` gap becomes a visible gap item in its lane.
 */
import { advance, positionOf, toFrom, type Positions } from '../../operator/positions.js';

export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export type LaneItem = { kind: 'event'; event: Json } | { kind: 'gap'; epoch: number; seq: number };

export interface Lane {
  readonly key: string;
  readonly relay: string;
  readonly session: string;
  agent: string;
  items: LaneItem[];
  /** The open run, if one started and did not end. */
  openRun: string | undefined;
  /** The last run that ended, and how. */
  lastRunEnd: { run: string; type: string } | undefined;
  /** The open run is paused (`run.paused` seen, no `run.resumed` after it). */
  paused: boolean;
  /** The session ended: no steering any more. */
  ended: boolean;
}

export interface RosterEntry {
  readonly session: string;
  readonly agent: string | undefined;
  readonly instance: string | undefined;
  readonly accepts: readonly string[];
  readonly ackWindowMs: number | undefined;
}

/**
 * A link's state: `live`; `reconnecting` after a loss (it was live, or is retrying); `refused`
 * when the relay answered 401/403 (the console's token); `down` when it cannot be reached.
 */
export type LinkState =
  | { state: 'connecting' }
  | { state: 'live' }
  | { state: 'reconnecting'; detail: string }
  | { state: 'refused'; status: number; detail: string }
  | { state: 'down'; detail: string };

/** What the relay's discovery document said about the roster frame (AEP-0003 §4.1 rule 1). */
export type RosterSupport = 'pending' | 'advertised' | 'absent';

export interface RelayView {
  readonly id: string;
  readonly url: string;
  stream: LinkState;
  socket: LinkState;
  rosterSupport: RosterSupport;
  /** The last roster: every live claim, by session (two claims on one session: ambiguity); undefined until one arrived on the current socket. */
  roster: Map<string, RosterEntry[]> | undefined;
}

/** Whether a request's session has an owner the console can route to. */
export type Owner = 'yes' | 'gone' | 'ambiguous' | 'unknown' | 'no-roster';

export type RequestStatus = 'open' | 'answered' | 'resolved' | 'timeout' | 'ended';

export interface Request {
  readonly key: string;
  readonly relay: string;
  readonly event: Json;
  status: RequestStatus;
  /** The closing event (`attention.resolved`, `attention.timeout`, `session.ended`...). */
  closedBy: Json | undefined;
  /** The `attention.answered` event, when one was seen: the answer the outcome text reads. */
  answered: Json | undefined;
}

export type CommandState = 'sent' | 'accepted' | 'nacked' | 'timeout' | 'done';

export interface Command {
  readonly id: string;
  readonly relay: string;
  readonly session: string;
  readonly type: string;
  /** The request a respond answers, or the run a cancel names. */
  readonly target: string | undefined;
  readonly sentAt: number;
  readonly ackWindowMs: number;
  state: CommandState;
  reason: string | undefined;
  detail: string | undefined;
  by: 'target' | 'relay' | undefined;
  /** The outcome event that settled it (`run.paused`, `run.cancelled`, `attention.resolved`...). */
  outcome: string | undefined;
}

/** The default ack window when the target declared none (AEP-0004 §7's recommended 10 s). */
export const DEFAULT_ACK_WINDOW_MS = 10_000;

const TERMINAL_RUN = /^run\.(completed|finished|failed|cancelled)$/;
const SETTLING = /^attention\.(answered|resolved|timeout)$/;

const laneKey = (relay: string, session: string): string => `${relay}\u0000${session}`;
const requestKey = (relay: string, session: string, id: string): string => `${relay}\u0000${session}\u0000${id}`;

export class ConsoleModel {
  readonly relays = new Map<string, RelayView>();
  readonly lanes = new Map<string, Lane>();
  readonly requests = new Map<string, Request>();
  readonly commands = new Map<string, Command>();
  /** Resume positions per relay: lanes stream and inbox stream. */
  readonly #lanePos = new Map<string, Positions>();
  readonly #inboxPos = new Map<string, Positions>();
  /** Ids of unsequenced events already shown, per lane (they carry no position). */
  readonly #seenIds = new Map<string, Set<string>>();
  /** Answers and closings whose request has not arrived (yet): applied when it does. */
  readonly #early = new Map<string, { answered: Json | undefined; closedBy: Json | undefined }>();
  /** Duplicates dropped so far (a resume that re-sent what we had), for the status line. */
  duplicates = 0;
  /** Bumped on every change; the view re-renders when it moves. */
  version = 0;

  addRelay(id: string, url: string): void {
    this.relays.set(id, { id, url, stream: { state: 'connecting' }, socket: { state: 'connecting' }, rosterSupport: 'pending', roster: undefined });
    this.#lanePos.set(id, Object.create(null) as Positions);
    this.#inboxPos.set(id, Object.create(null) as Positions);
    this.version++;
  }

  /** The `from` a (re)connecting stream sends: every position it holds, or undefined on the first connect. */
  resumeFrom(relay: string, stream: 'lanes' | 'inbox'): Array<{ session: string; epoch: number; seq: number }> | undefined {
    const map = (stream === 'lanes' ? this.#lanePos : this.#inboxPos).get(relay);
    const from = map ? toFrom(map) : [];
    return from.length > 0 ? from : undefined;
  }

  /** Forget the lanes stream (a new filter is a new subscription: the lanes restart from the relay's replay). */
  resetLanes(relay: string): void {
    this.#lanePos.set(relay, Object.create(null) as Positions);
    for (const [k, lane] of this.lanes) if (lane.relay === relay) (this.lanes.delete(k), this.#seenIds.delete(k));
    this.version++;
  }

  setLink(relay: string, which: 'stream' | 'socket', state: LinkState): void {
    const r = this.relays.get(relay);
    if (!r) return;
    r[which] = state;
    if (which === 'socket' && state.state !== 'live') r.roster = undefined;
    this.version++;
  }

  setRosterSupport(relay: string, support: RosterSupport): void {
    const r = this.relays.get(relay);
    if (!r) return;
    r.rosterSupport = support;
    this.version++;
  }

  setRoster(relay: string, entries: unknown): void {
    const r = this.relays.get(relay);
    if (!r || !Array.isArray(entries)) return;
    const roster = new Map<string, RosterEntry[]>();
    for (const e of entries.map(obj)) {
      const session = str(e.session);
      if (session === undefined) continue;
      const control = obj(e.control);
      const accepts = Array.isArray(control.accepts) ? control.accepts.filter((a): a is string => typeof a === 'string') : [];
      const ack = typeof control.ack_window_ms === 'number' ? control.ack_window_ms : undefined;
      const list = roster.get(session) ?? [];
      list.push({ session, agent: str(e.agent), instance: str(e.instance), accepts, ackWindowMs: ack });
      roster.set(session, list);
    }
    r.roster = roster;
    this.version++;
  }

  /** An event on the lanes stream. Returns false when it was a duplicate and dropped. */
  laneEvent(relay: string, event: Json): boolean {
    const session = str(event.session);
    if (session === undefined) return false;
    const key = laneKey(relay, session);
    if (!this.#fresh(this.#lanePos.get(relay), key, event)) return (this.duplicates++, this.version++, false);
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { key, relay, session, agent: str(event.agent) ?? '-', items: [], openRun: undefined, lastRunEnd: undefined, paused: false, ended: false };
      this.lanes.set(key, lane);
    }
    if (lane.agent === '-' && str(event.agent)) lane.agent = str(event.agent)!;
    lane.items.push({ kind: 'event', event });
    const type = str(event.type) ?? '';
    const run = str(event.run);
    if (type === 'run.started' && run) (lane.openRun = run), (lane.paused = false), (lane.ended = false);
    else if (TERMINAL_RUN.test(type) && run) {
      if (lane.openRun === run) (lane.openRun = undefined), (lane.paused = false);
      lane.lastRunEnd = { run, type };
    } else if (type === 'run.paused') lane.paused = true;
    else if (type === 'run.resumed') lane.paused = false;
    else if (type === 'session.ended') (lane.openRun = undefined), (lane.paused = false), (lane.ended = true);
    this.version++;
    return true;
  }

  /** A `replay-exhausted` marker: the relay no longer holds what followed our position. */
  laneGap(relay: string, session: string, earliest: { epoch: number; seq: number }): void {
    const key = laneKey(relay, session);
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { key, relay, session, agent: '-', items: [], openRun: undefined, lastRunEnd: undefined, paused: false, ended: false };
      this.lanes.set(key, lane);
    }
    lane.items.push({ kind: 'gap', epoch: earliest.epoch, seq: earliest.seq });
    this.version++;
  }

  /** An event on the inbox stream: requests open and close, commands settle. */
  inboxEvent(relay: string, event: Json): boolean {
    const session = str(event.session);
    if (session === undefined) return false;
    if (!this.#fresh(this.#inboxPos.get(relay), `inbox\u0000${laneKey(relay, session)}`, event)) return false;
    const type = str(event.type) ?? '';
    const id = str(event.id);
    const subject = str(event.subject);
    if (type === 'attention.requested' && id) {
      const key = requestKey(relay, session, id);
      if (!this.requests.has(key)) {
        const r: Request = { key, relay, event, status: 'open', closedBy: undefined, answered: undefined };
        // Settled anywhere in the session's history (even before this copy of the request arrived, as after a relay restart): never open.
        const early = this.#early.get(requestKey(relay, session, id));
        if (early) this.#close(r, early.answered, early.closedBy);
        this.requests.set(key, r);
      }
    } else if (SETTLING.test(type) && subject) {
      const rk = requestKey(relay, session, subject);
      const r = this.requests.get(rk);
      if (r) this.#close(r, type === 'attention.answered' ? event : undefined, type === 'attention.answered' ? undefined : event);
      else {
        const early = this.#early.get(rk) ?? { answered: undefined, closedBy: undefined };
        if (type === 'attention.answered') early.answered = event;
        else early.closedBy = event;
        this.#early.set(rk, early);
      }
    } else if (type === 'session.ended') {
      for (const r of this.requests.values()) if (r.relay === relay && r.event.session === session && r.status === 'open') (r.status = 'ended'), (r.closedBy = event);
    }
    const cause = str(event.cause);
    const cmd = cause ? this.commands.get(cause) : undefined;
    if (cmd && cmd.relay === relay) {
      if (type === 'control.accepted' && cmd.state !== 'done') cmd.state = 'accepted';
      else if (type === 'control.rejected') {
        const d = obj(event.data);
        Object.assign(cmd, { state: 'nacked', reason: str(d.reason) ?? 'unknown', detail: str(d.detail), by: 'target' });
      } else if (!type.startsWith('control.') && cmd.state !== 'nacked') {
        // AEP-0004 §7: the outcome is an ordinary event cause-linked to the command.
        cmd.state = 'done';
        cmd.outcome = type;
      }
    }
    this.version++;
    return true;
  }

  /** A relay's `error` frame on the socket: a refusal of the command it names in `cause`. */
  socketError(relay: string, frame: Json): void {
    const cmd = this.commands.get(str(frame.cause) ?? '');
    if (!cmd || cmd.relay !== relay || cmd.state !== 'sent') return;
    Object.assign(cmd, { state: 'nacked', reason: str(frame.code) ?? 'error', detail: str(frame.detail), by: 'relay' });
    this.version++;
  }

  sent(cmd: Omit<Command, 'state' | 'reason' | 'detail' | 'by' | 'outcome'>): void {
    this.commands.set(cmd.id, { ...cmd, state: 'sent', reason: undefined, detail: undefined, by: undefined, outcome: undefined });
    this.version++;
  }

  /** Commands still unacknowledged after their window become timeouts. */
  tick(now: number): void {
    for (const c of this.commands.values()) {
      if (c.state === 'sent' && now - c.sentAt > c.ackWindowMs) {
        c.state = 'timeout';
        c.reason = 'timeout';
        c.detail = `no acknowledgement within ${c.ackWindowMs} ms`;
        this.version++;
      }
    }
  }

  /** The latest run-steering command (cancel, pause, resume) sent for a session, if any. */
  laneCommand(relay: string, session: string): Command | undefined {
    let last: Command | undefined;
    for (const c of this.commands.values()) if (c.relay === relay && c.session === session && c.type !== 'control.attention.respond') last = c;
    return last;
  }

  /** The latest command aimed at `target` (a request id or run), if any. */
  commandFor(relay: string, target: string): Command | undefined {
    let last: Command | undefined;
    for (const c of this.commands.values()) if (c.relay === relay && c.target === target) last = c;
    return last;
  }

  /**
   * Whether the request's owner is connected: `no-roster` when the relay does not advertise the
   * roster frame (the card stays answerable; a `no-route` nack says if no one owns it), `unknown`
   * while a roster is awaited, else `yes`, `gone` (no live claim) or `ambiguous` (two claims).
   */
  owner(relay: string, session: string): Owner {
    const r = this.relays.get(relay);
    if (!r) return 'unknown';
    if (r.rosterSupport === 'absent') return 'no-roster';
    if (r.rosterSupport === 'pending' || !r.roster) return 'unknown';
    const claims = r.roster.get(session)?.length ?? 0;
    return claims === 0 ? 'gone' : claims > 1 ? 'ambiguous' : 'yes';
  }

  /** The live claims on a session (the roster's entries), empty when none or unknown. */
  claims(relay: string, session: string): readonly RosterEntry[] {
    return this.relays.get(relay)?.roster?.get(session) ?? [];
  }

  /** Whether anyone here can answer the request: over control, and its owner not gone. */
  answerable(r: Request): boolean {
    const via = obj(r.event.data).respond_via;
    const overControl = !Array.isArray(via) || via.includes('control');
    return overControl && this.owner(r.relay, String(r.event.session)) !== 'gone';
  }

  /** Open requests across relays, oldest first. */
  inbox(): Request[] {
    return [...this.requests.values()].filter((r) => r.status === 'open').sort((a, b) => String(a.event.time ?? '').localeCompare(String(b.event.time ?? '')));
  }

  /** The triage: what can be answered here (oldest first) and what cannot (owner gone, `oob`). */
  triage(): { answerable: Request[]; elsewhere: Request[] } {
    const open = this.inbox();
    return { answerable: open.filter((r) => this.answerable(r)), elsewhere: open.filter((r) => !this.answerable(r)) };
  }

  /** Requests closed, newest first (the inbox's history). */
  closed(): Request[] {
    return [...this.requests.values()].filter((r) => r.status !== 'open').sort((a, b) => String(b.event.time ?? '').localeCompare(String(a.event.time ?? '')));
  }

  #close(r: Request, answered: Json | undefined, closing: Json | undefined): void {
    if (answered) r.answered = answered;
    if (!closing) {
      if (answered && r.status === 'open') r.status = 'answered';
      return;
    }
    const type = str(closing.type);
    if (type === 'attention.resolved') (r.status = 'resolved'), (r.closedBy = closing);
    else if (r.status === 'open' || r.status === 'answered') (r.status = type === 'attention.timeout' ? 'timeout' : 'resolved'), (r.closedBy = closing);
  }

  /** Whether an event is new for this stream; advances the stream's position when it is. */
  #fresh(positions: Positions | undefined, lane: string, event: Json): boolean {
    if (!positions) return false;
    if (positionOf(event)) return advance(positions, event);
    const id = str(event.id);
    if (id === undefined) return true;
    let seen = this.#seenIds.get(lane);
    if (!seen) this.#seenIds.set(lane, (seen = new Set()));
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  }
}
