/**
 * Synthesized runs, for vendors whose hooks carry no turn id (Gemini CLI, Qwen Code, VS Code,
 * Kimi Code): the adapter mints one run per opening moment (a ULID), closes it at the closing
 * moment with the terminal cause-linked to its `run.started`, and drains a run left open (the
 * vendor never sent its closing hook) as `run.cancelled` at the next opening moment or at the
 * session's end, also cause-linked. A drain carries no `by`: the adapter does not know who
 * stopped the turn.
 *
 * State is the engine's current run per session (`ctx.run`) plus the `run.started` id of each
 * open run, keyed by the run id (unique), so one instance may serve several engines.
 */
import type { AepEvent } from '../core/event.js';
import type { HookContext, Mapped } from './types.js';

export class SynthesizedRuns {
  private readonly started = new Map<string, string>();

  /** Drain any open run, then open a new one with `mapped` (a `run.started`). Returns the event. */
  open(ctx: HookContext, session: string, mapped: Mapped): AepEvent {
    this.drain(ctx, session);
    const run = ctx.setRun(session, undefined)!;
    const event = ctx.emit(session, mapped, { run });
    this.started.set(run, event.id);
    return event;
  }

  /** Close the open run with `mapped` (a terminal); with no open run the terminal is emitted run-less. */
  close(ctx: HookContext, session: string, mapped: Mapped): AepEvent {
    const run = ctx.run(session);
    if (run === undefined) return ctx.emit(session, mapped);
    const cause = this.started.get(run);
    this.started.delete(run);
    ctx.setRun(session, null);
    return ctx.emit(session, mapped, { run, ...(cause ? { cause } : {}) });
  }

  /** Close a run left open as `run.cancelled` (no `by`); nothing when no run is open. */
  drain(ctx: HookContext, session: string): AepEvent | undefined {
    if (ctx.run(session) === undefined) return undefined;
    return this.close(ctx, session, { type: 'run.cancelled', data: {} });
  }
}
