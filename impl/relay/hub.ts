/**
 * The relay's shared state and its one fan-out path: the replay buffer, the live
 * subscriptions (SSE streams and WS subscriptions, `subscription.ts`), and the live WS
 * connections that may own sessions. No sockets here: subscriptions write through a
 * `SubscriptionWriter` and peers are an interface the WebSocket binding implements.
 * Nothing outside the hub touches its sets: subscriptions, peers and counts go through methods.
 */
import type { FailoverStatus } from './fleet/failover.js';
import { compileFilter, type FilterMatch } from '../core/filter.js';
import { FanoutSet } from './fanout-set.js';
import { onIndex, ReplayBuffer, type Held, type Received } from './buffer.js';
import { routeCommand, type Claimant, type RefusalCode } from './control.js';
import type { Position, ReplayRequest, ResumePoint } from './positions.js';
import { Subscription, type ReplayPlan, type SubscribeSpec, type SubscriptionWriter } from './subscription.js';

export type { ReplayPlan, SubscribeSpec, SubscriptionWriter } from './subscription.js';
export type { Subscription } from './subscription.js';

/** A roster entry (AEP-0003 §4.1): the session and its target's hello declarations. */
export type RosterEntry = Readonly<Record<string, unknown>> & { readonly session: string };

/** A live WS connection that may own sessions and receive routed commands. */
export interface Peer extends Claimant {
  /** Sends one text frame to the connection. */
  send(text: string): void;
  /** The roster entry (AEP-0003 §4.1) of this connection's claim on `session`; `{session}` alone when absent. */
  rosterEntry?(session: string): RosterEntry;
  /** Ends this connection's claim on `session` (its node lost the session's lease): its next event there claims again. */
  revoke?(session: string): void;
}

/** The outcome of any hub method that needs a fleet's NATS server while it is unreachable. */
export interface Unreachable {
  readonly ok: false;
  readonly code: 'unavailable';
  /** What could not be reached, for the error frame or 503 body (the caller adds what to do). */
  readonly detail: string;
}

/** `ingest`: how many events of the batch were new (not duplicates). */
export type Ingested = { readonly ok: true; readonly fresh: number } | Unreachable;
/** `claim`: the connection may own the session, or why not (`unauthorized`, with the reason). */
export type Claim = { readonly ok: true } | { readonly ok: false; readonly code: 'unauthorized'; readonly detail: string } | Unreachable;
/** `ownedElsewhere`: whether a target other than the asking connection owns the session. */
export type Ownership = { readonly ok: true; readonly elsewhere: boolean } | Unreachable;
/** A command's routing outcome: delivered to its one target, or refused with an AEP-0004 §4.2 code. */
export type Dispatch = { readonly ok: true } | { readonly ok: false; readonly code: RefusalCode; readonly detail: string };
/** `roster`: every session a live target owns, this node's connections first. */
export type Roster = { readonly ok: true; readonly entries: readonly RosterEntry[] } | Unreachable;

/** What `/healthz` and discovery say about a fleet node. */
export interface FleetStatus {
  readonly node: string;
  readonly stream: string;
  readonly nats: 'reachable' | 'unreachable';
  /** Publishes held through a stream failover: the one under way, the last one (fleet/failover.ts). */
  readonly failover?: FailoverStatus;
}

/** Counts for `/healthz`. */
export interface HubStats {
  readonly sessions: number;
  readonly events: number;
  /** Live subscriptions on this node (SSE streams and WS subscriptions). */
  readonly subscribers: number;
}

/**
 * The seam the HTTP, SSE and WebSocket code talks to. Two implementations: `Hub` (in memory,
 * one process, the default) and `FleetHub` (fleet/, NATS JetStream). One calling shape for
 * both: every method that may need NATS answers with a promise of data, never a rejection for
 * an unreachable NATS (`Unreachable`); a rejection means a defect. The in-memory hub does its
 * work before it returns (storing and fan-out happen in the `ingest` call itself), so events
 * are stored and fanned out in call order.
 */
