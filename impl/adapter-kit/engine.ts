/**
 * The adapter engine: everything a daemon does between "a hook (or a command) arrived" and
 * "these events were emitted; this is the vendor's reply". No sockets: event lines leave through
 * `send`, the session log is appended (when a home is given), and the only timers are the
 * held-request timeouts. Clock and timers are injectable, so the same engine runs on a fake clock.
 *
 * The engine only wires its parts, one concern each:
 * - emission.ts: envelope, `(epoch, seq)`, session log, send;
 * - held-requests.ts: attention requests, the hooks waiting on them, timeouts;
 * - commands.ts: the AEP-0004 §7 control target (dedupe, acks, answers, steering commands);
 * - steering-desk.ts: the steering queue and its audit events;
 * - sessions.ts: the open run and the adapter's scratch state per session.
 *
 * Kit guarantee, whatever the adapter does: emitting `session.ended` first dismisses every
 * request still open in that session (`attention.resolved{dismissed}`) and drops its queued
 * steering (audited), so no request outlives its session; then the session's run and scratch
 * state are forgotten. `dismissAll()` (shutdown) dismisses what is still open everywhere.
 *
 * `handleHook` first makes the input safe to map (hook-input.ts: lone surrogates, runaway nesting;
 * each rewrite is logged; the daemon guards the body itself and calls `handleGuarded`, so a hook is
 * walked once), runs the adapter's handler, then attaches queued steering to an otherwise
 * neutral reply on a steerable moment (held replies carry decisions, never steering).
 */
import type { AepEvent } from '../core/event.js';
import { createCommandTarget } from './commands.js';
import { createEmitter, type Emitter } from './emission.js';
import { HeldRequests, REAL_TIMERS, type Audience, type EngineTimers } from './held-requests.js';
import { guardHookInput, guardProblems } from './hook-input.js';
import { SessionBook } from './sessions.js';
import { SteeringDesk } from './steering-desk.js';
import { CallCauses } from './call-causes.js';
import type { AdapterDef, HookContext, HoldSpec, Posture } from './types.js';

export type { Audience, EngineTimers } from './held-requests.js';

export interface EngineConfig {
  posture: Posture;
  /** How long a held hook waits for an answer, in ms. */
  timeoutMs: number;
  /** Who can see a held request and how long one raised unseen waits (the daemon: the relay link); absent = always somebody. */
  audience?: Audience;
  /** Whether `x.{agent}.control.instruct` is accepted. */
  instruct: boolean;
  /** AEP home: session logs go under `logs/<agent>/`; absent = no session log (offline runs). */
  home?: string;
  /** Host name used in `source`. */
  host: string;
  /** This process's epoch. */
  epoch: number;
  /** Where event lines (and recorded re-acks) go: the relay link, or nowhere. */
  send(line: string): void;
  /** Human diagnostics. */
  log(line: string): void;
  /** Observer for every emitted event. */
  onEmit?: (event: AepEvent, line: string) => void;
  /** Epoch milliseconds for event times, ids, latencies and queue ages; default `Date.now`. */
  clock?: () => number;
  /** Hold timers; default the real ones (the offline control-loop family passes a fake clock). */
  timers?: EngineTimers;
}

/** Created once per daemon; every member may be called at any time until `dismissAll()` at shutdown. */
export interface Engine {
  /** The command types declared in hello `control.accepts`. */
  readonly accepts: string[];
  /** Handle one hook; resolves to the vendor's exact stdout. The input is guarded first (hook-input.ts). */
  handleHook(hookEvent: string, input: Record<string, unknown>): Promise<string>;
  /** Handle one hook whose input the caller already passed through `guardHookInput` (the daemon), so it is walked once. */
  handleGuarded(hookEvent: string, input: Record<string, unknown>): Promise<string>;
  /** Handle one inbound command frame (its exact text and parsed value). */
  onCommand(raw: string, cmd: Record<string, unknown>): void;
  /** The exact lines of the requests still open (redelivered after a relay reconnect). */
  pendingLines(): string[];
  /** Free every held hook as dismissed (shutdown). */
  dismissAll(): void;
  /** Resolves once every emitted line is in its session log. */
  flushLog(): Promise<void>;
  /** Flush the session logs and close their file handles (shutdown, after `dismissAll`). */
  closeLog(): Promise<void>;
  /** The adapter-facing services (for `AdapterDef.attach`). */
  readonly context: HookContext;
}

/** The parts the engine wires: emission, the held requests, the steering desk, the per-session book. */
interface EngineParts {
  emitter: Emitter;
  held: HeldRequests;
  steering: SteeringDesk;
  sessions: SessionBook;
}

/**
 * The emitter and the parts that emit through it, with the kit's session-end guarantee: emitting
 * `session.ended` first dismisses the session's open requests and drops its queued steering, then
 * forgets its run and scratch state.
 */
