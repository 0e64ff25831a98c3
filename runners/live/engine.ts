/**
 * The adapter engine: everything an adapter daemon decides, with no I/O. Hooks go in and come
 * back as the exact vendor reply; commands go in and come back as acks; every event goes out
 * through `emit` with its exact line. The clock, the timers and the id source are injected, so
 * the same engine runs in the daemon (real time) and in the offline control-loop family (a fake
 * clock, no sockets).
 *
 * Rules implemented here (AEP-0004 §3, §5, §7; AEP-0006; AEP-0008; the steering design record):
 * - a command is deduped on `(source, id)`: the first delivery gets one ack decision, a
 *   redelivery gets the recorded ack bytes again through `resend` (never a second decision);
 * - an undeclared command type gets `control.rejected{reason:"unsupported"}`;
 * - `control.attention.respond`: an unknown or foreign request id, a malformed answer or a form
 *   answer that fails validation is nacked `invalid` (a form stays pending); an accepted answer
 *   is acked, then `attention.answered` (cause = the command) and `attention.resolved`
 *   (cause = the answered event) are emitted and the held hook is released;
 * - a held hook not answered within `attentionTimeoutMs` emits `attention.timeout` and is freed
 *   with the vendor's neutral reply (fail open);
 * - steering (`instruct`): `x.{agent}.control.instruct` texts queue per session and ride the next
 *   otherwise-neutral reply of a steerable moment, audited by `x.{agent}.instruction.delivered`.
 */
import { isPlainObject, type AepEvent } from '../../impl/core/event.js';
import { ulid } from '../../impl/core/ulid.js';
import { gateFormValues } from '../../impl/core/forms.js';
import { redactText } from '../../impl/core/redact.js';
import { DEFAULT_POSTURE, levelFor, red } from '../../impl/adapter-kit/capture.js';
import { Sequencer, type EnvelopeExtra } from '../../impl/adapter-kit/envelope.js';
import { HeldLoop, parseAnswer, type PendingRequest } from '../../impl/adapter-kit/held-loop.js';
import { CommandLedger } from '../../impl/adapter-kit/ledger.js';
import { SteeringQueue, joinInstructions } from '../../impl/adapter-kit/steering.js';
import type { AdapterDef, HookContext, HookInput, HoldSpec, Mapped, Posture, Settlement } from '../../impl/adapter-kit/types.js';

/** A timer service: real (`setTimeout`) in the daemon, fake in offline runs. */
export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const REAL_TIMERS: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface EngineOptions {
  /** The epoch every event is stamped with (the daemon persists and bumps it per start). */
  epoch: number;
  /** Host name used in `source`. */
  hostname: string;
  /** Capture posture; default metadata, attention.* redacted. */
  posture?: Posture;
  /** How long a held hook waits for an answer; default 55 000 ms. */
  attentionTimeoutMs?: number;
  /** Accept `x.{agent}.control.instruct` steering; default false. */
  instruct?: boolean;
  /** Epoch milliseconds; default `Date.now`. */
  clock?: () => number;
  /** Default real timers. */
  timers?: Timers;
  /** Event ids; default ULIDs on `clock`. */
  newId?: () => string;
  /** Every emitted event and its exact line, synchronously, in emission order. */
  emit(event: AepEvent, line: string): void;
  /** A recorded ack's exact line, re-sent for a retransmitted command (not a new event). */
  resend(line: string): void;
  /** Human diagnostics; default silent. */
  log?(line: string): void;
}

export interface Engine {
  /** `control.accepts` as declared in hello: the adapter's own plus steering when enabled. */
  readonly accepts: readonly string[];
  /** Handle one hook call; resolves to the exact vendor stdout (held hooks resolve when settled). */
  handleHook(hookEvent: string, input: HookInput): Promise<string>;
  /** Handle one inbound command (an event object from the relay). Never throws. */
  onCommand(cmd: Record<string, unknown>): void;
  /** Free every held hook as dismissed (shutdown). */
  dismissAll(): void;
}