export interface HubLike {
  /** Set on a fleet node. */
  fleet?(): FleetStatus;
  stats(): HubStats;
  /**
   * Open a subscription: its replay plan is computed now, its markers and replay go to
   * `writer`, and (when `spec.live`) it joins the fan-out in this same call. The transport
   * calls `close()` on the result when it goes away.
   */
  subscribe(spec: SubscribeSpec, writer: SubscriptionWriter): Subscription;
  /**
   * Accept a batch of valid, non-refused events, in order: stored (deduped on `(source, id)`)
   * and forwarded to every matching live subscription, duplicates included (AEP-0003 §5).
   * Answers how many were new. A fleet node answers once JetStream acknowledged every event.
   */
  ingest(recs: readonly Received[]): Promise<Ingested>;
  /**
   * `ingest`, answered in the call: set only on a hub that stores and fans out synchronously
   * (the in-memory hub), so a transport may hand it the events of several frames at once
   * without a promise per event. A fleet node has none: it waits for JetStream.
   */
  ingestNow?(recs: readonly Received[]): Ingested;
  /** A connection that completed its hello: it may claim sessions and receive commands. */
  attach(peer: Peer): void;
  /** A connection closed: it owns nothing any more. */
  leave(peer: Peer): void;
  /** A sequenced event of `session` from `peer`, which does not claim it yet: may `peer` claim it? */
  claim(peer: Peer, session: string): Promise<Claim>;
  /** Whether a target other than `peer` owns `session` (an ack from `peer` would be forged). */
  ownedElsewhere(peer: Peer, session: string): Promise<Ownership>;
  /** Route a command to the one target that owns its session and send it there (AEP-0004 §4). */
  dispatch(command: Received, authenticated: boolean): Promise<Dispatch | Unreachable>;
  /** The roster (AEP-0003 §4.1): this node's claims, and on a fleet node the other nodes' too. */
  roster(): Promise<Roster>;
  /** Release what the hub holds outside this process (NATS connection, leases). */
  close(): Promise<void>;
}

/** Thrown inside a fleet hub when NATS cannot take or serve a request; its methods answer `Unreachable`. */
export class Unavailable extends Error {
  override name = 'Unavailable';
}

/** `err` as the `Unreachable` outcome when it is an `Unavailable`; any other error is rethrown. */
export function unreachable(err: unknown): Unreachable {
  if (err instanceof Unavailable) return { ok: false, code: 'unavailable', detail: err.message };
  throw err;
}

const CLAIMED: Claim = { ok: true };

export class Hub implements HubLike {
  readonly buffer: ReplayBuffer;
  readonly #subs = new FanoutSet();
  readonly #peers = new Set<Peer>();

  /** @param log receives one line when a subscription throws; the others still get the event. */
  constructor(perSession: number, maxSessions: number, private readonly log: (line: string) => void = () => {}) {
    this.buffer = new ReplayBuffer(perSession, maxSessions);
  }

  /**
   * Accept one valid, non-refused event: buffer it (deduped on `(source, id)`) and forward it
   * to every matching live subscription, duplicates included (AEP-0003 §5). Returns whether it was new.
   */
  publish(rec: Received): boolean {
    return this.publishAll([rec]) === 1;
  }

  async ingest(recs: readonly Received[]): Promise<Ingested> {
    return { ok: true, fresh: this.publishAll(recs) };
  }

  ingestNow(recs: readonly Received[]): Ingested {
    return { ok: true, fresh: this.publishAll(recs) };
  }

