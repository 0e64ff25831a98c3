/**
 * The adapter engine: everything a daemon does between "a hook (or a command) arrived" and
 * "these events were emitted; this is the vendor's reply". No sockets: event lines leave through
 * `send`, the session log is appended here (when a home is given), and the only timers are the
 * held-request timeouts. Clock and timers are injectable, so the same engine runs on a fake clock.
 *
 * - `handleHook` runs the adapter's handler, then attaches queued steering to an otherwise
 *   neutral reply on a steerable moment (held replies carry decisions, never steering).
 * - `onCommand` is the AEP-0004 §7 control target: dedupe on `(source, id)` with the recorded ack
 *   re-sent byte-identically, `unsupported` for undeclared types, one ack decision per command,
 *   outcomes cause-linked to the command.
 */
import { isPlainObject, type AepEvent } from '../core/event.js';
import { ulid } from '../core/ulid.js';
import { gateFormValues } from '../core/forms.js';
import { redactText } from '../core/redact.js';
import { levelFor, red } from './capture.js';
import { Sequencer, type EnvelopeExtra } from './envelope.js';
import { HeldLoop, parseAnswer, type PendingRequest } from './held-loop.js';
import { CommandLedger } from './ledger.js';
import { SteeringQueue, joinInstructions } from './steering.js';
import { appendLog } from './store.js';
import type { AdapterDef, HookContext, HoldSpec, Mapped, Posture, Settlement } from './types.js';

/** Timers for held requests; the default is `setTimeout`/`clearTimeout`. */
export interface EngineTimers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const REAL_TIMERS: EngineTimers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface EngineConfig {
  posture: Posture;
  /** How long a held hook waits for an answer, in ms. */
  timeoutMs: number;
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
  /** Handle one hook; resolves to the vendor's exact stdout. */
  handleHook(hookEvent: string, input: Record<string, unknown>): Promise<string>;
  /** Handle one inbound command frame (its exact text and parsed value). */
  onCommand(raw: string, cmd: Record<string, unknown>): void;
  /** The exact lines of the requests still held (redelivered after a relay reconnect). */
  pendingLines(): string[];
  /** Free every held hook as dismissed (shutdown). */
  dismissAll(): void;
}

function isCommand(type: string): boolean {
  return type.startsWith('control.') || /^x\.[a-z0-9-]+\.control\./.test(type);
}

