/**
 * One subscription (an SSE stream, or one `subscribe` on a WebSocket), owned by the hub
 * (`HubLike.subscribe`): the replay-then-live sequence of AEP-0003 §5 and the backpressure
 * rule of AEP-0003 §8.4, written once for both transports. No sockets here: the transport
 * is a `SubscriptionWriter` that encodes and writes what it is handed.
 *
 * Sequence: the plan's `replay-exhausted` markers; then (when live) the subscription joins
 * the hub's fan-out at once, so nothing falls between replay and live; then the replay,
 * paced by the writer; live events arriving meanwhile wait in a queue, in order, and follow
 * it. Delivery switches to live only when the queue is empty after the last write, with no
 * await between that check and the switch. A non-live subscription ends with
 * `replay-complete` after its replay.
 *
 * Slow consumers: nothing is dropped silently. While more than `slowBytes` wait unsent (queued
 * behind the replay, in characters of the received text; or, once live, what the writer
 * reports as unsent), the next event ends the subscription with `slow-consumer`, so the
 * consumer resumes exactly from what it received.
 *
 * Gaps: the first event of a session the relay held nothing of at subscribe time (and never
 * evicted) is judged by `GapWatch`; the writer gets the position to announce with that event.
 */
import type { CaptureLevel } from '../core/event.js';
import type { FilterMatch } from '../core/filter.js';
import type { Received } from './buffer.js';
import { GapWatch } from './gap-watch.js';
import type { Position, ReplayRequest, ResumePoint } from './positions.js';

/** What a subscriber asked for. */
export interface SubscribeSpec {
  readonly filter: Readonly<Record<string, unknown>>;
  /** `filter` compiled once (`compileFilter`). */
  readonly match: FilterMatch;
  readonly ceiling: CaptureLevel | undefined;
  readonly replay: ReplayRequest;
  /** False: replay, then end with `replay-complete`. True: replay, then live until closed. */
  readonly live: boolean;
  /** Unsent bytes above which the consumer counts as slow (AEP-0003 §8.4). */
  readonly slowBytes: number;
  /** Keep the last delivered position per session (`delivered()`), e.g. for a WS `closing` frame. */
  readonly positions?: boolean;
}

/** An exhaustion marker of the replay plan: the session's requested position predates what the relay holds. */
export interface ExhaustedMarker {
  readonly session: string;
  /** The earliest position the relay delivers from. */
  readonly earliest: Position;
}

/** Why a subscription ended on its own (a transport closing calls `Subscription.close` instead). */
export type EndReason = 'slow-consumer' | 'replay-complete' | 'failed';

/**
 * The transport under one subscription. The subscription calls these in a fixed order:
 * `exhausted` once, first; then `replay` any number of times and `replayEnd` at least once,
 * awaiting `drained` whenever either returned false; then (when live) `live` once per event
 * and `flush` once per hub fan-out; `end` at most once, after which nothing else is called.
 * `bufferedBytes` may be called at any time. After the transport closed the subscription
 * (`Subscription.close`) nothing is called any more, except that a `drained` promise already
 * handed out must still resolve (a closed transport resolves it at once).
 */
export interface SubscriptionWriter {
  /** Bytes written to the transport and not yet sent, plus any the writer holds unwritten. */
  bufferedBytes(): number;
  /** The plan's markers, in order (possibly none). Called once, before anything else. */
  exhausted(markers: readonly ExhaustedMarker[]): void;
  /**
   * One replayed (or queued-live) event, preceded by a `replay-exhausted` marker for its
   * session at `gap` when `gap` is set. The writer may hold it to write with the next ones.
   * Returns false when the transport is over its high-water mark: the subscription then
   * awaits `drained()` before the next call.
   */
  replay(rec: Received, gap: Position | undefined): boolean;
  /** Write whatever replay output is held. Called after the replay and after each refill of the queue. Returns as `replay`. */
  replayEnd(): boolean;
  /** Resolves once the transport can take more, or closed. Called only right after `replay` or `replayEnd` returned false. */
  drained(): Promise<void>;
  /** One live event, its gap marker first when `gap` is set; the writer may hold it until `flush`. */
  live(rec: Received, gap: Position | undefined): void;
  /**
   * Optional: the records of one fan-out at once, exactly as `live(rec, undefined)` for each in
   * order. Offered only by a writer whose `bufferedBytes` grows by `rec.raw.length` for each
   * record it holds until `flush` (the subscription checks the slow-consumer bound for the whole
   * selection from that). `recs` may be shared with other writers and kept until `flush`: neither
   * side changes it.
   */
  liveAll?(recs: readonly Received[]): void;
  /**
   * End of one hub fan-out (after its last `live`, or with none): write what is held. `shared` is
   * one list per fan-out, handed to every writer's `flush` in turn, empty at the start of the
   * fan-out and dropped at its end: a writer may leave what it built there (e.g. a batch's
   * encoded bytes, `sse-bytes.ts`) for the writers after it, and find what they left.
   */
  flush?(shared?: unknown[]): void;
  /** The subscription ended on its own: say so on the wire and close. `err` is set for `failed`. */
  end(reason: EndReason, err?: unknown): void;
}

/** Where a live subscription is registered for fan-out (the hub's own set; only the subscription touches its entry). */
export interface SinkRegistry {
  add(sub: Subscription): unknown;
  delete(sub: Subscription): unknown;
}

/** What a subscription replays before it goes live (`Hub.plan`). */
export interface ReplayPlan {
  /** One marker per requested session whose requested position predates the buffer. */
  readonly exhausted: readonly ExhaustedMarker[];
  /** Matching held events, in delivery order. */
  readonly events: readonly Received[];
  /**
   * Requested positions of sessions the relay holds nothing of and never evicted (e.g. after a
   * restart): the subscription checks the first event it delivers of each (`GapWatch`).
   */
  readonly unanchored: readonly ResumePoint[];
}