  stats(): HubStats {
    const { sessions, events } = this.buffer.stats();
    return { sessions, events, subscribers: this.#subs.size };
  }

  subscribe(spec: SubscribeSpec, writer: SubscriptionWriter): Subscription {
    const plan = this.plan(spec.replay, spec.match, onIndex(spec.filter));
    const sub = new Subscription(spec, plan, writer);
    sub.start(plan, this.#subs);
    return sub;
  }

  attach(peer: Peer): void {
    this.#peers.add(peer);
  }

  leave(peer: Peer): void {
    this.#peers.delete(peer);
  }

  async claim(): Promise<Claim> {
    return CLAIMED;
  }

  async ownedElsewhere(peer: Peer, session: string): Promise<Ownership> {
    return { ok: true, elsewhere: this.claimedElsewhere(peer, session) };
  }

  async dispatch(command: Received, authenticated: boolean): Promise<Dispatch> {
    return this.route(command, authenticated);
  }

  async roster(): Promise<Roster> {
    return { ok: true, entries: this.localRoster() };
  }

  async close(): Promise<void> {}

  /**
   * End every claim of this process's connections on `session` (a fleet node lost its lease to
   * another node): the next sequenced event of such a connection claims again. Answers how many
   * connections claimed it.
   */
  revoke(session: string): number {
    let ended = 0;
    for (const p of this.#peers) {
      if (!p.claims.has(session)) continue;
      p.revoke?.(session);
      ended++;
    }
    return ended;
  }

  /** Whether a connection of this process other than `peer` claims `session`. */
  claimedElsewhere(peer: Peer | undefined, session: string): boolean {
    for (const p of this.#peers) if (p !== peer && p.claims.has(session)) return true;
    return false;
  }

  /** Route `command` among this process's connections and send it to its target: `dispatch`, synchronously. */
  route(command: Received, authenticated: boolean): Dispatch {
    const route = routeCommand(command.event, authenticated, this.#peers);
    if (!route.ok) return route;
    route.target.send(command.raw);
    return { ok: true };
  }

  /** The roster entries of this process's connections, one per claimed session. */
  localRoster(): RosterEntry[] {
    const entries: RosterEntry[] = [];
    for (const peer of this.#peers) for (const session of peer.claims) entries.push(peer.rosterEntry?.(session) ?? { session });
    return entries;
  }

  /**
   * Store every event of a batch in order and forward each to the matching live subscriptions,
   * then `flush` them once, so a subscriber gets the batch in one write. Returns how many events
   * were new (not duplicates). Each event is matched once per distinct filter (`FanoutSet`), and
   * the subscriptions of one filter are handed the same selection, in order (`deliverAll`).
   */
  publishAll(recs: readonly Received[]): number {
    // No subscription can be added while the batch fans out (fan-out is synchronous and
    // subscriptions are opened by request handlers), so one set of groups serves the batch;
    // removals are checked per subscription.
    const groups = this.#subs.groups();
    const selected: Received[][] = groups.map(() => []);
    let fresh = 0;
    try {
      for (const rec of recs) {
        if (this.buffer.store(rec) !== undefined || typeof rec.event.session !== 'string') fresh++;
        for (let g = 0; g < groups.length; g++) {
          const group = groups[g]!;
          try {
            if (group.match(rec.event)) selected[g]!.push(rec);
          } catch (err) {
            for (let i = 0; i < group.subs.length; i++) this.log(`delivery of ${JSON.stringify(rec.event.id)} to one subscriber failed: ${describe(err)}`);
          }
        }
      }
    } finally {
      // The held text of the batch no longer refers to the batch body (`ReplayBuffer.settle`).
      this.buffer.settle();
      // A subscription that takes its selection whole gets it now; the others get the events one
      // by one, interleaved as before grouping (per event, in joining order), so the frames of
      // several subscriptions on one WebSocket keep the order they always had.
      const oneByOne = new Map<Subscription, { selection: readonly Received[]; next: number }>();
      for (let g = 0; g < groups.length; g++) {
        const selection = selected[g]!;
        if (selection.length > 0) for (const sub of groups[g]!.subs) if (!this.#takeAll(sub, selection)) oneByOne.set(sub, { selection, next: 0 });
      }
      if (oneByOne.size > 0) {
        const order = this.#subs.ordered.filter((sub) => oneByOne.has(sub));
        for (const rec of recs) {
          for (const sub of order) {
            const state = oneByOne.get(sub)!;
            if (state.selection[state.next] !== rec) continue;
            state.next++;
            this.#deliverOne(sub, rec);
          }
        }
      }
      // What the writers build for this fan-out (one encoded batch per selection and ceiling), shared
      // among them; the largest selections first, so the smaller ones can be cut from them (`sse-bytes.ts`).
      const shared: unknown[] = [];
      const order = groups.length < 2 ? [0] : groups.map((_, g) => g).sort((a, b) => selected[b]!.length - selected[a]!.length);
      for (const g of order) {
        const group = groups[g];
        if (!group) continue;
        for (const sub of group.subs) {
          try {
            sub.flush(shared);
          } catch (err) {
            this.log(`delivery to one subscriber failed: ${describe(err)}`);
          }
        }
      }
    }
    return fresh;
  }

  /** The selection to one subscription at once, when it can take it whole; false when it must get the events one by one. */
  #takeAll(sub: Subscription, selection: readonly Received[]): boolean {
    if (sub.ended) return true;
    try {
      return sub.deliverAll(selection);
    } catch (err) {
      this.log(`delivery to one subscriber failed: ${describe(err)}`);
      return true;
    }
  }

  /** One event to one subscription (the path of a subscription that cannot take a selection whole). */
  #deliverOne(sub: Subscription, rec: Received): void {
    if (sub.ended) return;
    try {
      sub.deliver(rec);
    } catch (err) {
      this.log(`delivery of ${JSON.stringify(rec.event.id)} to one subscriber failed: ${describe(err)}`);
    }
  }

  /**
   * Compute the replay for a new subscription (`subscribe` writes the markers, then joins the
   * fan-out, then replays the events, all in the same tick, so nothing falls between replay and live).
   */
  plan(request: ReplayRequest, filter: Readonly<Record<string, unknown>> | FilterMatch, indexOnly = typeof filter === 'object' && onIndex(filter)): ReplayPlan {
    if (request.kind === 'none') return { exhausted: [], events: [], unanchored: [] };
    const compiled = typeof filter === 'function' ? filter : compileFilter(filter);
    // A filter on `INDEX_KEYS` only reads the held record's own fields, never its parsed event.
    const match = indexOnly ? (h: Held): boolean => compiled(h as unknown as Readonly<Record<string, unknown>>) : (h: Held): boolean => compiled(h.event);
    if (request.kind === 'all') return { exhausted: [], events: this.buffer.replayAll().filter(match), unanchored: [] };
    const exhausted: Array<{ session: string; earliest: Position }> = [];
    const events: Received[] = [];
    const unanchored: ResumePoint[] = [];
    for (const point of request.points) {
      const replay = this.buffer.replay(point);
      if (replay.exhausted) exhausted.push({ session: point.session, earliest: replay.exhausted });
      if (replay.unanchored) unanchored.push(point);
      for (const h of replay.events) if (match(h)) events.push(h);
    }
    return { exhausted, events, unanchored };
  }
}

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));
