/**
 * The relay's shared state and its one fan-out path: the replay buffer, the live
 * subscriptions (SSE streams and WS subscriptions), and the live WS connections that may
 * own sessions. No sockets here: sinks and peers are interfaces the bindings implement.
 */
import { compileFilter, type FilterMatch } from '../core/filter.js';
import type { CaptureLevel } from '../core/event.js';
import { ReplayBuffer, type Received } from './buffer.js';
import { routeCommand, type Claimant, type RefusalCode } from './control.js';
import type { Position, ReplayRequest, ResumePoint } from './positions.js';

/** A live subscription. */
export interface Sink {
  readonly filter: Readonly<Record<string, unknown>>;
  /**
   * `filter` compiled once at subscribe time (`compileFilter`). Optional: the hub compiles
   * `filter` once per sink when it is absent, never once per event.
   */
  readonly match?: FilterMatch;
  readonly ceiling: CaptureLevel | undefined;
  /**
   * Called synchronously during fan-out, once per matching event, in arrival order. A sink
   * with `flush` may hold what it is given until then; one without must send it here.
   */
  deliver(rec: Received): void;
  /**
   * Optional. Called once at the end of every fan-out (one `publish`, or one whole
   * `publishAll` batch), after its last `deliver`, even when a `deliver` threw: the sink
   * sends what it holds. Also called on sinks that got nothing or were removed meanwhile.
   */
  flush?(): void;
}

/** A live WS connection that may own sessions and receive routed commands. */
export interface Peer extends Claimant {
  /** Sends one text frame to the connection. */
  send(text: string): void;
  /** The roster entry (AEP-0003 §4.1) of this connection's claim on `session`, for a fleet-wide roster. */
  rosterEntry?(session: string): Readonly<Record<string, unknown>> & { readonly session: string };
}

/** What a subscription replays before it goes live. */
export interface ReplayPlan {
  /** One marker per requested session whose requested position predates the buffer. */
  readonly exhausted: ReadonlyArray<{ readonly session: string; readonly earliest: Position }>;
  /** Matching held events, in delivery order. */
  readonly events: readonly Received[];
  /**
   * Requested positions of sessions the relay holds nothing of and never evicted (e.g. after a
   * restart): the subscriber checks the first event it delivers of each (`GapWatch`).
   */
  readonly unanchored: readonly ResumePoint[];
}

/** A command's routing outcome: delivered to its one target, or refused with an AEP-0004 §4.2 code. */
export type Dispatch = { readonly ok: true } | { readonly ok: false; readonly code: RefusalCode; readonly detail: string };

/** What `/healthz` and discovery say about a fleet node. */
export interface FleetStatus {
  readonly node: string;
  readonly stream: string;
  readonly nats: 'reachable' | 'unreachable';
}

/**
 * The seam the HTTP, SSE and WebSocket code talks to. Two implementations: `Hub` (in memory,
 * one process, the default; every method answers synchronously) and `FleetHub` (fleet/,
 * NATS JetStream; the methods that touch NATS answer with a promise). Callers handle both
 * shapes (`await`, or `after` in socket.ts), so the in-memory path never waits a tick.
 */
export interface HubLike {
  /** Live subscriptions on this node. */
  readonly sinks: Set<Sink>;
  /** Live WS connections on this node. */
  readonly peers: Set<Peer>;
  /** Set on a fleet node. */
  fleet?(): FleetStatus;
  /** Counts for `/healthz`. */
  stats(): { sessions: number; events: number };
  plan(request: ReplayRequest, filter: Readonly<Record<string, unknown>> | FilterMatch): ReplayPlan;
  /**
   * Accept a batch of valid, non-refused events, in order: stored (deduped on `(source, id)`)
   * and forwarded to every matching live sink, duplicates included (AEP-0003 §5). Returns how
   * many were new. A fleet node resolves once JetStream acknowledged every event, and rejects
   * with `Unavailable` when NATS cannot take them.
   */
  ingest(recs: readonly Received[]): number | Promise<number>;
  /** A sequenced event of `session` from `peer`, which does not claim it yet: undefined when `peer` may claim it, else why not. */
  claim(peer: Peer, session: string): string | undefined | Promise<string | undefined>;
  /** Whether a target other than `peer` owns `session` (an ack from `peer` would be forged). */
  ownedElsewhere(peer: Peer, session: string): boolean | Promise<boolean>;
  /** Route a command to the one target that owns its session and send it there (AEP-0004 §4). */
  dispatch(command: Received, authenticated: boolean): Dispatch | Promise<Dispatch>;
  /** A connection closed: it owns nothing any more. */
  leave(peer: Peer): void;
  /**
   * Set on a fleet node: the roster entries of sessions that targets on OTHER nodes own (the
   * node's own connections answer for themselves). Rejects with `Unavailable` when NATS is away.
   */
  roster?(): Promise<ReadonlyArray<Readonly<Record<string, unknown>> & { readonly session: string }>>;
  /** Release what the hub holds outside this process (NATS connection, leases). */
  close(): Promise<void>;
}

