/**
 * Publishes held through a stream failover (issue 37), pure: no timers, no NATS, a clock given.
 *
 * When a NATS server dies, the stream (R3) keeps its quorum but has no leader for a few seconds:
 * a publish finds no responder or times out, and the node's own connection may be on the dead
 * server (unreachable until it reconnects and checked its leases). Instead of answering 503 at
 * once, a node holds the publish and tries again, for at most the failover window
 * (`AEP_NATS_FAILOVER_MS`); only when the window is spent does ingest answer 503 with
 * `Retry-After`. This module holds the decisions: which failures are worth another attempt, how
 * long each attempt and each pause between attempts may take inside the window, and the
 * failover's own record (when it began, how long it lasted) for `/healthz` and the log line.
 */
import { isNotReady } from './stream.js';

/** The longest one publish attempt waits for its JetStream ack inside a window, in ms. */
export const ATTEMPT_MS = 2_000;
/**
 * The same during a failover: a publish sent while the stream has no leader is never answered
 * (it times out), so short attempts put the first one after the new leader's election within
 * this of it, instead of up to ATTEMPT_MS later. A retried publish keeps its message id, so an
 * attempt that was stored after all is not stored twice.
 */
export const FAILOVER_ATTEMPT_MS = 500;
/** An attempt shorter than this is not started: the window is spent. */
export const MIN_ATTEMPT_MS = 100;

/**
 * Whether a failed publish is worth another attempt inside the window: the stream has no leader
 * yet (no responders, a timeout, "temporarily unavailable", a 503, the client's "jetstream is not
 * enabled" for a publish nobody answered) or the connection is between
 * servers. A closed connection, a refused message or a permission error is not.
 */
export function isRetryable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (/closed|permission|authori[sz]ation|max payload|invalid/i.test(err.message) && !/temporarily/i.test(err.message)) return false;
  // "jetstream is not enabled": how the client reads a publish no server answered (503 no
  // responders), which is what a stream without a leader looks like from outside.
  return isNotReady(err) || /jetstream is not enabled|disconnect|reconnect|connection (lost|draining)/i.test(err.message);
}

/** The pause before retry `n` (0-based): 50, 100, then 200 ms, never past `deadline` (a leaderless stream refuses at once, so the pause sets the pace). */
export function pauseBefore(n: number, now: number, deadline: number): number {
  return Math.max(0, Math.min(50 * 2 ** Math.min(n, 2), 200, deadline - now));
}

/**
 * The ack timeout of an attempt started at `now`: at most ATTEMPT_MS, or FAILOVER_ATTEMPT_MS while
 * a failover is under way (`holding`), never past `deadline`; 0 when the window is spent.
 */
export function attemptTimeout(now: number, deadline: number, holding = false): number {
  const left = deadline - now;
  return left < MIN_ATTEMPT_MS ? 0 : Math.min(holding ? FAILOVER_ATTEMPT_MS : ATTEMPT_MS, left);
}

/** What `/healthz` says about failovers (`fleet.failover`). */
export interface FailoverStatus {
  /** `holding` while publishes are held, else `none`. */
  readonly state: 'holding' | 'none';
  /** While holding: when it began (ISO 8601) and for how long so far, in ms. */
  readonly since?: string;
  readonly held_ms?: number;
  /** The last failover that ended: when it ended and how long it lasted, in ms. */
  readonly last?: { readonly ended: string; readonly ms: number; readonly refused: number };
  /** Failovers ended since the node started. */
  readonly count: number;
}

/** A failover that just ended (the log line's figures). */
export interface EndedFailover {
  readonly ms: number;
  /** Requests answered 503 because their window was spent during it. */
  readonly refused: number;
}

/** One node's failover record: begun by the first held publish, ended by the next acknowledged one. */
export class FailoverRecord {
  #since: number | undefined;
  #refused = 0;
  #last: { ended: number; ms: number; refused: number } | undefined;
  #count = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  /** A publish is being held (it failed, or NATS is unreachable): starts a failover unless one is under way. */
  hold(): void {
    this.#since ??= this.clock();
  }

  /** A request's window was spent: it is answered 503. */
  refused(): void {
    if (this.#since !== undefined) this.#refused++;
  }

  /** A publish was acknowledged: ends the failover under way, returning its figures (undefined when none was). */
  stored(): EndedFailover | undefined {
    if (this.#since === undefined) return undefined;
    const now = this.clock();
    const ended = { ms: Math.max(0, now - this.#since), refused: this.#refused };
    this.#last = { ended: now, ...ended };
    this.#since = undefined;
    this.#refused = 0;
    this.#count++;
    return ended;
  }

  get holding(): boolean {
    return this.#since !== undefined;
  }

  status(): FailoverStatus {
    const last = this.#last ? { last: { ended: new Date(this.#last.ended).toISOString(), ms: this.#last.ms, refused: this.#last.refused } } : {};
    if (this.#since === undefined) return { state: 'none', ...last, count: this.#count };
    return { state: 'holding', since: new Date(this.#since).toISOString(), held_ms: Math.max(0, this.clock() - this.#since), ...last, count: this.#count };
  }
}

/** The log line of an ended failover: one per failover, with its duration. */
export function failoverLine(node: string, ended: EndedFailover, windowMs: number): string {
  const refused = ended.refused === 0 ? 'no request was refused' : `${ended.refused} request(s) spent the ${windowMs} ms window and were answered 503 with Retry-After`;
  return `fleet failover over on node ${node}: the stream acknowledged publishes again after ${(ended.ms / 1000).toFixed(1)} s (${ended.ms} ms) of held publishes; ${refused}`;
}
