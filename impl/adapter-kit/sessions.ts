/**
 * Per-session runtime state the kit keeps for an adapter: the open run, and one adapter-owned
 * scratch object (whatever the adapter's identity rules need to remember, e.g. open tool calls).
 * Both are forgotten when the session ends (the engine calls `forget` after `session.ended`);
 * the fact that it ended is kept (the most recent `endedCapacity` sessions, default 10 000), so
 * an adapter can tell a vendor resuming an ended session from a new one.
 */
import { ulid } from '../core/ulid.js';

export class SessionBook {
  private readonly runs = new Map<string, string>();
  private readonly scratch = new Map<string, unknown>();
  private readonly endedSessions = new Set<string>();

  constructor(private readonly clock: () => number, private readonly endedCapacity = 10_000) {}

  run(session: string): string | undefined {
    return this.runs.get(session);
  }

  /** Open (`id`, or a fresh ULID when undefined) or close (`null`) the current run of a session. */
  setRun(session: string, id: string | null | undefined): string | undefined {
    if (id === null) {
      this.runs.delete(session);
      return undefined;
    }
    const run = id ?? ulid(this.clock());
    this.runs.set(session, run);
    return run;
  }

  /** The adapter's scratch object for a session, created by `init` on first use. */
  state<T>(session: string, init: () => T): T {
    if (!this.scratch.has(session)) this.scratch.set(session, init());
    return this.scratch.get(session) as T;
  }

  /** Forget a session's run and state, and remember that it ended. */
  forget(session: string): void {
    this.runs.delete(session);
    this.scratch.delete(session);
    this.endedSessions.delete(session);
    this.endedSessions.add(session);
    while (this.endedSessions.size > this.endedCapacity) this.endedSessions.delete(this.endedSessions.values().next().value as string);
  }

  /** Whether `session.ended` was emitted for the session (by this engine). */
  ended(session: string): boolean {
    return this.endedSessions.has(session);
  }
}