function wireParts(def: AdapterDef, cfg: EngineConfig, clock: () => number): EngineParts {
  const { posture } = cfg;
  const sessions = new SessionBook(clock);
  // Late-bound: the session-end guarantee needs the parts that emit through this emitter.
  let closeSession: (session: string) => void = () => {};
  const emitter = createEmitter({
    agent: def.agent,
    host: cfg.host,
    epoch: cfg.epoch,
    posture,
    clock,
    ...(cfg.home !== undefined ? { home: cfg.home } : {}),
    send: cfg.send,
    log: cfg.log,
    ...(cfg.onEmit ? { onEmit: cfg.onEmit } : {}),
    beforeEmit: (session, mapped) => {
      if (mapped.type === 'session.ended') closeSession(session);
    },
    afterEmit: (event) => {
      if (event.type === 'session.ended' && typeof event.session === 'string') sessions.forget(event.session);
    },
  });
  const held = new HeldRequests(emitter, posture, cfg.timeoutMs, clock, cfg.timers ?? REAL_TIMERS, cfg.audience);
  const steering = new SteeringDesk(def.agent, emitter, posture, clock, def.steeringCap);
  closeSession = (session) => {
    held.closeSession(session);
    steering.drop(session);
  };
  return { emitter, held, steering, sessions };
}

/** The adapter-facing services over the engine's parts. */
function hookContext(cfg: EngineConfig, clock: () => number, { emitter, held, steering, sessions }: EngineParts): HookContext {
  const causes = new CallCauses();
  const runOf = (spec: HoldSpec): string | undefined => spec.run ?? sessions.run(spec.session);
  return {
    posture: cfg.posture,
    attentionTimeoutMs: cfg.timeoutMs,
    now: clock,
    run: (session) => sessions.run(session),
    setRun: (session, id) => sessions.setRun(session, id),
    emit: (session, mapped, extra) => {
      // A tool terminal without a cause names its request (call-causes.ts).
      const cause = causes.causeFor(session, mapped, extra?.cause);
      const event = emitter.emit(session, mapped, cause === undefined ? extra : { ...extra, cause }).event;
      causes.note(event);
      return event;
    },
    hold: (spec) => held.hold(spec, runOf(spec)),
    open: (spec) => held.open(spec, runOf(spec)),
    pending: (session, key) => held.list(session, key),
    settle: (id, how) => held.settle(id, how),
    takeSteering: (session) => steering.take(session),
    dropSteering: (session) => steering.drop(session),
    state: (session, init) => sessions.state(session, init),
    ended: (session) => sessions.ended(session),
  };
}

export function createEngine(def: AdapterDef, cfg: EngineConfig): Engine {
  const { posture } = cfg;
  const clock = cfg.clock ?? (() => Date.now());
  const instructType = `x.${def.agent}.control.instruct`;
  const instruct = cfg.instruct && def.instruct !== false;
  const accepts = [...def.accepts, ...(instruct ? [instructType] : [])];
  const parts = wireParts(def, cfg, clock);
  const { emitter, held, steering } = parts;
  const ctx = hookContext(cfg, clock, parts);
  const onCommand = createCommandTarget({
    accepts,
    instructType,
    ...(def.steeringCap !== undefined ? { steeringCap: def.steeringCap } : {}),
    posture,
    clock,
    emitter,
    held,
    steering,
    send: cfg.send,
    log: cfg.log,
    ...(def.command ? { actuate: (cmd: Record<string, unknown>) => def.command!(cmd, ctx) } : {}),
  });

  async function handleHook(hookEvent: string, raw: Record<string, unknown>): Promise<string> {
    // Emit what can be emitted: an input no event could carry is made safe first, and said so.
    const guarded = guardHookInput(raw);
    // Unchanged input keeps its identity.
    const input = guarded.truncated === 0 && guarded.repaired === 0 ? raw : (guarded.value as Record<string, unknown>);
    for (const problem of guardProblems(guarded)) cfg.log(`hook ${hookEvent}: ${problem}`);
    return handleGuarded(hookEvent, input);
  }

  async function handleGuarded(hookEvent: string, input: Record<string, unknown>): Promise<string> {
    const reply = await def.handle(hookEvent, input, ctx);
    const session = typeof input.session_id === 'string' ? input.session_id : undefined;
    if (instruct && session && reply === def.neutralReply(hookEvent) && def.steerable(hookEvent)) {
      const text = ctx.takeSteering(session);
      if (text !== null) return def.steeringReply(hookEvent, text);
    }
    return reply;
  }

  return {
    accepts,
    handleHook,
    handleGuarded,
    onCommand,
    context: ctx,
    pendingLines: () => held.pendingLines(),
    dismissAll: () => held.dismissAll(),
    flushLog: () => emitter.flushLog(),
    closeLog: () => emitter.closeLog(),
  };
}
