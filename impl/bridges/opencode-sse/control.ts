/**
 * The OpenCode-family SSE bridge's opt-in control gate (`AEP_OPENCODE_SSE_CONTROL=1` /
 * `AEP_KILOCODE_SSE_CONTROL=1`, honored in primary mode only): exactly two REST writes.
 * - `control.attention.respond` (subject = the attention.requested event id): `answer.option`
 *   (`once` | `always` | `reject`) → `POST /session/{id}/permissions/{permissionID}`
 *   `{response}`; text-only and `values` answers are refused `invalid`; an unknown or settled
 *   subject is refused `invalid`. The reply marks the permission settling: the vendor's
 *   `permission.replied` broadcast (the one outcome source) then rides `attention.answered`
 *   (`via: control`, cause = the command) chained to `attention.resolved` (cause = the answered
 *   event), per the design record; without a command only `attention.resolved` is emitted.
 * - `control.cancel` scope `run`: `POST /session/{id}/abort`, only while a synthesized run is open
 *   (and matches the command's `run` when given); accepted, it arms a pending-cancel note so the
 *   next `session.idle` closes the run as `run.cancelled` (by control, cause = the command).
 *   Scope `session` is refused (the only session-terminal write is a destructive DELETE).
 * Acks (bridge-kit/control-desk.ts): REST 2xx → `control.accepted`; 4xx → `control.rejected`
 * refused; 5xx or unreachable → busy; the guard (default 8000 ms, inside the declared 10 000 ms
 * window) expiring → accepted. Commands dedupe on (source, id): a redelivery gets the recorded
 * ack bytes; an in-flight one waits for the one forthcoming ack.
 */
import { isPlainObject } from '../../core/event.js';
import type { Mapped, Posture, RequestOption } from '../../adapter-kit/types.js';
import { ControlDesk, type Command } from '../../bridge-kit/control-desk.js';
import type { Emitter } from '../../bridge-kit/emitter.js';

export const REPLY_OPTIONS: RequestOption[] = [
  { id: 'once', label: 'Allow once' },
  { id: 'always', label: 'Always allow' },
  { id: 'reject', label: 'Reject' },
];
export const CONTROL_ACCEPTS = ['control.attention.respond', 'control.cancel'];

export interface ControlOptions {
  server: string;
  emitter: Emitter;
  /** The open synthesized run of a session. */
  runOf(session: string): string | undefined;
  guardMs?: number;
  /** The emitter's posture: a rejection's `detail` is redacted-class text. */
  posture?: Posture;
  log(line: string): void;
}

export class ControlGate {
  private readonly desk: ControlDesk;
  /** attention.requested event id → the vendor permission it asks about. */
  private readonly asks = new Map<string, { session: string; permission: string }>();
  /** session → the accepted abort awaiting its idle boundary. */
  readonly pendingCancel = new Map<string, { command: string; run: string }>();
  /** vendor permission → the command whose reply is settling it (marked before the write leaves). */
  private readonly settling = new Map<string, { command: string; option: string }>();

  constructor(private readonly opts: ControlOptions) {
    this.desk = new ControlDesk({ emitter: opts.emitter, ...(opts.posture ? { posture: opts.posture } : {}), ...(opts.guardMs !== undefined ? { guardMs: opts.guardMs } : {}), log: opts.log });
  }

  /** The answerable form of a read-only permission request. */
  decorate(mapped: Mapped): Mapped {
    if (mapped.type !== 'attention.requested' || mapped.data.kind !== 'permission') return mapped;
    return { ...mapped, data: { ...mapped.data, options: REPLY_OPTIONS, respond_via: ['control'] } };
  }

  /** Remember which vendor permission an emitted request event stands for. */
  asked(eventId: string, session: string, permission: string): void {
    this.asks.set(eventId, { session, permission });
  }

  /**
   * The vendor settled the permission (any channel): its request can no longer be answered.
   * Returns the command whose reply settled it, if ours (its answer is the one echoed).
   */
  settled(permission: string): { command: string; option: string } | undefined {
    for (const [id, a] of this.asks) if (a.permission === permission) this.asks.delete(id);
    const mine = this.settling.get(permission);
    this.settling.delete(permission);
    return mine;
  }

  onCommand(_raw: string, value: Record<string, unknown>): void {
    this.desk.receive(value, (cmd) => {
      if (cmd.type === 'control.attention.respond') return this.respond(cmd);
      if (cmd.type === 'control.cancel') return this.cancel(cmd);
      this.desk.ack(cmd, { reason: 'unsupported', detail: `${cmd.type} is not in this bridge's control.accepts (${CONTROL_ACCEPTS.join(', ')})` });
    });
  }

  private respond(cmd: Command): void {
    const { session, subject } = cmd;
    const ask = subject ? this.asks.get(subject) : undefined;
    if (!ask || ask.session !== session) return this.desk.ack(cmd, { reason: 'invalid', detail: `no pending permission request '${subject ?? ''}' in session ${session}` });
    const answer = isPlainObject(cmd.data.answer) ? cmd.data.answer : {};
    const option = typeof answer.option === 'string' ? answer.option : undefined;
    if (!option || !REPLY_OPTIONS.some((o) => o.id === option)) {
      return this.desk.ack(cmd, { reason: 'invalid', detail: `answer.option must be one of ${REPLY_OPTIONS.map((o) => o.id).join(', ')}; free text and values cannot reach this server` });
    }
    const path = `/session/${encodeURIComponent(session)}/permissions/${encodeURIComponent(ask.permission)}`;
    const mark = { command: cmd.id, option };
    this.desk.write(cmd, { url: new URL(path, this.opts.server), body: { response: option } }, {
      before: () => this.settling.set(ask.permission, mark),
      onAccepted: () => this.asks.delete(subject!),
      onRefused: () => { if (this.settling.get(ask.permission) === mark) this.settling.delete(ask.permission); },
    });
  }

  private cancel(cmd: Command): void {
    const { session } = cmd;
    if (cmd.data.scope !== 'run') return this.desk.ack(cmd, { reason: 'refused', detail: 'only scope "run" is supported: the session-terminal write is a destructive DELETE this bridge never sends' });
    const run = this.opts.runOf(session);
    if (!run) return this.desk.ack(cmd, { reason: 'refused', detail: `no run is open in session ${session}` });
    if (cmd.run !== undefined && cmd.run !== run) return this.desk.ack(cmd, { reason: 'refused', detail: `run ${cmd.run} is not the open run (${run})` });
    this.desk.write(cmd, { url: new URL(`/session/${encodeURIComponent(session)}/abort`, this.opts.server) }, {
      onAccepted: () => this.pendingCancel.set(session, { command: cmd.id, run }),
    });
  }
}
