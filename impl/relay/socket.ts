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
import type { HubLike, Ingested, Peer, Unreachable } from './hub.js';
import { SocketWriter, type SocketConnection, type SocketSubscription } from './socket-writer.js';

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

export class SocketSession implements Peer {
  #hello: PeerHello | undefined;
  readonly claims = new Set<string>();
  readonly #subs = new Map<string, SocketSubscription>();
  #anonymous = 0;
  #closed = false;
  /**
   * Frames are handled in order. A frame that waits for the hub (a claim, a command's route, a
   * roster) holds the frames after it in this chain, so a `pong` still means every earlier frame
   * was processed. Events and pings need no wait and run at once while the chain is empty.
   */
  #chain: Promise<void> | undefined;
  /** Events of this connection the hub has not acknowledged yet (a fleet node waits for JetStream). */
  readonly #storing = new Set<Promise<void>>();
  /**
   * Events admitted from the frames of this tick, not yet handed to a hub that ingests in the
   * call (`ingestNow`): the frames of one socket read reach the hub as one batch, at the end of
   * the tick, so a subscriber gets them in one write. Before anything else this connection does
   * (a reply, a hub call, a close) the batch goes to the hub, so every reply and every hub call
   * keeps its order with the events before it.
   */
  #pending: Received[] = [];
  readonly #flushPending = (): void => this.#flush();

  /** What this connection's subscription writers use. */
  readonly #connection: SocketConnection;

