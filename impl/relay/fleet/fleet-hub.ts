/**
 * `FleetHub`: the relay's hub on a NATS JetStream stream shared by every node of a fleet.
 *
 * - Ingest publishes each session event to `aep.{stream}.ev.{session token}` with
 *   `Nats-Msg-Id` = hash of `(source, id)` and resolves once JetStream acknowledged every one
 *   (and this node applied them, so a replay right after the 202 holds them, unless its stream
 *   reader is not serving: then the events reach this node when it is back). The stream keeps
 *   one copy: a pair this node already holds, or repeated in the batch, is not published; a
 *   pair JetStream drops as a duplicate within its window is counted a duplicate.
 * - Failover (failover.ts): a publish the stream does not acknowledge because it has no leader
 *   (a server died) or NATS is between servers is held and tried again, with the same message
 *   id, for at most `AEP_NATS_FAILOVER_MS` from the request's start; only then does ingest answer
 *   `unavailable` (503 with `Retry-After`). A retried event JetStream reports as a duplicate was
 *   stored by an earlier attempt of the same request: it counts as new, and is not sent live
 *   again. The failover under way and the last one are on `/healthz` (`fleet.failover`), and
 *   each ended failover is one log line with its duration.
 * - Every node reads the whole stream (stream-reader.ts: an ordered consumer, recreated from the
 *   last applied sequence when the server it lives on dies) into its own in-memory `Hub`
 *   (replay buffer + fan-out), so SSE, WebSocket, filters, ceilings and resume are the single
 *   relay's code, fed in stream order.
 * - Live-only copies (a redelivered duplicate, AEP-0003 §5; an agent-scoped event, never
 *   buffered) go over core NATS `aep.{stream}.live`, tagged with the stream position they
 *   follow; each node forwards them once it applied that position.
 * - Control: ownership leases (ownership.ts); a command for a session owned on another node
 *   is sent to `aep.{stream}.ctl.{node}`, which routes it to its local target and replies
 *   with the routing outcome. Acks are events: they reach consumers through the stream.
 */