function isCommand(type: string): boolean {
  return (type.startsWith('control.') && type !== 'control.accepted' && type !== 'control.rejected') || /^x\.[a-z0-9-]+\.control\./.test(type);
}

export function createEngine(def: AdapterDef, options: EngineOptions): Engine {
  const posture = options.posture ?? DEFAULT_POSTURE;
  const timeoutMs = options.attentionTimeoutMs ?? 55_000;
  const clock = options.clock ?? (() => Date.now());
  const timers = options.timers ?? REAL_TIMERS;
  const log = options.log ?? (() => {});
  const instructType = `x.${def.agent}.control.instruct`;
  const accepts = [...def.accepts, ...(options.instruct ? [instructType] : [])];
  const seq = new Sequencer(def.agent, options.hostname, options.epoch, posture, options.newId ?? (() => ulid(clock())), clock);
  const loop = new HeldLoop();
  const ledger = new CommandLedger();
  const steering = new SteeringQueue();
  const runs = new Map<string, string>();
  const waiters = new Map<string, { resolve(s: Settlement): void; timer: unknown }>();
  const redact = (s: string): string => redactText(s, { pii: true });
  const since = (t: number): number => Math.max(0, clock() - t);

  function emitLine(session: string, mapped: Mapped, extra: EnvelopeExtra = {}): { event: AepEvent; line: string } {
    const event = seq.build(session, mapped, extra);
    const line = JSON.stringify(event);
    options.emit(event, line);
    return { event, line };
  }
  const emit = (session: string, mapped: Mapped, extra?: EnvelopeExtra): AepEvent => emitLine(session, mapped, extra).event;

  function release(id: string, settlement: Settlement): void {
    const waiter = waiters.get(id);
    if (!waiter) return;
    timers.clear(waiter.timer);
    waiters.delete(id);
    waiter.resolve(settlement);
  }

  function recordAnswer(request: PendingRequest, settlement: Extract<Settlement, { kind: 'option' | 'values' }>, cause: string): void {
    const level = levelFor('attention.answered', posture);
    const answer: Record<string, unknown> = {};
    if (settlement.kind === 'option') {
      answer.option = settlement.option;
      const text = settlement.text === undefined ? undefined : red(settlement.text, level);
      if (text !== undefined) answer.text = text;
    } else {
      answer.values = gateFormValues(request.fields ?? [], settlement.values, level, redact);
    }
    const run = request.run ? { run: request.run } : {};
    const answered = emit(request.session, { type: 'attention.answered', data: { answer, via: settlement.via }, subject: request.id }, { ...run, cause });
    emit(request.session, { type: 'attention.resolved', data: { resolution: 'answered', latency_ms: since(request.openedAt) }, subject: request.id }, { ...run, cause: answered.id });
  }

  function ack(cmd: Record<string, unknown>, nack?: { reason: string; detail: string }): void {
    const data: Record<string, unknown> = {};
    if (nack) {
      data.reason = nack.reason;
      const detail = red(nack.detail, levelFor('control.rejected', posture));
      if (detail !== undefined) data.detail = detail;
    }
    const run = typeof cmd.run === 'string' ? { run: cmd.run } : {};
    const { line } = emitLine(cmd.session as string, { type: nack ? 'control.rejected' : 'control.accepted', data }, { cause: cmd.id as string, ...run });
    ledger.record(cmd.source as string, cmd.id as string, line);
  }

  function respond(cmd: Record<string, unknown>, session: string, id: string): void {
    const answer = parseAnswer(cmd.data);
    if (!answer) return ack(cmd, { reason: 'invalid', detail: 'data.answer must be an object with option/text strings or a values object' });
    const target = typeof cmd.subject === 'string' ? cmd.subject : typeof cmd.cause === 'string' ? cmd.cause : undefined;
    const pending = target === undefined ? undefined : loop.get(target);
    const outcome = pending && pending.session !== session
      ? ({ ok: false, reason: 'invalid', detail: `attention request '${target}' belongs to another session` } as const)
      : loop.respond(target, answer);
    if (!outcome.ok) return ack(cmd, { reason: outcome.reason, detail: outcome.detail });
    ack(cmd);
    recordAnswer(outcome.request, outcome.settlement, id);
    release(outcome.request.id, outcome.settlement);
  }

  function instruct(cmd: Record<string, unknown>, session: string, id: string): void {
    const text = isPlainObject(cmd.data) && typeof cmd.data.text === 'string' ? cmd.data.text : '';
    const cap = def.steeringCap ?? Infinity;
    const problem = text.trim() === '' ? 'data.text must be a non-empty string'
      : text.length > cap ? `data.text is ${text.length} characters; this vendor accepts at most ${cap}`
      : steering.push(session, { commandId: id, text, queuedAt: clock() });
    ack(cmd, problem ? { reason: 'invalid', detail: problem } : undefined);
  }

  function onCommand(cmd: Record<string, unknown>): void {
    const { id, source, type, session } = cmd;
    if (typeof id !== 'string' || typeof source !== 'string' || typeof type !== 'string' || !isCommand(type)) return;
    const recorded = ledger.recorded(source, id);
    if (recorded !== undefined) return options.resend(recorded);
    if (typeof session !== 'string') return log(`ignored command ${id}: no target session`);
    if (!accepts.includes(type)) return ack(cmd, { reason: 'unsupported', detail: `${type} is not in this adapter's control.accepts (${accepts.join(', ') || 'none'})` });
    if (type === 'control.attention.respond') return respond(cmd, session, id);
    if (type === instructType) return instruct(cmd, session, id);
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
      const request = emit(spec.session, spec.mapped, run ? { run } : {});
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
        waiters.set(request.id, { timer, resolve: (settlement) => resolve({ request, settlement }) });
      });
    },
    pending: (session, key) => loop.list(session, key).map((r) => ({ id: r.id, session: r.session, ...(r.key ? { key: r.key } : {}) })),
    settle(id, how) {
      const request = loop.close(id);
      if (!request) return false;
      const run = request.run ? { run: request.run } : {};
      if (how.kind === 'dismissed') {
        emit(request.session, { type: 'attention.resolved', data: { resolution: 'dismissed', latency_ms: since(request.openedAt) }, subject: id }, { ...run, cause: id });
        release(id, { kind: 'dismissed' });
        return true;
      }
      const settlement: Extract<Settlement, { kind: 'option' | 'values' }> = how.answer.values !== undefined
        ? { kind: 'values', values: how.answer.values, via: 'oob' }
        : { kind: 'option', option: how.answer.option ?? request.refusing, ...(how.answer.text ? { text: how.answer.text } : {}), via: 'oob' };
      recordAnswer(request, settlement, id);
      release(id, settlement);
      return true;
    },
    takeSteering(session) {
      const taken = steering.take(session, def.steeringCap);
      if (taken.length === 0) return null;
      const level = levelFor(`x.${def.agent}.instruction.delivered`, posture);
      for (const item of taken) {
        const data: Record<string, unknown> = { queued_ms: since(item.queuedAt) };
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

  async function handleHook(hookEvent: string, input: HookInput): Promise<string> {
    let reply: string;
    try {
      reply = await def.handle(hookEvent, input, ctx);
    } catch (err) {
      log(`hook ${hookEvent} failed, answering neutrally: ${(err as Error).message}`);
      return def.neutralReply(hookEvent);
    }
    const session = typeof input.session_id === 'string' ? input.session_id : undefined;
    if (options.instruct && session && reply === def.neutralReply(hookEvent) && def.steerable(hookEvent)) {
      const text = ctx.takeSteering(session);
      if (text !== null) return def.steeringReply(hookEvent, text);
    }
    return reply;
  }

  return {
    accepts,
    handleHook,
    onCommand(cmd) {
      try {
        onCommand(cmd);
      } catch (err) {
        log(`command handling failed: ${(err as Error).message}`);
      }
    },
    dismissAll() {
      for (const id of [...waiters.keys()]) ctx.settle(id, { kind: 'dismissed' });
    },
  };
}