/** Thrown (rejected) by a fleet hub when NATS cannot take or serve a request: HTTP 503. */
export class Unavailable extends Error {
  override name = 'Unavailable';
}

export class Hub implements HubLike {
  readonly buffer: ReplayBuffer;
  readonly sinks = new Set<Sink>();
  readonly peers = new Set<Peer>();

  /** @param log receives one line when a sink throws; the other sinks still get the event. */
  constructor(perSession: number, maxSessions: number, private readonly log: (line: string) => void = () => {}) {
    this.buffer = new ReplayBuffer(perSession, maxSessions);
  }

  /**
   * Accept one valid, non-refused event: buffer it (deduped on `(source, id)`) and forward it
   * to every matching live sink, duplicates included (AEP-0003 §5). Returns whether it was new.
   */
  publish(rec: Received): boolean {
    return this.publishAll([rec]) === 1;
  }

  ingest(recs: readonly Received[]): number {
    return this.publishAll(recs);
  }

  stats(): { sessions: number; events: number } {
    return this.buffer.stats();
  }

  claim(): undefined {
    return undefined;
  }

  ownedElsewhere(peer: Peer, session: string): boolean {
    for (const p of this.peers) if (p !== peer && p.claims.has(session)) return true;
    return false;
  }

  dispatch(command: Received, authenticated: boolean): Dispatch {
    const route = routeCommand(command.event, authenticated, this.peers);
    if (!route.ok) return route;
    route.target.send(command.raw);
    return { ok: true };
  }

  leave(peer: Peer): void {
    this.peers.delete(peer);
  }

  async close(): Promise<void> {}

  /**
   * `publish` every event of a batch in order, then `flush` the sinks once, so a subscriber
   * gets the batch in one write. Returns how many events were new (not duplicates).
   */
  publishAll(recs: readonly Received[]): number {
    // No sink can be added while the batch fans out (fan-out is synchronous and sinks are
    // added by request handlers), so one snapshot serves the batch; removals are checked per event.
    const sinks = [...this.sinks];
    const matchers = sinks.map((sink) => this.#matcher(sink));
    let fresh = 0;
    try {
      for (const rec of recs) {
        if (this.buffer.admit(rec).buffered || typeof rec.event.session !== 'string') fresh++;
        for (let i = 0; i < sinks.length; i++) {
          const sink = sinks[i]!;
          if (!this.sinks.has(sink)) continue;
          try {
            if (matchers[i]!(rec.event)) sink.deliver(rec);
          } catch (err) {
            this.log(`delivery of ${JSON.stringify(rec.event.id)} to one subscriber failed: ${describe(err)}`);
          }
        }
      }
    } finally {
      for (const sink of sinks) {
        try {
          sink.flush?.();
        } catch (err) {
          this.log(`delivery to one subscriber failed: ${describe(err)}`);
        }
      }
    }
    return fresh;
  }

  readonly #compiled = new WeakMap<Sink, FilterMatch>();

  /** The sink's compiled filter: its own `match`, else `filter` compiled once and kept. */
  #matcher(sink: Sink): FilterMatch {
    if (sink.match) return sink.match;
    let m = this.#compiled.get(sink);
    if (!m) this.#compiled.set(sink, (m = compileFilter(sink.filter)));
    return m;
  }

  /**
   * Compute the replay for a new subscription. The caller writes the markers, then the
   * events, then adds the sink, all in the same tick, so nothing falls between replay and live.
   */
  plan(request: ReplayRequest, filter: Readonly<Record<string, unknown>> | FilterMatch): ReplayPlan {
    if (request.kind === 'none') return { exhausted: [], events: [], unanchored: [] };
    const match = typeof filter === 'function' ? filter : compileFilter(filter);
    if (request.kind === 'all') return { exhausted: [], events: this.buffer.replayAll().filter((h) => match(h.event)), unanchored: [] };
    const exhausted: Array<{ session: string; earliest: Position }> = [];
    const events: Received[] = [];
    const unanchored: ResumePoint[] = [];
    for (const point of request.points) {
      const replay = this.buffer.replay(point);
      if (replay.exhausted) exhausted.push({ session: point.session, earliest: replay.exhausted });
      if (replay.unanchored) unanchored.push(point);
      for (const h of replay.events) if (match(h.event)) events.push(h);
    }
    return { exhausted, events, unanchored };
  }
}

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));