export class Subscription {
  readonly filter: Readonly<Record<string, unknown>>;
  readonly match: FilterMatch;
  readonly ceiling: CaptureLevel | undefined;
  readonly #writer: SubscriptionWriter;
  readonly #spec: SubscribeSpec;
  readonly #gaps: GapWatch;
  readonly #delivered: Map<string, Position> | undefined;
  #registry: SinkRegistry | undefined;
  /** True until the replay and everything queued meanwhile went to the writer. */
  #replaying = true;
  /** Live events that arrived during the replay, in order, and their size in characters. */
  #queue: Received[] = [];
  #queued = 0;
  #ended = false;

  /** Created and started by the hub (`HubLike.subscribe`), never by a transport. */
  constructor(spec: SubscribeSpec, plan: ReplayPlan, writer: SubscriptionWriter) {
    this.filter = spec.filter;
    this.match = spec.match;
    this.ceiling = spec.ceiling;
    this.#spec = spec;
    this.#writer = writer;
    this.#gaps = new GapWatch(plan.unanchored);
    this.#delivered = spec.positions ? new Map() : undefined;
  }

  /**
   * Markers, then (live) join `registry`, then the replay, all started in this call: nothing a
   * fan-out delivers can fall between the replay and live delivery.
   */
  start(plan: ReplayPlan, registry: SinkRegistry): void {
    this.#writer.exhausted(plan.exhausted);
    if (this.#spec.live) {
      this.#registry = registry;
      registry.add(this);
    }
    this.#replay(plan.events).catch((err: unknown) => this.#end('failed', err));
  }

  /** Whether the subscription ended (closed by its transport, or on its own). */
  get ended(): boolean {
    return this.#ended;
  }

  /** The last position delivered per session (only with `positions`; else empty). */
  delivered(): ReadonlyMap<string, Position> {
    return this.#delivered ?? EMPTY;
  }

  /** The transport is done with this subscription: leave the fan-out, stop the replay. Idempotent. */
  close(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#registry?.delete(this);
    this.#queue = [];
    this.#queued = 0;
  }

  /** Called by the hub's fan-out, once per matching event, in arrival order. */
  deliver(rec: Received): void {
    if (this.#ended) return;
    if (this.#replaying) {
      this.#queue.push(rec);
      this.#queued += rec.raw.length;
      if (this.#queued > this.#spec.slowBytes) this.#end('slow-consumer');
      return;
    }
    // Over the bound the consumer is told why and dropped, never silently skipped (AEP-0003 §8.4).
    if (this.#writer.bufferedBytes() > this.#spec.slowBytes) return this.#end('slow-consumer');
    const gap = this.#gaps.check(rec);
    if (this.#delivered) this.#track(rec);
    this.#writer.live(rec, gap);
  }

  /**
   * Called by the hub's fan-out with every matching event of the batch, in arrival order, when
   * the subscription can take them as one: live, no gap marker owed, no positions kept, a writer
   * with `liveAll`, and the whole selection within the slow-consumer bound (checked before each
   * event, the bound is tightest before the last one). Returns false, having done nothing, when
   * the events must go one by one through `deliver` instead; true when taken (or ended).
   */
  deliverAll(recs: readonly Received[]): boolean {
    if (this.#ended) return true;
    const w = this.#writer;
    if (this.#replaying || this.#delivered !== undefined || !this.#gaps.idle || w.liveAll === undefined || recs.length === 0) return false;
    let chars = 0;
    for (let i = 0; i < recs.length - 1; i++) chars += recs[i]!.raw.length;
    if (w.bufferedBytes() + chars > this.#spec.slowBytes) return false;
    w.liveAll(recs);
    return true;
  }

  /** Called by the hub at the end of every fan-out, with the fan-out's shared list (see `SubscriptionWriter.flush`). */
  flush(shared?: unknown[]): void {
    if (!this.#ended) this.#writer.flush?.(shared);
  }

  #end(reason: EndReason, err?: unknown): void {
    if (this.#ended) return;
    this.close();
    this.#writer.end(reason, err);
  }

  #track(rec: Received): void {
    const { session, seq } = rec.event;
    if (typeof session === 'string' && typeof seq === 'number') this.#delivered!.set(session, { epoch: rec.event.epoch ?? 0, seq });
  }

  /** The replay, then the queue, until nothing is left after the last write; then live (or the end). */
  async #replay(events: readonly Received[]): Promise<void> {
    const w = this.#writer;
    for (const rec of events) {
      if (this.#ended) return;
      if (!this.#replayOne(rec)) await w.drained();
    }
    for (;;) {
      const batch = this.#queue;
      this.#queue = [];
      for (const rec of batch) {
        if (this.#ended) return;
        this.#queued -= rec.raw.length;
        if (!this.#replayOne(rec)) await w.drained();
      }
      if (this.#ended) return;
      if (!w.replayEnd()) await w.drained();
      // No await between this check and the switch: what arrives next is delivered live.
      if (this.#queue.length === 0 || this.#ended) break;
    }
    this.#replaying = false;
    if (!this.#ended && !this.#spec.live) this.#end('replay-complete');
  }

  #replayOne(rec: Received): boolean {
    const gap = this.#gaps.check(rec);
    if (this.#delivered) this.#track(rec);
    return this.#writer.replay(rec, gap);
  }
}

const EMPTY: ReadonlyMap<string, Position> = new Map();