import { jetstream, jetstreamManager, type JetStreamClient, type JsMsg, type PubAck } from '@nats-io/jetstream';
import { headers, type MsgHdrs, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import type { AepEvent } from '../../core/event.js';
import type { Received } from '../buffer.js';
import { routeCommand } from '../control.js';
import { Hub, Unavailable, unreachable, type Claim, type Dispatch, type FleetStatus, type HubLike, type HubStats, type Ingested, type Ownership, type Peer, type Roster, type Subscription as HubSubscription, type SubscribeSpec, type SubscriptionWriter, type Unreachable } from '../hub.js';
import type { FleetConfig } from './config.js';
import { connectFleet } from './connect.js';
import { fleetNames, messageId, type FleetNames } from './names.js';
import type { RosterEntry } from './ownership.js';
import { Leases } from './ownership.js';
import { ensureStream, ownershipBucket, streamConfig, untilReady } from './stream.js';
import { StreamReader } from './stream-reader.js';
import { attemptTimeout, failoverLine, FailoverRecord, isRetryable, MIN_ATTEMPT_MS, pauseBefore } from './failover.js';

export interface FleetHubOptions {
  readonly fleet: FleetConfig;
  /** AEP_BUFFER and AEP_MAX_SESSIONS: the local buffer's bounds and the stream's limits. */
  readonly buffer: number;
  readonly maxSessions: number;
  readonly log: (line: string) => void;
  /** How long setup may wait for NATS (ms). Default 60 s. */
  readonly setupMs?: number;
}

/** How long a routed command waits for its reply. */
const ROUTE_TIMEOUT_MS = 3_000;
/**
 * A request held through a failover is answered after at most this long even if this node has not
 * applied it yet: this node's stream reader may itself be on the dead server (re-created after 3 s
 * of silence), and the events are stored; the 202 does not wait for it. Otherwise the 202 waits
 * until this node applied the events, or its reader stops serving, within the failover window.
 */
const APPLY_AFTER_FAILOVER_MS = 250;
/** How often a waiting ingest looks at whether the stream reader still serves. */
const SERVING_POLL_MS = 100;
/** After a reconnect, ingest waits at most this long for the lease check (a bucket without a leader answers late). */
const LEASE_CHECK_MS = 2_000;

const OVER = 'Aep-Over-Declared';
const AFTER = 'Aep-After';
const ORIGIN = 'Aep-Node';

/**
 * How long setup (the first connection, the stream, the bucket, the first consumer) keeps
 * retrying while no server answers or the cluster is not ready: a fleet started together with
 * its NATS cluster asks before a server listens or the cluster has elected a leader.
 */
const SETUP_RETRY_MS = 60_000;

/** Connect to NATS, set up the stream and bucket, read the stream up to its end, then serve. */
export async function startFleetHub(opts: FleetHubOptions): Promise<FleetHub> {
  const { fleet, log } = opts;
  // One deadline for the whole setup: the first connection, the stream, the bucket, the first consumer.
  const deadline = Date.now() + (opts.setupMs ?? SETUP_RETRY_MS);
  const nc = await connectFleet({ url: fleet.url, name: `aep-relay ${fleet.node}`, deadline, log });
  try {
    const names = fleetNames(fleet.stream);
    const last = await untilReady('stream', deadline, log, async () => ensureStream(await jetstreamManager(nc), streamConfig(fleet, names, opts.buffer, opts.maxSessions), log));
    const kv = await untilReady('ownership bucket', deadline, log, () => ownershipBucket(nc, fleet, names));
    const hub = new FleetHub(nc, jetstream(nc), names, new Leases(kv, fleet.node, fleet.leaseMs, log), opts);
    await hub.start(last, deadline);
    return hub;
  } catch (err) {
    await nc.close().catch(() => {});
    throw new Error(`cannot set up the fleet on NATS at ${fleet.url}: ${describe(err)}`);
  }
}

/** An acknowledged publish: whether it took more than one attempt, and whether it was held through a failover. */
interface Published {
  readonly ack: PubAck;
  readonly retried: boolean;
  readonly held: boolean;
}

interface Deferred {
  readonly after: number;
  readonly rec: Received;
}

export class FleetHub implements HubLike {
  readonly #local: Hub;
  readonly #fleet: FleetConfig;
  readonly #log: (line: string) => void;
  #reachable = true;
  #closing = false;
  /** The last stream sequence handed to the local hub (fan-out and buffer). */
  #applied = 0;
  /** Received stream messages and due live copies not yet handed over (one fan-out per turn). */
  #batch: Received[] = [];
  #batchSeq = 0;
  #scheduled = false;
  /** Live-only copies waiting for the stream position they follow. */
  #deferred: Deferred[] = [];
  #waiters: Array<{ seq: number; resolve: () => void }> = [];
  #reader: StreamReader | undefined;
  #subs: Subscription[] = [];
  readonly #failover = new FailoverRecord();
  /** Leases this node lost so far: a request held while NATS was away is refused when one was lost meanwhile. */
  #leaseLosses = 0;

  constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly names: FleetNames,
    private readonly leases: Leases,
    opts: FleetHubOptions,
  ) {
    this.#local = new Hub(opts.buffer, opts.maxSessions, opts.log);
    this.#fleet = opts.fleet;
    this.#log = opts.log;
    leases.onLost((session, owner) => this.#lostLease(session, owner));
  }

  /**
   * A renewal found `session`'s lease held elsewhere (or could not tell): this node owns it no
   * more, so its connections' claims end (split brain otherwise). Their next sequenced event in
   * it claims again (refused while the other lease lives); commands go to the lease's owner.
   */
  #lostLease(session: string, owner: string | undefined): void {
    this.#leaseLosses++;
    const ended = this.#local.revoke(session);
    const to = owner === undefined ? 'NATS could not say who holds it now' : `node ${JSON.stringify(owner)} holds it now`;
    this.#log(`lost the lease on session ${JSON.stringify(session)} (${to}): ${ended} local connection(s) no longer claim it; their next event in it claims again, and commands for it go to the lease's owner`);
  }

  /** Subscribe to the live and control subjects, start the stream reader, and wait until `last` is applied. */
  async start(last: number, deadline = Date.now() + SETUP_RETRY_MS): Promise<void> {
    void this.#watchStatus();
    this.#subs.push(this.nc.subscribe(this.names.live, { callback: (_err, msg) => this.#onLive(msg.headers, msg.string()) }));
    this.#subs.push(
      this.nc.subscribe(this.names.controlSubject(this.#fleet.node), {
        callback: (_err, msg) => {
          const raw = msg.string();
          let verdict: Dispatch;
          try {
            verdict = this.#local.route({ event: JSON.parse(raw) as AepEvent, raw }, true);
          } catch (err) {
            verdict = { ok: false, code: 'no-route', detail: `node ${this.#fleet.node} could not route the command: ${describe(err)}` };
          }
          msg.respond(JSON.stringify(verdict));
        },
      }),
    );
    const reader = new StreamReader({ js: this.js, stream: this.#fleet.stream, deliver: (m) => this.#consume(m), connected: () => this.#reachable && !this.nc.isClosed(), log: this.#log });
    await untilReady('stream consumer', deadline, this.#log, () => reader.start());
    this.#reader = reader;
    await this.#caughtUp(last, 60_000);
  }

  /** One stream message, in stream order (the reader delivers each sequence once). */
  #consume(m: JsMsg): void {
    const raw = m.string();
    let event: AepEvent;
    try {
      event = JSON.parse(raw) as AepEvent;
    } catch {
      this.#log(`stream message ${m.seq} is not an event; skipped`);
      return;
    }
    this.#batch.push(m.headers?.get(OVER) === '1' ? { event, raw, overDeclared: true } : { event, raw });
    this.#batchSeq = m.seq;
    this.#releaseDeferred(m.seq);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#flush());
  }

  /** Hand the batch to the local hub (buffer + fan-out), then wake the ingests it completes. */
  #flush(): void {
    this.#scheduled = false;
    const batch = this.#batch;
    this.#batch = [];
    if (batch.length > 0) this.#local.publishAll(batch);
    this.#applied = Math.max(this.#applied, this.#batchSeq);
    if (this.#waiters.length > 0) {
      const due = this.#waiters.filter((w) => w.seq <= this.#applied);
      this.#waiters = this.#waiters.filter((w) => w.seq > this.#applied);
      for (const w of due) w.resolve();
    }
  }

  /** Move live copies whose position is reached into the batch, in arrival order. */
  #releaseDeferred(seq: number): void {
    if (this.#deferred.length === 0) return;
    const keep: Deferred[] = [];
    for (const d of this.#deferred) if (d.after <= seq) this.#batch.push(d.rec);
    else keep.push(d);
    this.#deferred = keep;
  }

  #onLive(h: MsgHdrs | undefined, raw: string): void {
    if (!h || h.get(ORIGIN) === this.#fleet.node) return; // our own copies were queued locally
    try {
      const event = JSON.parse(raw) as AepEvent;
      this.#queueLive(h.get(OVER) === '1' ? { event, raw, overDeclared: true } : { event, raw }, Number(h.get(AFTER)) || 0);
    } catch {
      this.#log('a live copy on the fleet subject is not an event; skipped');
    }
  }

  #queueLive(rec: Received, after: number): void {
    if (after <= this.#batchSeq) {
      this.#batch.push(rec);
      this.#schedule();
    } else this.#deferred.push({ after, rec });
  }

  /** Publish a live-only copy to the other nodes and queue it here, after stream position `after`. */
  #live(rec: Received, after: number): void {
    const h = headers();
    h.set(ORIGIN, this.#fleet.node);
    h.set(AFTER, String(after));
    if (rec.overDeclared) h.set(OVER, '1');
    try {
      this.nc.publish(this.names.live, rec.raw, { headers: h });
    } catch (err) {
      throw new Unavailable(`the live copy could not go to the other nodes (${describe(err)})`);
    }
    this.#queueLive(rec, after);
  }

  /**
   * Resolves once this node applied stream sequence `seq`, after at most `ms`, or (with
   * `whileServing`) as soon as the stream reader stops serving: then the events are stored but
   * reach this node only when its reader is back, and waiting longer would only delay the answer.
   */
  #caughtUp(seq: number, ms: number, whileServing = false): Promise<void> {
    if (seq <= this.#applied) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(), ms);
      const poll = whileServing ? setInterval(() => this.#reader?.serving === false && done(), SERVING_POLL_MS) : undefined;
      timer.unref();
      poll?.unref();
      const waiter = { seq, resolve: () => done() };
      const done = (): void => {
        clearTimeout(timer);
        clearInterval(poll);
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        resolve();
      };
      this.#waiters.push(waiter);
    });
  }

  async #watchStatus(): Promise<void> {
    let generation = 0;
    for await (const s of this.nc.status()) {
      if (s.type === 'disconnect') {
        generation++;
        if (this.#reachable) this.#log(`NATS at ${this.#fleet.url} unreachable: ingest answers 503 until it returns`);
        this.#reachable = false;
      } else if (s.type === 'reconnect') {
        // Leases first: one another node took while NATS was away ends its local claims before
        // this node takes events again (else the old owner's next events would be stored).
        const current = ++generation;
        const server = s.server;
        let timer: NodeJS.Timeout | undefined;
        const bound = new Promise<void>((r) => (timer = setTimeout(r, LEASE_CHECK_MS)));
        void Promise.race([this.leases.renewFresh().catch(() => {}), bound]).finally(() => {
          clearTimeout(timer);
          if (current !== generation || this.#closing) return; // lost again meanwhile
          this.#reachable = true;
          this.#log(`NATS reachable again at ${server}: this node's leases checked, ingest resumes`);
        });
      }
    }
  }

  /**
   * A lease read or write: when the bucket does not answer (a partition the client has not
   * noticed yet, a bucket without a leader right after a server died), the caller gets
   * `Unavailable` (send it again later), never a failure of its own frame.
   */
  #lease<T>(call: Promise<T>): Promise<T> {
    return call.catch((err: unknown) => {
      throw err instanceof Unavailable ? err : new Unavailable(`the fleet's ownership bucket on NATS (${this.#fleet.url}) did not answer (${describe(err)}), so this node cannot tell who owns the session`);
    });
  }

  #unavailable(): Unavailable {
    return new Unavailable(`the fleet's NATS server (${this.#fleet.url}) is unreachable, so this node cannot store events`);
  }

  fleet(): FleetStatus {
    return { node: this.#fleet.node, stream: this.#fleet.stream, nats: this.#reachable && !this.nc.isClosed() ? 'reachable' : 'unreachable', failover: this.#failover.status() };
  }

  stats(): HubStats {
    return this.#local.stats();
  }

  subscribe(spec: SubscribeSpec, writer: SubscriptionWriter): HubSubscription {
    return this.#local.subscribe(spec, writer);
  }

  attach(peer: Peer): void {
    this.#local.attach(peer);
  }

  async ingest(recs: readonly Received[]): Promise<Ingested> {
    try {
      return { ok: true, fresh: await this.#store(recs, Date.now() + this.#fleet.failoverMs) };
    } catch (err) {
      if (err instanceof Unavailable) this.#failover.refused();
      return unreachable(err);
    }
  }

  /** A publish was acknowledged: a failover under way is over (one log line with its duration). */
  #stored(): void {
    const ended = this.#failover.stored();
    if (ended) this.#log(failoverLine(this.#fleet.node, ended, this.#fleet.failoverMs));
  }

  /** Wait (within `deadline`) until NATS is reachable; throws `Unavailable` when the connection is closed or the window is spent. */
  async #untilReachable(deadline: number): Promise<void> {
    if (this.#reachable && !this.nc.isClosed()) return;
    this.#failover.hold();
    const losses = this.#leaseLosses;
    while (!this.#reachable || this.nc.isClosed()) {
      if (this.nc.isClosed() || this.#closing || Date.now() >= deadline) throw this.#unavailable();
      await sleep(Math.min(50, Math.max(0, deadline - Date.now())));
    }
    // The lease check on reconnect ended claims another node took meanwhile: an event held
    // across it may come from a connection that claims no more (its claim was checked before the
    // wait). It is refused, so its sender sends it again and claims again (refused `unauthorized`
    // while the other lease lives): a held request never stores what a lost lease forbids.
    if (this.#leaseLosses !== losses) throw new Unavailable(`this node lost a session lease while NATS was away, so the events held meanwhile are not stored; send them again`);
  }

  /** One publish, held through a failover: retried (same message id) until acknowledged or the window ends. */
  async #publish(subject: string, rec: Received, msgID: string, deadline: number): Promise<Published> {
    const h = rec.overDeclared ? headers() : undefined;
    if (h) h.set(OVER, '1');
    for (let n = 0; ; n++) {
      await this.#untilReachable(deadline);
      const timeout = attemptTimeout(Date.now(), deadline, this.#failover.holding);
      if (timeout === 0) throw new Unavailable(`JetStream did not acknowledge an event within the failover window (AEP_NATS_FAILOVER_MS=${this.#fleet.failoverMs})`);
      try {
        const held = this.#failover.holding;
        const ack = await this.js.publish(subject, rec.raw, { msgID, timeout, ...(h ? { headers: h } : {}) });
        this.#stored();
        return { ack, retried: n > 0, held: held || n > 0 };
      } catch (err) {
        if (!isRetryable(err) || this.#closing) throw new Unavailable(`JetStream did not acknowledge an event (${describe(err)})`);
        this.#failover.hold();
        const pause = pauseBefore(n, Date.now(), deadline);
        if (Date.now() + pause + MIN_ATTEMPT_MS >= deadline) {
          throw new Unavailable(`JetStream did not acknowledge an event within the failover window (AEP_NATS_FAILOVER_MS=${this.#fleet.failoverMs}; last: ${describe(err)})`);
        }
        await sleep(pause);
      }
    }
  }

  /**
   * Publish the batch and wait for its acks and for this node to apply it: how many were new.
   * Everything happens before `deadline` (the failover window from the request's start); throws `Unavailable`.
   */
  async #store(recs: readonly Received[], deadline: number): Promise<number> {
    if (this.nc.isClosed()) throw this.#unavailable();
    await this.#untilReachable(deadline);
    let fresh = 0;
    let stored = 0; // highest stream sequence acknowledged for this batch
    let pending: Array<{ rec: Received; ack: Promise<Published | Error> }> = [];
    let heldThrough = false;
    const seen = new Set<string>();
    const settle = async (): Promise<void> => {
      if (pending.length === 0) return;
      const batch = pending;
      pending = [];
      const acks = await Promise.all(batch.map((p) => p.ack));
      const failed = acks.find((a): a is Error => a instanceof Error);
      if (failed) throw failed instanceof Unavailable ? failed : new Unavailable(`JetStream did not acknowledge an event (${describe(failed)})`);
      for (const [i, result] of acks.entries()) {
        const { ack, retried, held } = result as Published;
        heldThrough ||= held;
        stored = Math.max(stored, ack.seq);
        // Dropped by the stream as a redelivery within its window: still forwarded live. A
        // retried publish reported as a duplicate was stored by its own earlier attempt.
        if (ack.duplicate && !retried) this.#live(batch[i]!.rec, ack.seq);
        else fresh++;
      }
    };
    for (const rec of recs) {
      const { session, source, id } = rec.event;
      if (typeof session !== 'string') {
        await settle();
        this.#live(rec, Math.max(stored, this.#batchSeq));
        fresh++;
        continue;
      }
      const msgId = messageId(source, id);
      if (seen.has(msgId) || this.#local.buffer.has(rec.event)) {
        await settle();
        this.#live(rec, Math.max(stored, this.#batchSeq));
        continue;
      }
      seen.add(msgId);
      const ack = this.#publish(this.names.eventSubject(session), rec, msgId, deadline).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
      pending.push({ rec, ack });
    }
    await settle();
    const left = Math.max(0, deadline - Date.now());
    await (heldThrough ? this.#caughtUp(stored, Math.min(APPLY_AFTER_FAILOVER_MS, left)) : this.#caughtUp(stored, left, true));
    return fresh;
  }

  async claim(peer: Peer, session: string): Promise<Claim> {
    // Another connection of this node claims it already: the node holds the lease, and the
    // single relay's rules apply between the two (a command to the session is `ambiguous`).
    if (this.#local.claimedElsewhere(peer, session)) return { ok: true };
    if (!this.#reachable) return unreachable(this.#unavailable());
    let owner: string | undefined;
    try {
      owner = await this.#lease(this.leases.claim(session, peer.rosterEntry?.(session)));
    } catch (err) {
      return this.#outage(err);
    }
    if (owner === undefined) return { ok: true };
    return { ok: false, code: 'unauthorized', detail: `session ${JSON.stringify(session)} is owned by a live target on fleet node ${JSON.stringify(owner)}; one target owns a session fleet-wide (AEP-0001 §5.2, AEP-0004 §4.5): emit into it on that target's connection, or wait until that lease lapses (AEP_NATS_LEASE_MS=${this.#fleet.leaseMs} after its last renewal)` };
  }

  async ownedElsewhere(peer: Peer, session: string): Promise<Ownership> {
    if (this.#local.claimedElsewhere(peer, session)) return { ok: true, elsewhere: true };
    if (!this.#reachable) return unreachable(this.#unavailable());
    try {
      const owner = await this.#lease(this.leases.owner(session));
      return { ok: true, elsewhere: owner !== undefined && owner !== this.#fleet.node };
    } catch (err) {
      return this.#outage(err);
    }
  }

  async dispatch(command: Received, authenticated: boolean): Promise<Dispatch | Unreachable> {
    const session = command.event.session;
    if (!authenticated || typeof session !== 'string') return this.#local.route(command, authenticated);
    if (this.#local.claimedElsewhere(undefined, session)) return this.#local.route(command, authenticated);
    if (!this.#reachable) return unreachable(this.#unavailable());
    try {
      return await this.#dispatchRemote(command, session);
    } catch (err) {
      return this.#outage(err);
    }
  }

  /** A NATS request (a lease read or write) that failed: the caller answers `unavailable`. */
  #outage(err: unknown): Unreachable {
    return { ok: false, code: 'unavailable', detail: err instanceof Unavailable ? err.message : `the fleet's NATS server (${this.#fleet.url}) did not answer (${describe(err)})` };
  }

  async #dispatchRemote(command: Received, session: string): Promise<Dispatch> {
    const owner = await this.#lease(this.leases.owner(session));
    if (owner === undefined || owner === this.#fleet.node) return routeCommand(command.event, true, []) as Dispatch;
    try {
      const reply = await this.nc.request(this.names.controlSubject(owner), command.raw, { timeout: ROUTE_TIMEOUT_MS });
      return JSON.parse(reply.string()) as Dispatch;
    } catch (err) {
      return { ok: false, code: 'no-route', detail: `session ${JSON.stringify(session)} is owned on fleet node ${JSON.stringify(owner)}, which did not answer (${describe(err)}); its lease lapses within AEP_NATS_LEASE_MS=${this.#fleet.leaseMs} unless renewed` };
    }
  }

  leave(peer: Peer): void {
    this.#local.leave(peer);
    for (const session of peer.claims) {
      if (!this.#local.claimedElsewhere(undefined, session)) this.leases.release(session);
    }
  }

  /** This node's own connections' entries, then those of sessions other nodes' targets own (from their leases). */
  async roster(): Promise<Roster> {
    const entries = this.#local.localRoster();
    if (!this.#reachable) return unreachable(this.#unavailable());
    let others: RosterEntry[];
    try {
      others = await this.#lease(this.leases.entries());
    } catch (err) {
      return this.#outage(err);
    }
    const local = new Set(entries.map((e) => e.session));
    for (const e of others) if (!local.has(e.session)) entries.push(e);
    return { ok: true, entries };
  }

  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    // Connections leaving released their sessions one by one (leave()); what is still held is
    // released here, awaited (bounded), so only a node's death waits for a lease to lapse.
    if (this.#reachable) await this.leases.releaseAll();
    else this.leases.stop();
    for (const sub of this.#subs) sub.unsubscribe();
    await this.#reader?.close();
    await this.nc.drain().catch(() => this.nc.close());
  }
}

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
