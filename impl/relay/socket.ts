/**
 * One WebSocket connection on `/socket` (AEP-0003 §3.5, §4, §6.5; AEP-0004 §4): the hello
 * exchange, subscriptions, ping/pong, roster, events and commands in, events out.
 *
 * Lifecycle: `awaiting-hello` until the peer's first frame; a first frame that is not an
 * acceptable hello gets its error frame and a 1008 close. After the hello every bad frame
 * gets an in-band error and the connection survives. Unknown frame types are ignored.
 */
import type { WebSocket, RawData } from 'ws';
import { isPlainObject, type AepEvent } from '../core/event.js';
import { renderIssue } from '../core/issue.js';
import { admitEvent } from './admission.js';
import { oneLine, shapeIssue } from './batch.js';
import { MAX_DEPTH, jsonTextProblem } from '../core/json-shape.js';
import type { Received } from './buffer.js';
import type { RelayConfig } from './config.js';
import { isAck, isCommand } from './control.js';
import { relayHello } from './discovery.js';
import { acceptHello, declaredAccepts, errorFrame, frame, parseSubscribe, type Frame, type PeerHello } from './frames.js';
import { Unavailable, type HubLike, type Peer, type Sink } from './hub.js';
import type { Position } from './positions.js';
import { renderAt } from './render.js';
import { GapWatch } from './gap-watch.js';


/** What a connection needs from the relay around it. */
export interface SocketContext {
  readonly config: RelayConfig;
  readonly hub: HubLike;
  /** Whether the upgrade request carried a valid token (always false without AEP_TOKEN). */
  readonly authenticated: boolean;
  /** The `identity.instance` the relay announces in its hello. */
  readonly instance: string;
  /** Operational log line (never carries a token). */
  readonly log: (line: string) => void;
  /**
   * Backpressure (AEP-0003 §8.4): while more than this many bytes wait unsent (or queue behind a
   * replay), the next event closes the connection (a `closing` frame with reason `slow-consumer`
   * and the delivered positions, then 1013) so the consumer resumes exactly. Nothing is dropped
   * silently.
   */
  readonly slowBytes: number;
}

interface Subscription extends Sink {
  readonly id: string | number | undefined;
  /** Last delivered position per session, for the `closing` frame. */
  readonly delivered: Map<string, Position>;
  /** The late `replay-exhausted` judgement for sessions held nowhere. */
  readonly gaps: GapWatch;
  /** True until the replay and the live events that arrived meanwhile are sent. */
  replaying: boolean;
  /** Live events that arrived during the replay, in order, and their size in characters. */
  readonly queue: Received[];
  queued: number;
  /** Set once the subscription is replaced, unsubscribed or closed: its replay stops. */
  ended: boolean;
}

/** Apply `k` to `v` now when it is a value, after it resolves when it is a promise. */
function after<T, R>(v: T | Promise<T>, k: (t: T) => R | Promise<R>): R | Promise<R> {
  return v instanceof Promise ? v.then(k) : k(v);
}

/** While more than this many bytes wait unsent, a replay waits for them to go out. */
const REPLAY_HIGH_WATER = 1024 * 1024;

export class SocketSession implements Peer {
  #hello: PeerHello | undefined;
  readonly claims = new Set<string>();
  readonly #subs = new Map<string, Subscription>();
  #anonymous = 0;
  #closed = false;
  /**
   * Frames are handled in order. On a fleet node a frame may wait for NATS: the frames after it
   * wait in this chain (so a `pong` still means every earlier frame was processed). With the
   * in-memory hub every frame is handled at once and the chain stays empty.
   */
  #chain: Promise<void> | undefined;
  /** Events of this connection a fleet node is still storing (always empty in memory). */
  readonly #storing = new Set<Promise<void>>();