export function createEngine(def: AdapterDef, cfg: EngineConfig): Engine {
  const { posture, timeoutMs, home, log } = cfg;
  const clock = cfg.clock ?? (() => Date.now());
  const timers = cfg.timers ?? REAL_TIMERS;
  const instructType = `x.${def.agent}.control.instruct`;
  const accepts = [...def.accepts, ...(cfg.instruct ? [instructType] : [])];
  const seq = new Sequencer(def.agent, cfg.host, cfg.epoch, posture, () => ulid(clock()), clock);
  const loop = new HeldLoop();
  const ledger = new CommandLedger();
  const steering = new SteeringQueue();
  const runs = new Map<string, string>();
  const waiters = new Map<string, { resolve(s: Settlement): void; timer: unknown; line: string }>();
  const redact = (s: string): string => redactText(s, { pii: true });

  function emitLine(session: string, mapped: Mapped, extra: EnvelopeExtra = {}): { event: AepEvent; line: string } {
    const event = seq.build(session, mapped, extra);
    const line = JSON.stringify(event);
    if (home !== undefined) {
      try {
        appendLog(home, def.agent, session, line);
      } catch (err) {
        log(`cannot append to the session log: ${(err as Error).message}`);
      }
    }
    cfg.send(line);
    cfg.onEmit?.(event, line);
    return { event, line };
  }
  const emit = (session: string, mapped: Mapped, extra?: EnvelopeExtra): AepEvent => emitLine(session, mapped, extra).event;

  /** Deliver a settlement to the hook waiting on request `id`. */
  function release(id: string, settlement: Settlement): void {
    const waiter = waiters.get(id);
    if (!waiter) return;
    timers.clear(waiter.timer);
    waiters.delete(id);
    waiter.resolve(settlement);
  }

  /** attention.answered (+ attention.resolved cause-linked to it) for a settled request. */
  function recordAnswer(request: PendingRequest, settlement: Extract<Settlement, { kind: 'option' | 'values' }>, cause: string): string {
    const level = levelFor('attention.answered', posture);
    const answer: Record<string, unknown> = {};
    if (settlement.kind === 'option') {
      answer.option = settlement.option;
      const text = settlement.text === undefined ? undefined : red(settlement.text, level);
      if (text !== undefined) answer.text = text;
    } else {
      answer.values = gateFormValues(request.fields ?? [], settlement.values, level, redact);
    }
    const answered = emit(request.session, { type: 'attention.answered', data: { answer, via: settlement.via }, subject: request.id }, { run: request.run, cause });
    emit(request.session, { type: 'attention.resolved', data: { resolution: 'answered', latency_ms: Math.max(0, clock() - request.openedAt) }, subject: request.id }, { run: request.run, cause: answered.id });
    return answered.id;
  }

  function ack(cmd: Record<string, unknown>, nack?: { reason: string; detail: string }): void {
    const session = cmd.session as string;
    const data: Record<string, unknown> = {};
    if (nack) {
      data.reason = nack.reason;
      const detail = red(nack.detail, levelFor('control.rejected', posture));
      if (detail !== undefined) data.detail = detail;
    }
    const type = nack ? 'control.rejected' : 'control.accepted';
    const run = typeof cmd.run === 'string' ? cmd.run : undefined;
    const { line } = emitLine(session, { type, data }, { cause: cmd.id as string, ...(run ? { run } : {}) });
    ledger.record(cmd.source as string, cmd.id as string, line);
  }

  function onCommand(_raw: string, cmd: Record<string, unknown>): void {
    const { id, source, type, session } = cmd;
    if (typeof id !== 'string' || typeof source !== 'string' || typeof type !== 'string' || !isCommand(type)) return;
    const recorded = ledger.recorded(source, id);
    if (recorded !== undefined) {
      cfg.send(recorded);
      return;
    }
    if (typeof session !== 'string') {
      log(`ignored command ${id}: no target session`);
      return;
    }
    if (!accepts.includes(type)) {
      ack(cmd, { reason: 'unsupported', detail: `${type} is not in this adapter's control.accepts (${accepts.join(', ') || 'none'})` });
      return;
    }
    if (type === 'control.attention.respond') {
      const answer = parseAnswer(cmd.data);
      if (!answer) {
        ack(cmd, { reason: 'invalid', detail: 'data.answer must be an object with option/text strings or a values object' });
        return;
      }
      const target = typeof cmd.subject === 'string' ? cmd.subject : typeof cmd.cause === 'string' ? cmd.cause : undefined;
      const pending = target === undefined ? undefined : loop.get(target);
      const outcome = pending && pending.session !== session
        ? ({ ok: false, reason: 'invalid', detail: `attention request '${target}' belongs to another session` } as const)
        : loop.respond(target, answer);
      if (!outcome.ok) {
        ack(cmd, { reason: outcome.reason, detail: outcome.detail });
        return;
      }
      ack(cmd);
      const answered = recordAnswer(outcome.request, outcome.settlement, id);
      release(outcome.request.id, { ...outcome.settlement, answered });
      return;
    }
    if (type === instructType) {
      const text = isPlainObject(cmd.data) && typeof cmd.data.text === 'string' ? cmd.data.text : '';
      const cap = def.steeringCap ?? Infinity;
      const problem = text.trim() === '' ? 'data.text must be a non-empty string'
        : text.length > cap ? `data.text is ${text.length} characters; this vendor accepts at most ${cap}`
        : steering.push(session, { commandId: id, text, queuedAt: clock() });
      if (problem) ack(cmd, { reason: 'invalid', detail: problem });
      else ack(cmd);
      return;
    }
    ack(cmd, { reason: 'unsupported', detail: `${type} has no handler in this adapter` });
  }

  const ctx: HookContext = {
    posture,
    run: (session) => runs.get(session),
    setRun(session, id) {
      if (id === null) {
        runs.delete(session);
        return undefined;
      }
      const run = id ?? ulid(clock());
      runs.set(session, run);
      return run;
    },
    emit,
    hold(spec: HoldSpec) {
      const run = spec.run ?? runs.get(spec.session);
      const { event: request, line } = emitLine(spec.session, spec.mapped, run ? { run } : {});
      loop.open({
        id: request.id,
        session: spec.session,
        ...(run ? { run } : {}),
        ...(spec.key ? { key: spec.key } : {}),
        ...(spec.options ? { options: spec.options } : {}),
        ...(spec.fields ? { fields: spec.fields } : {}),
        refusing: spec.refusing ?? 'deny',
        ...(spec.legacyAnswer ? { legacyAnswer: spec.legacyAnswer } : {}),
        openedAt: clock(),
      });
      return new Promise((resolve) => {
        const timer = timers.set(() => {
          const expired = loop.close(request.id);
          if (!expired) return;
          emit(expired.session, { type: 'attention.timeout', data: { after_ms: timeoutMs }, subject: expired.id }, { ...(run ? { run } : {}), cause: expired.id });
          release(expired.id, { kind: 'timeout' });
        }, timeoutMs);
        waiters.set(request.id, { timer, line, resolve: (settlement) => resolve({ request, settlement }) });
      });
    },
    pending: (session, key) => loop.list(session, key).map((r) => ({ id: r.id, session: r.session, ...(r.key ? { key: r.key } : {}) })),
    settle(id, how) {
      const request = loop.close(id);
      if (!request) return false;
      if (how.kind === 'dismissed') {
        emit(request.session, { type: 'attention.resolved', data: { resolution: 'dismissed', latency_ms: Math.max(0, clock() - request.openedAt) }, subject: id }, { ...(request.run ? { run: request.run } : {}), cause: id });
        release(id, { kind: 'dismissed' });
        return true;
      }
      const settlement: Extract<Settlement, { kind: 'option' | 'values' }> = how.answer.values !== undefined
        ? { kind: 'values', values: how.answer.values, via: 'oob' }
        : { kind: 'option', option: how.answer.option ?? request.refusing, ...(how.answer.text ? { text: how.answer.text } : {}), via: 'oob' };
      const answered = recordAnswer(request, settlement, id);
      release(id, { ...settlement, answered });
      return true;
    },
    takeSteering(session) {
      const taken = steering.take(session, def.steeringCap);
      if (taken.length === 0) return null;
      const level = levelFor(`x.${def.agent}.instruction.delivered`, posture);
      for (const item of taken) {
        const data: Record<string, unknown> = { queued_ms: Math.max(0, clock() - item.queuedAt) };
        const text = red(item.text, level);
        if (text !== undefined) data.text = text;
        emit(session, { type: `x.${def.agent}.instruction.delivered`, data }, { cause: item.commandId });
      }
      return joinInstructions(taken);
    },
    dropSteering(session) {
      const level = levelFor(`x.${def.agent}.instruction.dropped`, posture);
      for (const item of steering.drop(session)) {
        const data: Record<string, unknown> = { reason: 'session-ended' };
        const text = red(item.text, level);
        if (text !== undefined) data.text = text;
        emit(session, { type: `x.${def.agent}.instruction.dropped`, data }, { cause: item.commandId });
      }
    },
  };

  async function handleHook(hookEvent: string, input: Record<string, unknown>): Promise<string> {
    const reply = await def.handle(hookEvent, input, ctx);
    const session = typeof input.session_id === 'string' ? input.session_id : undefined;
    if (cfg.instruct && session && reply === def.neutralReply(hookEvent) && def.steerable(hookEvent)) {
      const text = ctx.takeSteering(session);
      if (text !== null) return def.steeringReply(hookEvent, text);
    }
    return reply;
  }


  return {
    accepts,
    handleHook,
    onCommand,
    pendingLines: () => [...waiters.values()].map((w) => w.line),
    dismissAll() {
      for (const id of [...waiters.keys()]) ctx.settle(id, { kind: 'dismissed' });
    },
  };
}
