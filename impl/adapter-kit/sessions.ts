/**
 * Per-session runtime state the kit keeps for an adapter: the open run, and one adapter-owned
 * scratch object (whatever the adapter's identity rules need to remember, e.g. open tool calls).
 * Both are forgotten when the session ends (the engine calls `forget` after `session.ended`).
 */
import { ulid } from '../core/ulid.js';

export class SessionBook {
  private readonly runs = new Map<string, string>();
  private readonly scratch = new Map<string, unknown>();

  constructor(private readonly clock: () => number) {}

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

  forget(session: string): void {
    this.runs.delete(session);
    this.scratch.delete(session);
  }
}