  constructor(readonly ws: WebSocket, readonly ctx: SocketContext) {
    ws.on('message', (data, isBinary) => {
      if (this.#chain) return void (this.#chain = this.#chained(this.#chain.then(() => this.#handle(data, isBinary))));
      const pending = this.#handle(data, isBinary);
      if (pending) this.#chain = this.#chained(pending);
    });
    ws.once('close', () => this.#onClose());
  }

  #chained(p: Promise<void>): Promise<void> {
    const tail: Promise<void> = p.then(() => {
      if (this.#chain === tail) this.#chain = undefined;
    });
    return tail;
  }

  #handle(data: RawData, isBinary: boolean): Promise<void> | undefined {
    const failed = (err: unknown): void => {
      if (err instanceof Unavailable) return this.send(errorFrame('unavailable', `${err.message}; the frame was not processed: send it again later`));
      this.ctx.log(`frame handling failed: ${err instanceof Error ? err.message : String(err)}`);
      this.send(errorFrame('internal', 'the relay failed on this frame; the connection stays open'));
    };
    try {
      const pending = this.#onMessage(data, isBinary);
      return pending instanceof Promise ? pending.catch(failed) : undefined;
    } catch (err) {
      failed(err);
      return undefined;
    }
  }

  get accepts(): readonly string[] | undefined {
    return this.#hello ? declaredAccepts(this.#hello) : undefined;
  }

  /** Send one text frame; a no-op once the connection is closing. */
  send(text: string): void {
    if (!this.#closed && this.ws.readyState === this.ws.OPEN) this.ws.send(text);
  }

  /** Orderly close (AEP-0003 §3.5 rule 4): a `closing` frame with delivered positions, then close. */
  shutdown(reason: string, code = 1001): void {
    if (this.#closed) return;
    const delivered: Array<Record<string, unknown>> = [];
    for (const sub of this.#subs.values()) {
      for (const [session, pos] of sub.delivered) delivered.push({ ...(sub.id === undefined ? {} : { sub: sub.id }), session, epoch: pos.epoch, seq: pos.seq });
    }
    if (this.#hello) this.send(frame({ type: 'closing', reason, delivered }));
    this.#detach();
    this.ws.close(code, reason.slice(0, 120));
  }

  #detach(): void {
    this.#closed = true;
    for (const sub of this.#subs.values()) {
      sub.ended = true;
      this.ctx.hub.sinks.delete(sub);
    }
    this.#subs.clear();
    this.ctx.hub.leave(this);
  }

  #onClose(): void {
    if (!this.#closed) this.#detach();
  }

  #onMessage(data: RawData, isBinary: boolean): void | Promise<void> {
    if (this.#closed) return;
    if (isBinary) {
      if (!this.#hello) return this.#refuseFirst(errorFrame('hello-required', 'the first frame on /socket must be a text hello (AEP-0003 §3.5)'));
      return this.send(errorFrame('invalid-frame', 'binary frames are reserved in AEP 0.1: send each event or frame as one JSON text frame (AEP-0003 §3.5)'));
    }
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    // A member named twice, or nesting past MAX_DEPTH, is refused before anything reads the value.
    const shape = value === undefined ? null : jsonTextProblem(text, value, MAX_DEPTH);
    if (shape !== null) {
      if (!this.#hello) return this.#refuseFirst(errorFrame('hello-required', 'the first frame on /socket must be a hello (AEP-0003 §3.5), one JSON object naming each member once'));
      const found = shapeIssue(shape);
      const eventLike = isPlainObject(value) && ((typeof value.type === 'string' && value.type.includes('.')) || 'aep' in value);
      if (!eventLike) return this.send(errorFrame('invalid-frame', renderIssue(found)));
      const cause = isPlainObject(value) && typeof value.id === 'string' ? value.id : undefined;
      return this.send(frame({ type: 'error', ...(cause === undefined ? {} : { cause }), code: 'invalid-event', detail: renderIssue(found), issues: [found] }));
    }
    if (!this.#hello) {
      const verdict = acceptHello(value);
      if (!verdict.ok) return this.#refuseFirst(verdict.error);
      this.#hello = verdict.hello;
      this.ctx.hub.peers.add(this);
      return this.send(frame(relayHello(this.ctx.config, verdict.hello.version, this.ctx.instance)));
    }
    if (!isPlainObject(value)) return this.send(errorFrame('invalid-frame', 'each text frame must carry one JSON object: an event or a frame'));
    const type = value.type;
    if (typeof type === 'string' && type.includes('.')) return this.#onEvent(value, text);
    if ('aep' in value) return this.#onEvent(value, text);
    if (typeof type !== 'string') return this.send(errorFrame('invalid-frame', 'a frame needs a string type'));
    switch (type) {
      case 'hello':
        return this.send(errorFrame('invalid-frame', 'hello was already exchanged on this connection; the first hello governs it (AEP-0003 §4)'));
      case 'subscribe':
        return this.#subscribe(value);
      case 'unsubscribe':
        return this.#unsubscribe(value);
      case 'ping': {
        const pong = frame(value.t === undefined ? { type: 'pong' } : { type: 'pong', t: value.t });
        // `pong-acks`: on a fleet node the pong waits until JetStream stored every earlier event.
        if (this.#storing.size > 0) return Promise.all([...this.#storing]).then(() => this.send(pong));
        return this.send(pong);
      }
      case 'roster':
        return this.#roster(value);
      default:
        return; // unknown and peer-to-relay-meaningless frames are ignored (AEP-0003 §2)
    }
  }

  #refuseFirst(error: string): void {
    this.send(error);
    this.#detach();
    this.ws.close(1008, 'hello required');
  }

  #onEvent(value: Record<string, unknown>, text: string): void | Promise<void> {
    const admitted = admitEvent(value, oneLine(text, value));
    if (!admitted.ok) {
      const cause = typeof value.id === 'string' ? value.id : undefined;
      const { issues } = admitted;
      this.send(frame({ type: 'error', ...(cause === undefined ? {} : { cause }), code: 'invalid-event', detail: renderIssue(issues[0]!), issues }));
      return;
    }
    const rec = admitted.rec;
    const event = rec.event;
    if (isCommand(event.type)) return this.#command(rec);
    const session = typeof event.session === 'string' ? event.session : undefined;
    const sequenced = session !== undefined && typeof event.seq === 'number';
    // Roles (AEP-0003 §4, AEP-0004 §4): a consumer watches and commands; only an emitter (or
    // both) numbers session events, and so only it can own, and claim, a session.
    if (sequenced && this.#hello?.role === 'consumer') {
      return this.send(errorFrame('unauthorized', `this connection said role "consumer" in its hello: it may send commands, not sequenced session events; reconnect with role "emitter" or "both" to emit into session ${JSON.stringify(session)} (AEP-0003 §4)`, { cause: event.id }));
    }
    if (isAck(event.type)) {
      // An ack answers a command routed to the session's owner (AEP-0004 §3): it never makes its
      // sender a claimant, and one from a connection other than the live claimant is a forgery.
      if (session !== undefined && !this.claims.has(session)) {
        return after(this.ctx.hub.ownedElsewhere(this, session), (forged) => {
          if (!forged) return this.#ingest(rec);
          this.ctx.log(`refused a ${event.type} for session ${JSON.stringify(session)} from a connection that does not own it`);
          return this.send(errorFrame('unauthorized', `session ${JSON.stringify(session)} is owned by another live connection; only its owner acknowledges commands routed to it (AEP-0004 §4)`, { cause: event.id }));
        });
      }
    } else if (sequenced && !this.claims.has(session!)) {
      // One owner per session (AEP-0001 §5.2): on a fleet node the claim is fleet-wide.
      const claimed = this.ctx.hub.claim(this, session!);
      const proceed = (refusal: string | undefined): void => {
        if (refusal !== undefined) return this.send(errorFrame('unauthorized', refusal, { cause: event.id }));
        this.claims.add(session!);
        return this.#ingest(rec);
      };
      return claimed instanceof Promise ? claimed.then(proceed, (err: unknown) => this.#notStored(err, event.id)) : proceed(claimed);
    }
    return this.#ingest(rec);
  }

  #ingest(rec: Received): void {
    const stored = this.ctx.hub.ingest([rec]);
    if (!(stored instanceof Promise)) return;
    // Publishes leave in frame order at once; later frames do not wait for the acks, a ping does.
    const done: Promise<void> = stored.then(
      () => void this.#storing.delete(done),
      (err: unknown) => {
        this.#storing.delete(done);
        this.#notStored(err, rec.event.id);
      },
    );
    this.#storing.add(done);
  }

  /** The error frame for an event a fleet node could not store (or claim for): send it again. */
  #notStored(err: unknown, id: string): void {
    if (err instanceof Unavailable) return this.send(errorFrame('unavailable', `${err.message}; event ${JSON.stringify(id)} was not stored: send it again later`, { cause: id }));
    this.ctx.log(`storing an event failed: ${err instanceof Error ? err.message : String(err)}`);
    this.send(errorFrame('internal', `the relay failed to store event ${JSON.stringify(id)}; send it again`, { cause: id }));
  }

  #command(rec: Received): void | Promise<void> {
    return after(this.ctx.hub.dispatch(rec, this.ctx.authenticated), (route) => {
      if (!route.ok) {
        this.ctx.log(`refused ${rec.event.type} ${JSON.stringify(rec.event.id)} for session ${JSON.stringify(rec.event.session ?? null)}: ${route.code}`);
        return this.send(errorFrame(route.code, route.detail, { cause: rec.event.id }));
      }
      return this.#ingest(rec);
    });
  }

  #subscribe(f: Frame): void {
    const verdict = parseSubscribe(f, this.ctx.config.maxFrom);
    if (!verdict.ok) return this.send(errorFrame(verdict.code, verdict.detail, { id: f.id }));
    const { id, filter, match, ceiling, replay } = verdict.sub;
    // An id-less subscription gets a key no id can collide with.
    const key = id === undefined ? `anonymous ${++this.#anonymous}` : JSON.stringify(id);
    // A subscribe reusing an active id replaces that subscription (the spec leaves this open;
    // replacing is the reading that never refuses a well-formed request).
    const replaced = this.#subs.get(key);
    if (replaced) {
      replaced.ended = true;
      this.#subs.delete(key);
      this.ctx.hub.sinks.delete(replaced);
    }
    if (this.#subs.size >= this.ctx.config.maxSubscriptions) {
      return this.send(errorFrame('limit-exceeded', `this connection already holds ${this.#subs.size} subscriptions; the limit is ${this.ctx.config.maxSubscriptions} (AEP_MAX_SUBS)`, { id }));
    }
    const plan = this.ctx.hub.plan(replay, match);
    const sub: Subscription = {
      id,
      filter,
      match,
      ceiling,
      delivered: new Map(),
      gaps: new GapWatch(plan.unanchored),
      replaying: true,
      queue: [],
      queued: 0,
      ended: false,
      deliver: (rec) => this.#deliverLive(sub, rec),
    };
    this.send(frame(id === undefined ? { type: 'subscribed' } : { type: 'subscribed', id }));
    for (const m of plan.exhausted) this.send(this.#exhaustedFrame(sub, m.session, m.earliest));
    // Live from now on (queued behind the replay), so nothing falls between replay and live.
    this.#subs.set(key, sub);
    this.ctx.hub.sinks.add(sub);
    this.#replay(sub, plan.events).catch((err: unknown) => {
      this.ctx.log(`replay failed: ${err instanceof Error ? err.message : String(err)}`);
      this.shutdown('internal', 1011);
    });
  }

