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
}

export interface RosterEntry {
  readonly session: string;
  readonly agent: string | undefined;
  readonly accepts: readonly string[];
  readonly ackWindowMs: number | undefined;
}

export type LinkState = { state: 'connecting' } | { state: 'live' } | { state: 'down'; detail: string };

export interface RelayView {
  readonly id: string;
  readonly url: string;
  stream: LinkState;
  socket: LinkState;
  /** The last roster, by session; undefined until one arrived on the current socket. */
  roster: Map<string, RosterEntry> | undefined;
}

export type RequestStatus = 'open' | 'answered' | 'resolved' | 'timeout' | 'ended';

export interface Request {
  readonly key: string;
  readonly relay: string;
  readonly event: Json;
  status: RequestStatus;
  /** The closing event's type and data (`attention.answered`/`resolved`...). */
  closedBy: Json | undefined;
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
}

/** The default ack window when the target declared none (AEP-0004 §7's recommended 10 s). */
export const DEFAULT_ACK_WINDOW_MS = 10_000;

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
  /** Duplicates dropped so far (a resume that re-sent what we had), for the status line. */
  duplicates = 0;
  /** Bumped on every change; the view re-renders when it moves. */
  version = 0;

  addRelay(id: string, url: string): void {
    this.relays.set(id, { id, url, stream: { state: 'connecting' }, socket: { state: 'connecting' }, roster: undefined });
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

  setRoster(relay: string, entries: unknown): void {
    const r = this.relays.get(relay);
    if (!r || !Array.isArray(entries)) return;
    const roster = new Map<string, RosterEntry>();
    for (const e of entries.map(obj)) {
      const session = str(e.session);
      if (session === undefined) continue;
      const control = obj(e.control);
      const accepts = Array.isArray(control.accepts) ? control.accepts.filter((a): a is string => typeof a === 'string') : [];
      const ack = typeof control.ack_window_ms === 'number' ? control.ack_window_ms : undefined;
      roster.set(session, { session, agent: str(e.agent), accepts, ackWindowMs: ack });
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
      lane = { key, relay, session, agent: str(event.agent) ?? '-', items: [], openRun: undefined, lastRunEnd: undefined };
      this.lanes.set(key, lane);
    }
    if (lane.agent === '-' && str(event.agent)) lane.agent = str(event.agent)!;
    lane.items.push({ kind: 'event', event });
    const type = str(event.type) ?? '';
    const run = str(event.run);
    if (type === 'run.started' && run) lane.openRun = run;
    else if (/^run\.(completed|failed|cancelled)$/.test(type) && run) {
      if (lane.openRun === run) lane.openRun = undefined;
      lane.lastRunEnd = { run, type };
    } else if (type === 'session.ended') lane.openRun = undefined;
    this.version++;
    return true;
  }

  /** A `replay-exhausted` marker: the relay no longer holds what followed our position. */
  laneGap(relay: string, session: string, earliest: { epoch: number; seq: number }): void {
    const key = laneKey(relay, session);
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { key, relay, session, agent: '-', items: [], openRun: undefined, lastRunEnd: undefined };
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
      if (!this.requests.has(key)) this.requests.set(key, { key, relay, event, status: 'open', closedBy: undefined });
    } else if ((type === 'attention.answered' || type === 'attention.resolved' || type === 'attention.timeout') && subject) {
      const r = this.requests.get(requestKey(relay, session, subject));
      if (r && (r.status === 'open' || type === 'attention.resolved')) {
        r.status = type === 'attention.answered' ? 'answered' : type === 'attention.resolved' ? 'resolved' : 'timeout';
        r.closedBy = event;
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
      } else if (type === 'run.cancelled') cmd.state = 'done';
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

  sent(cmd: Omit<Command, 'state' | 'reason' | 'detail' | 'by'>): void {
    this.commands.set(cmd.id, { ...cmd, state: 'sent', reason: undefined, detail: undefined, by: undefined });
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

  /** The latest command aimed at `target` (a request id or run), if any. */
  commandFor(relay: string, target: string): Command | undefined {
    let last: Command | undefined;
    for (const c of this.commands.values()) if (c.relay === relay && c.target === target) last = c;
    return last;
  }

  /**
   * Whether the request's owner is connected: `yes` when the relay's roster lists its session,
   * `gone` when a roster arrived without it, `unknown` while the socket has no roster.
   */
  owner(relay: string, session: string): 'yes' | 'gone' | 'unknown' {
    const roster = this.relays.get(relay)?.roster;
    if (!roster) return 'unknown';
    return roster.has(session) ? 'yes' : 'gone';
  }

  /** Open requests across relays, newest first. */
  inbox(): Request[] {
    return [...this.requests.values()].filter((r) => r.status === 'open').sort((a, b) => String(b.event.time ?? '').localeCompare(String(a.event.time ?? '')));
  }

  /** Requests closed, newest first (the inbox's history). */
  closed(): Request[] {
    return [...this.requests.values()].filter((r) => r.status !== 'open').sort((a, b) => String(b.event.time ?? '').localeCompare(String(a.event.time ?? '')));
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
