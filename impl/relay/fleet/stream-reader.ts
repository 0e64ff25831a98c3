/**
 * `StreamReader`: a node's reader of the whole fleet stream, in stream order, that survives the
 * death of the NATS server its consumer lives on.
 *
 * It reads with an ordered consumer (ephemeral, one replica: it lives on ONE server of the
 * cluster). When that server dies the consumer dies with it, and the client library can wait
 * forever on it: its iterator may end, or stay open and silent, or retry the lost consumer's
 * info indefinitely. So the reader watches the consumer itself: the server answers a consumer
 * that is alive at least every heartbeat (a message, an idle heartbeat or the end of a pull).
 * When the consumer is silent for three heartbeats while the connection is up, or its iterator
 * ends, or the server says it is gone, the reader drops it and creates a new one that starts
 * right after the last stream sequence it delivered. Each sequence is delivered at most once
 * (a message at or below the last delivered one, e.g. a late one of the dropped consumer, is
 * skipped), and none is skipped: loss 0 and duplicates 0 at the node's own consumers.
 */
import { DeliverPolicy, type ConsumerMessages, type JetStreamClient, type JsMsg } from '@nats-io/jetstream';

export interface StreamReaderOptions {
  readonly js: JetStreamClient;
  readonly stream: string;
  /** Called once per stream message, in stream order. */
  readonly deliver: (m: JsMsg) => void;
  /** Is the NATS connection up? (A silent consumer is only suspect while it is.) */
  readonly connected: () => boolean;
  readonly log: (line: string) => void;
  /** The idle heartbeat the server sends an idle consumer, in ms (pulls expire after twice this). */
  readonly heartbeatMs?: number;
}

/** Consumer notifications that prove the server still serves the consumer. */
const ALIVE = new Set(['heartbeat', 'debug', 'discard', 'ordered_consumer_recreated', 'flow_control']);
/** Notifications that say it is gone. */
const GONE = new Set(['consumer_deleted', 'consumer_not_found', 'stream_not_found', 'no_responders']);

export class StreamReader {
  readonly #opts: StreamReaderOptions;
  readonly #heartbeatMs: number;
  /** The last stream sequence delivered. */
  #last = 0;
  #messages: ConsumerMessages | undefined;
  /** Bumped at every (re)creation: a loop of an older consumer stops delivering. */
  #generation = 0;
  #lastSign = Date.now();
  #restarting: Promise<void> | undefined;
  #closed = false;
  #watchdog: NodeJS.Timeout | undefined;
  /** Consumers created after the first (for logs and tests). */
  restarts = 0;

  constructor(opts: StreamReaderOptions) {
    this.#opts = opts;
    this.#heartbeatMs = opts.heartbeatMs ?? 1_000;
  }

  /** The last stream sequence delivered. */
  get last(): number {
    return this.#last;
  }

  /**
   * Is the consumer serving right now? False while the connection is down, while the consumer is
   * being re-created, and while it has been silent for more than two heartbeats (a live consumer
   * gives a sign at least every heartbeat). An ingest waiting for this node to apply its own events stops waiting
   * once this is false: the events are stored, and reach this node when its consumer is back.
   */
  get serving(): boolean {
    if (this.#closed || this.#restarting || !this.#opts.connected()) return false;
    return Date.now() - this.#lastSign <= 2 * this.#heartbeatMs;
  }

  /** Create the first consumer (from the stream's start) and start watching it. Throws when it cannot be created. */
  async start(): Promise<void> {
    await this.#open();
    this.#watchdog = setInterval(() => this.#check(), this.#heartbeatMs);
    this.#watchdog.unref();
  }

  #check(): void {
    if (this.#closed || this.#restarting || !this.#opts.connected()) {
      this.#lastSign = Date.now(); // a disconnected consumer is given a fresh grace period once back
      return;
    }
    const silent = Date.now() - this.#lastSign;
    if (silent > 3 * this.#heartbeatMs) this.restart(`silent for ${silent} ms`);
  }

  /** Drop the current consumer and create one that starts right after the last delivered sequence. */
  restart(reason: string): void {
    if (this.#closed || this.#restarting) return;
    this.#opts.log(`stream consumer lost (${reason}); recreating it from stream sequence ${this.#last + 1}`);
    this.#restarting = this.#reopen().finally(() => (this.#restarting = undefined));
  }

  async #reopen(): Promise<void> {
    this.#generation++;
    this.#messages?.stop();
    this.#messages = undefined;
    for (let attempt = 0; !this.#closed; attempt++) {
      try {
        await this.#open();
        this.restarts++;
        this.#opts.log(`stream consumer recreated from stream sequence ${this.#last + 1}`);
        return;
      } catch (err) {
        if (attempt === 0 || attempt % 20 === 0) this.#opts.log(`stream consumer could not be recreated yet (${describe(err)}); retrying`);
        await new Promise((r) => setTimeout(r, Math.min(2_000, 100 * 2 ** Math.min(attempt, 5))).unref?.());
      }
    }
  }

  async #open(): Promise<void> {
    const generation = ++this.#generation;
    const consumer = await this.#opts.js.consumers.get(this.#opts.stream, { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: this.#last + 1 });
    const messages = await consumer.consume({ max_messages: 512, expires: 2 * this.#heartbeatMs, idle_heartbeat: this.#heartbeatMs });
    if (this.#closed || generation !== this.#generation) {
      messages.stop();
      return;
    }
    this.#messages = messages;
    this.#lastSign = Date.now();
    void this.#watch(messages, generation);
    void this.#read(messages, generation);
  }

  async #watch(messages: ConsumerMessages, generation: number): Promise<void> {
    for await (const s of messages.status()) {
      if (generation !== this.#generation) return;
      if (ALIVE.has(s.type)) this.#lastSign = Date.now();
      else if (GONE.has(s.type)) this.restart(`the server reported ${s.type}`);
    }
  }

  async #read(messages: ConsumerMessages, generation: number): Promise<void> {
    let why = 'its iterator ended';
    try {
      for await (const m of messages) {
        if (generation !== this.#generation) return;
        this.#lastSign = Date.now();
        if (m.seq <= this.#last) continue;
        this.#last = m.seq;
        this.#opts.deliver(m);
      }
    } catch (err) {
      why = `its iterator failed: ${describe(err)}`;
    }
    if (generation === this.#generation && !this.#closed) this.restart(why);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#watchdog);
    this.#generation++;
    const messages = this.#messages;
    this.#messages = undefined;
    await messages?.close().catch(() => {});
  }
}

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));