  constructor(readonly ws: WebSocket, readonly ctx: SocketContext) {
    this.#connection = { ws, send: (text) => this.send(text), shutdown: (reason, code) => this.shutdown(reason, code), log: (line) => ctx.log(line) };
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
      this.ctx.log(`frame handling failed: ${err instanceof Error ? err.message : String(err)}`);
      this.send(errorFrame('internal', 'the relay failed on this frame; the connection stays open', isBinary ? {} : correlation(parseText(data))));
    };
    try {
      // A handler returns a promise only when it waits for the hub; every other returns nothing.
      const pending = this.#onMessage(data, isBinary);
      return pending === undefined ? undefined : pending.catch(failed);
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
    if (this.#pending.length > 0) this.#flush();
    if (!this.#closed && this.ws.readyState === this.ws.OPEN) this.ws.send(text);
  }

  /** Orderly close (AEP-0003 §3.5 rule 4): a `closing` frame with delivered positions, then close. */
  shutdown(reason: string, code = 1001): void {
    if (this.#closed) return;
    this.#flush();
    const delivered: Array<Record<string, unknown>> = [];
    for (const sub of this.#subs.values()) {
      for (const [session, pos] of sub.sub.delivered()) delivered.push({ ...(sub.id === undefined ? {} : { sub: sub.id }), session, epoch: pos.epoch, seq: pos.seq });
    }
    if (this.#hello) this.send(frame({ type: 'closing', reason, delivered }));
    this.#detach();
    this.ws.close(code, reason.slice(0, 120));
  }

  #detach(): void {
    this.#flush();
    this.#closed = true;
    for (const { sub } of this.#subs.values()) sub.close();
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
    const text = textOf(data);
    const value = parseText(text);
    // A member named twice, or nesting past MAX_DEPTH, is refused before anything reads the value.
    const shape = value === undefined ? null : jsonTextProblem(text, value, MAX_DEPTH);
    if (shape !== null) {
      if (!this.#hello) return this.#refuseFirst(errorFrame('hello-required', 'the first frame on /socket must be a hello (AEP-0003 §3.5), one JSON object naming each member once', correlation(value)));
      const found = shapeIssue(shape);
      if (!isEventLike(value)) return this.send(errorFrame('invalid-frame', renderIssue(found), correlation(value)));
      return this.send(frame({ type: 'error', ...correlation(value), code: 'invalid-event', detail: renderIssue(found), issues: [found] }));
    }
    if (!this.#hello) {
      if (!isPlainObject(value) || value.type !== 'hello') return this.#refuseFirst(errorFrame('hello-required', 'the first frame on /socket must be a hello (AEP-0003 §3.5)', correlation(value)));
      const verdict = acceptHello(value);
      if (!verdict.ok) return this.#refuseFirst(verdict.error);
      this.#hello = verdict.hello;
      this.ctx.hub.attach(this);
      return this.send(frame(relayHello(this.ctx.config, verdict.hello.version, this.ctx.instance)));
    }
    if (!isPlainObject(value)) return this.send(errorFrame('invalid-frame', 'each text frame must carry one JSON object: an event or a frame'));
    if (isEventLike(value)) return this.#onEvent(value, text);
    this.#flush();
    const type = value.type;
    if (typeof type !== 'string') return this.send(errorFrame('invalid-frame', 'a frame needs a string type', correlation(value)));
    switch (type) {
      case 'hello':
        return this.send(errorFrame('invalid-frame', 'hello was already exchanged on this connection; the first hello governs it (AEP-0003 §4)', correlation(value)));
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
      const { issues } = admitted;
      this.send(frame({ type: 'error', ...correlation(value), code: 'invalid-event', detail: renderIssue(issues[0]!), issues }));
      return;
    }
    const rec = admitted.rec;
    const event = rec.event;
    if (isCommand(event.type)) {
      this.#flush();
      return this.#command(rec);
    }
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
        this.#flush();
        return this.ctx.hub.ownedElsewhere(this, session).then((owned) => {
          if (!owned.ok) return this.#notProcessed(owned, event.id);
          if (!owned.elsewhere) return this.#ingest(rec);
          this.ctx.log(`refused a ${event.type} for session ${JSON.stringify(session)} from a connection that does not own it`);
          return this.send(errorFrame('unauthorized', `session ${JSON.stringify(session)} is owned by another live connection; only its owner acknowledges commands routed to it (AEP-0004 §4)`, { cause: event.id }));
        });
      }
    } else if (sequenced && !this.claims.has(session!)) {
      // One owner per session (AEP-0001 §5.2): on a fleet node the claim is fleet-wide.
      this.#flush();
      return this.ctx.hub.claim(this, session!).then((claim) => {
        if (!claim.ok) return claim.code === 'unavailable' ? this.#notStored(claim, event.id) : this.send(errorFrame(claim.code, claim.detail, { cause: event.id }));
        this.claims.add(session!);
        return this.#ingest(rec);
      });
    }
    return this.#ingest(rec);
  }

  #ingest(rec: Received): void {
    if (this.ctx.hub.ingestNow !== undefined) {
      // Stored and fanned out with the other events of this tick, before anything else this
      // connection does (see `#pending`). A connection that also subscribes hands each event over
      // at once, as before: its own subscription may close it (slow consumer) during a fan-out,
      // and then no later frame of it may be stored.
      if (this.#pending.push(rec) === 1) {
        if (this.#subs.size > 0) this.#flush();
        else queueMicrotask(this.#flushPending);
      }
      return;
    }
    // Stored (and fanned out) in frame order: the hub takes the event in this call. Later frames
    // do not wait for its acknowledgement; a ping does.
    const done: Promise<void> = this.ctx.hub.ingest([rec]).then(
      (stored) => {
        this.#storing.delete(done);
        if (!stored.ok) this.#notStored(stored, rec.event.id);
      },
      (err: unknown) => {
        this.#storing.delete(done);
        this.ctx.log(`storing an event failed: ${err instanceof Error ? err.message : String(err)}`);
        this.send(errorFrame('internal', `the relay failed to store event ${JSON.stringify(rec.event.id)}; send it again`, { cause: rec.event.id }));
      },
    );
    this.#storing.add(done);
  }

  /** Hand the pending events to the hub (`ingestNow`), in frame order; answers as `#ingest` does for each event. */
  #flush(): void {
    const recs = this.#pending;
    if (recs.length === 0) return;
    this.#pending = [];
    let stored: Ingested;
    try {
      stored = this.ctx.hub.ingestNow!(recs);
    } catch (err) {
      this.ctx.log(`storing an event failed: ${err instanceof Error ? err.message : String(err)}`);
      for (const rec of recs) this.send(errorFrame('internal', `the relay failed to store event ${JSON.stringify(rec.event.id)}; send it again`, { cause: rec.event.id }));
      return;
    }
    if (!stored.ok) for (const rec of recs) this.#notStored(stored, rec.event.id);
  }

  /** The error frame for an event the hub could not store (or claim for): send it again. */
  #notStored(outage: Unreachable, id: string): void {
    this.send(errorFrame('unavailable', `${outage.detail}; event ${JSON.stringify(id)} was not stored: send it again later`, { cause: id }));
  }

  /** The error frame for an ack or a command the hub could not process: send it again (same id). */
  #notProcessed(outage: Unreachable, id: string): void {
    this.send(errorFrame('unavailable', `${outage.detail}; event ${JSON.stringify(id)} was not processed: send it again later`, { cause: id }));
  }

  #command(rec: Received): Promise<void> {
    return this.ctx.hub.dispatch(rec, this.ctx.authenticated).then((route) => {
      if (route.ok === false && route.code === 'unavailable') return this.#notProcessed(route, rec.event.id);
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
      replaced.sub.close();
      this.#subs.delete(key);
    }
    if (this.#subs.size >= this.ctx.config.maxSubscriptions) {
      return this.send(errorFrame('limit-exceeded', `this connection already holds ${this.#subs.size} subscriptions; the limit is ${this.ctx.config.maxSubscriptions} (AEP_MAX_SUBS)`, { id }));
    }
    this.send(frame(id === undefined ? { type: 'subscribed' } : { type: 'subscribed', id }));
    // Markers, replay and live delivery (queued behind the replay) start here, in that order.
    const writer = new SocketWriter(this.#connection, id, ceiling, this.ctx.slowBytes);
    const sub = this.ctx.hub.subscribe({ filter, match, ceiling, replay, live: true, slowBytes: this.ctx.slowBytes, positions: true }, writer);
    this.#subs.set(key, { id, sub });
  }

  #unsubscribe(f: Frame): void {
    const key = JSON.stringify(f.id);
    const sub = this.#subs.get(key);
    if (sub) {
      sub.sub.close();
      this.#subs.delete(key);
    }
    this.send(frame({ type: 'unsubscribed', id: f.id }));
  }

  /** The hub ended this connection's claim on `session` (its fleet node lost the lease): the next event there claims again. */
  revoke(session: string): void {
    this.claims.delete(session);
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

  #roster(f: Frame): void | Promise<void> {
    if (f.id === undefined) return this.send(errorFrame('invalid-frame', 'a roster request needs an id (AEP-0003 §4.1)'));
    if (this.#hello?.role === 'emitter') {
      return this.send(errorFrame('unauthorized', 'roster requests are honored on consumer and both connections only (AEP-0003 §4.1)', { id: f.id }));
    }
    // A fleet node answers for the fleet: its own connections, then the sessions other nodes' targets own.
    return this.ctx.hub.roster().then((roster) => {
      if (!roster.ok) return this.send(errorFrame('unavailable', `the fleet's roster cannot be read while NATS is unreachable (${roster.detail}); ask again`, { id: f.id }));
      this.send(frame({ type: 'roster', id: f.id, entries: roster.entries }));
    });
  }

}

/** The UTF-8 text of one WebSocket text frame. */
function textOf(data: RawData): string {
  return Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8');
}

/** The frame's JSON value, or undefined when it is not JSON. */
function parseText(data: RawData | string): unknown {
  try {
    return JSON.parse(typeof data === 'string' ? data : textOf(data));
  } catch {
    return undefined;
  }
}

/** An event, not a frame (AEP-0003 §2): its `type` contains a dot, or it carries `aep`. */
function isEventLike(value: unknown): boolean {
  return isPlainObject(value) && ((typeof value.type === 'string' && value.type.includes('.')) || 'aep' in value);
}

/**
 * How an error frame names the frame it answers, so the sender can tell which one was refused:
 * an event (a command and an ack included) by its id as `cause` (AEP-0004 §4.2), a request
 * frame by its own `id`, echoed (AEP-0003 §6.5). Nothing for a frame without one.
 */
export function correlation(value: unknown): { id?: unknown; cause?: unknown } {
  if (!isPlainObject(value)) return {};
  if (isEventLike(value)) return typeof value.id === 'string' ? { cause: value.id } : {};
  return value.id === undefined ? {} : { id: value.id };
}