  #exhaustedFrame(sub: Subscription, session: string, earliest: Position): string {
    return frame({ type: 'replay-exhausted', ...(sub.id === undefined ? {} : { sub: sub.id }), session, earliest: { epoch: earliest.epoch, seq: earliest.seq } });
  }

  /**
   * Send the replay, then what arrived meanwhile, with backpressure: while more than
   * `REPLAY_HIGH_WATER` bytes wait unsent, the next frame is awaited until it went out. A
   * replay of any size is delivered whole, or the connection ends with a stated reason.
   */
  async #replay(sub: Subscription, events: readonly Received[]): Promise<void> {
    const high = Math.min(REPLAY_HIGH_WATER, this.ctx.slowBytes);
    let i = 0;
    for (;;) {
      if (this.#closed || sub.ended) return;
      let rec: Received | undefined;
      if (i < events.length) rec = events[i++];
      else {
        rec = sub.queue.shift();
        if (rec) sub.queued -= rec.raw.length;
      }
      if (!rec) break;
      if (this.ws.bufferedAmount > high) await new Promise<void>((resolve) => this.#write(sub, rec, () => resolve()));
      else this.#write(sub, rec);
    }
    sub.replaying = false;
  }

  #deliverLive(sub: Subscription, rec: Received): void {
    if (this.#closed) return;
    if (sub.replaying) {
      sub.queue.push(rec);
      sub.queued += rec.raw.length;
      if (sub.queued > this.ctx.slowBytes) this.shutdown('slow-consumer', 1013);
      return;
    }
    // Over the bound the consumer is told why (a `closing` frame with its positions) and
    // dropped, never silently skipped (AEP-0003 §8.4).
    if (this.ws.bufferedAmount > this.ctx.slowBytes) return this.shutdown('slow-consumer', 1013);
    this.#write(sub, rec);
  }

  #write(sub: Subscription, rec: Received, sent?: () => void): void {
    if (this.#closed || this.ws.readyState !== this.ws.OPEN) return sent?.();
    const gap = sub.gaps.check(rec);
    if (gap && typeof rec.event.session === 'string') this.ws.send(this.#exhaustedFrame(sub, rec.event.session, gap));
    this.ws.send(renderAt(rec, sub.ceiling), sent && (() => sent()));
    const { session, seq } = rec.event;
    if (typeof session === 'string' && typeof seq === 'number') sub.delivered.set(session, { epoch: rec.event.epoch ?? 0, seq });
  }

  #unsubscribe(f: Frame): void {
    const key = JSON.stringify(f.id);
    const sub = this.#subs.get(key);
    if (sub) {
      sub.ended = true;
      this.#subs.delete(key);
      this.ctx.hub.sinks.delete(sub);
    }
    this.send(frame({ type: 'unsubscribed', id: f.id }));
  }

  /** This connection's roster entry for `session`: its hello's declarations, verbatim (AEP-0003 §4.1 rule 4). */
  rosterEntry(session: string): Record<string, unknown> & { session: string } {
    const entry: Record<string, unknown> & { session: string } = { session };
    const h = this.#hello;
    if (h === undefined) return entry;
    if (h.agent !== undefined) entry.agent = h.agent;
    if (h.instance !== undefined) entry.instance = h.instance;
    if (h.control !== undefined) entry.control = h.control;
    if (h.emits !== undefined) entry.emits = h.emits;
    return entry;
  }

  #roster(f: Frame): void {
    if (f.id === undefined) return this.send(errorFrame('invalid-frame', 'a roster request needs an id (AEP-0003 §4.1)'));
    if (this.#hello?.role === 'emitter') {
      return this.send(errorFrame('unauthorized', 'roster requests are honored on consumer and both connections only (AEP-0003 §4.1)', { id: f.id }));
    }
    const entries: Array<Record<string, unknown>> = [];
    for (const peer of this.ctx.hub.peers) {
      if (!(peer instanceof SocketSession) || !peer.#hello) continue;
      for (const session of peer.claims) entries.push(peer.rosterEntry(session));
    }
    const remote = this.ctx.hub.roster?.();
    if (remote === undefined) return this.send(frame({ type: 'roster', id: f.id, entries }));
    // A fleet node answers for the fleet: the sessions other nodes' targets own, from their leases.
    const local = new Set(entries.map((e) => e.session));
    remote.then(
      (others) => {
        for (const e of others) if (!local.has(e.session)) entries.push(e);
        this.send(frame({ type: 'roster', id: f.id, entries }));
      },
      (err: unknown) => this.send(errorFrame('unavailable', `the fleet's roster cannot be read while NATS is unreachable (${err instanceof Error ? err.message : String(err)}); ask again`, { id: f.id })),
    );
  }

}
