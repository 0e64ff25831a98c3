/**
 * The AEP-0004 §7 control target: one inbound command frame in, one ack decision out.
 * Dedupe on `(source, id)` with the recorded ack re-sent byte-identically (ledger.ts),
 * `unsupported` for undeclared types, `invalid` for bad data, and each accepted command's
 * outcome cause-linked to it: an answer to a held request (held-requests.ts) or a queued
 * steering instruction (steering-desk.ts).
 */
import { isPlainObject } from '../core/event.js';
import { levelFor, red } from './capture.js';
import type { Emitter } from './emission.js';
import { parseAnswer } from './held-loop.js';
import type { HeldRequests } from './held-requests.js';
import { CommandLedger } from './ledger.js';
import type { SteeringDesk } from './steering-desk.js';
import type { CommandOutcome, Posture } from './types.js';

export interface CommandTargetConfig {
  /** The declared `control.accepts`. */
  accepts: readonly string[];
  /** The steering command type (`x.{agent}.control.instruct`), honored when it is in `accepts`. */
  instructType: string;
  /** Max characters of one instruction (vendor cap). */
  steeringCap?: number;
  posture: Posture;
  clock: () => number;
  emitter: Emitter;
  held: HeldRequests;
  steering: SteeringDesk;
  /** Where a recorded ack is re-sent on a redelivery. */
  send(line: string): void;
  log(line: string): void;
  /**
   * Commands the adapter actuates itself (`AdapterDef.command`): a promise of the outcome, or
   * undefined to leave the command to the kit. Acked once the outcome resolves; a redelivery
   * that arrives meanwhile is ignored (its ack is on the way).
   */
  actuate?(cmd: Record<string, unknown>): Promise<CommandOutcome> | undefined;
}

function isCommand(type: string): boolean {
  return type.startsWith('control.') || /^x\.[a-z0-9-]+\.control\./.test(type);
}

/** The command handler: call it with each inbound frame's exact text and parsed value. */
export function createCommandTarget(cfg: CommandTargetConfig): (raw: string, cmd: Record<string, unknown>) => void {
  const ledger = new CommandLedger();
  const inflight = new Set<string>();
  const { accepts, emitter, held, steering, posture } = cfg;

  function ack(cmd: Record<string, unknown>, nack?: { reason: string; detail: string }): void {
    const data: Record<string, unknown> = {};
    if (nack) {
      data.reason = nack.reason;
      const detail = red(nack.detail, levelFor('control.rejected', posture));
      if (detail !== undefined) data.detail = detail;
    }
    const type = nack ? 'control.rejected' : 'control.accepted';
    const run = typeof cmd.run === 'string' ? cmd.run : undefined;
    const { line } = emitter.emit(cmd.session as string, { type, data }, { cause: cmd.id as string, ...(run ? { run } : {}) });
    ledger.record(cmd.source as string, cmd.id as string, line);
  }

  function respond(cmd: Record<string, unknown>, id: string, session: string): void {
    const answer = parseAnswer(cmd.data);
    if (!answer) return ack(cmd, { reason: 'invalid', detail: 'data.answer must be an object with option/text strings or a values object' });
    const target = typeof cmd.subject === 'string' ? cmd.subject : typeof cmd.cause === 'string' ? cmd.cause : undefined;
    const pending = target === undefined ? undefined : held.get(target);
    const outcome = pending && pending.session !== session
      ? ({ ok: false, reason: 'invalid', detail: `attention request '${target}' belongs to another session` } as const)
      : held.respond(target, answer);
    if (!outcome.ok) return ack(cmd, { reason: outcome.reason, detail: outcome.detail });
    ack(cmd);
    held.applyAnswer(outcome, id);
  }

  function instruct(cmd: Record<string, unknown>, id: string, session: string): void {
    const text = isPlainObject(cmd.data) && typeof cmd.data.text === 'string' ? cmd.data.text : '';
    const cap = cfg.steeringCap ?? Infinity;
    const problem = text.trim() === '' ? 'data.text must be a non-empty string'
      : text.length > cap ? `data.text is ${text.length} characters; this vendor accepts at most ${cap}`
      : steering.push(session, { commandId: id, text, queuedAt: cfg.clock() });
    if (problem) ack(cmd, { reason: 'invalid', detail: problem });
    else ack(cmd);
  }

  return (_raw, cmd) => {
    const { id, source, type, session } = cmd;
    if (typeof id !== 'string' || typeof source !== 'string' || typeof type !== 'string' || !isCommand(type)) return;
    const recorded = ledger.recorded(source, id);
    if (recorded !== undefined) return cfg.send(recorded);
    const key = `${source}\u0000${id}`;
    if (inflight.has(key)) return;
    if (typeof session !== 'string') return cfg.log(`ignored command ${id}: no target session`);
    if (!accepts.includes(type)) {
      return ack(cmd, { reason: 'unsupported', detail: `${type} is not in this adapter's control.accepts (${accepts.join(', ') || 'none'})` });
    }
    const actuated = cfg.actuate?.(cmd);
    if (actuated) {
      inflight.add(key);
      void actuated.then(
        (outcome) => {
          inflight.delete(key);
          if (!outcome.ok) return ack(cmd, { reason: outcome.reason, detail: outcome.detail });
          ack(cmd);
          outcome.after?.();
        },
        (err: unknown) => {
          inflight.delete(key);
          ack(cmd, { reason: 'busy', detail: `the adapter could not actuate ${type}: ${(err as Error).message}` });
        },
      );
      return;
    }
    if (type === 'control.attention.respond') return respond(cmd, id, session);
    if (type === cfg.instructType) return instruct(cmd, id, session);
    ack(cmd, { reason: 'unsupported', detail: `${type} has no handler in this adapter` });
  };
}
