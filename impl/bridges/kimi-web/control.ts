/**
 * The Kimi web bridge's opt-in control gate (`AEP_KIMI_WEB_CONTROL=1`, primary mode only):
 * exactly two kap-server REST writes (design record "The kimi web channel"), each with the
 * bearer token, each answered in the `{code, msg, data}` envelope (code 0 = ok; ASSUMED paths,
 * stated in the README):
 * - `control.attention.respond` (subject = the attention.requested event id of an approval):
 *   `answer.option` `approved` | `rejected` → `POST /api/v1/sessions/{id}/approvals/{approval_id}`
 *   `{decision, feedback?}`; `answer.text` rides as `feedback` on a rejection (the vendor renders
 *   it as the rejection reason). A missing or unknown option, a `values` answer, or an unknown or
 *   settled subject is refused `invalid`. The outcome is the vendor's `event.approval.resolved`
 *   broadcast (the receiver cause-links it to the command; nothing is emitted at REST time).
 * - `control.cancel` scope `run`: `POST /api/v1/sessions/{id}/abort`, only while a run is open
 *   (and it is the command's `run` when given); accepted, it arms a pending-cancel note so the
 *   vendor's `turn.ended` reason "cancelled" closes the run as `run.cancelled` by control. Scope
 *   `session` is refused: a kimi session has no end to command (abort cancels active work;
 *   archive merely shelves).
 * Acks follow bridge-kit/control-desk.ts (a non-zero envelope code is `refused`).
 */
import type { Mapped, Posture, RequestOption } from '../../adapter-kit/types.js';
import { ControlDesk, type Command, type Nack } from '../../bridge-kit/control-desk.js';
import type { Emitter } from '../../bridge-kit/emitter.js';

export const DECISIONS: RequestOption[] = [
  { id: 'approved', label: 'Approve' },
  { id: 'rejected', label: 'Reject' },
];
export const CONTROL_ACCEPTS = ['control.attention.respond', 'control.cancel'];

export interface KimiControlOptions {
  server: string;
  token: string;
  emitter: Emitter;
  /** The open run of a session (the receiver's). */
  runOf(session: string): string | undefined;
  guardMs?: number;
  posture?: Posture;
  log(line: string): void;
}

/** A 2xx kap-server body that is an error envelope refuses the command. */
export function judgeEnvelope(text: string): Nack | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined; // an empty or non-JSON 2xx: the HTTP status is the answer
  }
  if (typeof body !== 'object' || body === null || !('code' in body)) return undefined;
  const { code, msg } = body as { code: unknown; msg?: unknown };
  return code === 0 ? undefined : { reason: 'refused', detail: `kap-server answered code ${String(code)}: ${typeof msg === 'string' ? msg : 'no message'}` };
}

export class KimiControlGate {
  private readonly desk: ControlDesk;
  /** attention.requested event id → the vendor approval it asks about. */
  private readonly asks = new Map<string, { session: string; approval: string }>();
  /** approval id → the command whose write is settling it. */
  private readonly settling = new Map<string, string>();
  /** session → the accepted abort awaiting the cancelled turn boundary. */
  readonly pendingCancel = new Map<string, { command: string; run: string }>();

  constructor(private readonly opts: KimiControlOptions) {
    this.desk = new ControlDesk({ emitter: opts.emitter, ...(opts.posture ? { posture: opts.posture } : {}), ...(opts.guardMs !== undefined ? { guardMs: opts.guardMs } : {}), log: opts.log });
  }

  /** The answerable form of a read-only approval request. */
  decorate(mapped: Mapped): Mapped {
    if (mapped.type !== 'attention.requested' || mapped.data.kind !== 'permission') return mapped;
    return { ...mapped, data: { ...mapped.data, options: DECISIONS, respond_via: ['control'] } };
  }

  asked(eventId: string, session: string, approval: string): void {
    this.asks.set(eventId, { session, approval });
  }

  /** The vendor resolved an approval (any channel): returns the command that settled it, if ours. */
  resolved(approval: string): string | undefined {
    for (const [id, a] of this.asks) if (a.approval === approval) this.asks.delete(id);
    const command = this.settling.get(approval);
    this.settling.delete(approval);
    return command;
  }

  onCommand(_raw: string, value: Record<string, unknown>): void {
    this.desk.receive(value, (cmd) => {
      if (cmd.type === 'control.attention.respond') return this.respond(cmd);
      if (cmd.type === 'control.cancel') return this.cancel(cmd);
      this.desk.ack(cmd, { reason: 'unsupported', detail: `${cmd.type} is not in this bridge's control.accepts (${CONTROL_ACCEPTS.join(', ')})` });
    });
  }

  private headers(): Record<string, string> {
    return { authorization: `Bearer ${this.opts.token}` };
  }

  private url(path: string): URL {
    return new URL(path, this.opts.server);
  }

  private respond(cmd: Command): void {
    const ask = cmd.subject ? this.asks.get(cmd.subject) : undefined;
    if (!ask || ask.session !== cmd.session) return this.desk.ack(cmd, { reason: 'invalid', detail: `no pending approval request '${cmd.subject ?? ''}' in session ${cmd.session}` });
    const answer = typeof cmd.data.answer === 'object' && cmd.data.answer !== null ? (cmd.data.answer as Record<string, unknown>) : {};
    const option = typeof answer.option === 'string' ? answer.option : undefined;
    if (!option || !DECISIONS.some((d) => d.id === option)) {
      return this.desk.ack(cmd, { reason: 'invalid', detail: `answer.option must be one of ${DECISIONS.map((d) => d.id).join(', ')} (free text rides as the rejection reason)` });
    }
    const body: Record<string, unknown> = { decision: option };
    if (option === 'rejected' && typeof answer.text === 'string' && answer.text !== '') body.feedback = answer.text;
    const approval = ask.approval;
    const path = `/api/v1/sessions/${encodeURIComponent(cmd.session)}/approvals/${encodeURIComponent(approval)}`;
    this.desk.write(cmd, { url: this.url(path), headers: this.headers(), body, judge: judgeEnvelope }, {
      // Marked before the request leaves: the broadcast may arrive before the REST answer.
      before: () => this.settling.set(approval, cmd.id),
      onRefused: () => { if (this.settling.get(approval) === cmd.id) this.settling.delete(approval); },
    });
  }

  private cancel(cmd: Command): void {
    if (cmd.data.scope !== 'run') return this.desk.ack(cmd, { reason: 'refused', detail: 'only scope "run" is supported: a kimi session has no end to command (abort cancels active work; archive merely shelves)' });
    const run = this.opts.runOf(cmd.session);
    if (!run) return this.desk.ack(cmd, { reason: 'refused', detail: `no run is open in session ${cmd.session}` });
    if (cmd.run !== undefined && cmd.run !== run) return this.desk.ack(cmd, { reason: 'refused', detail: `run ${cmd.run} is not the open run (${run})` });
    const path = `/api/v1/sessions/${encodeURIComponent(cmd.session)}/abort`;
    this.desk.write(cmd, { url: this.url(path), headers: this.headers(), judge: judgeEnvelope }, {
      before: () => this.pendingCancel.set(cmd.session, { command: cmd.id, run }),
      onRefused: () => { if (this.pendingCancel.get(cmd.session)?.command === cmd.id) this.pendingCancel.delete(cmd.session); },
    });
  }
}
