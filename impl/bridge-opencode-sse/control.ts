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
 * Acks: REST 2xx → `control.accepted`; 4xx → `control.rejected` refused; unreachable → busy; the
 * guard (default 8000 ms, inside the declared 10 000 ms window) expiring → accepted. Commands
 * dedupe on (source, id): a redelivery gets the recorded ack bytes; an in-flight one waits for
 * the one forthcoming ack.
 */
import { isPlainObject } from '../core/event.js';
import { CommandLedger } from '../adapter-kit/ledger.js';
import { DEFAULT_POSTURE, levelFor, red } from '../adapter-kit/capture.js';
import type { Mapped, Posture, RequestOption } from '../adapter-kit/types.js';
import type { Emitter } from '../bridge-kit/emitter.js';

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
  private readonly ledger = new CommandLedger();
  private readonly inflight = new Set<string>();
  /** attention.requested event id → the vendor permission it asks about. */
  private readonly asks = new Map<string, { session: string; permission: string }>();
  /** session → the accepted abort awaiting its idle boundary. */
  readonly pendingCancel = new Map<string, { command: string; run: string }>();
  /** vendor permission → the command whose reply is settling it (marked before the write leaves). */
  private readonly settling = new Map<string, { command: string; option: string }>();

  constructor(private readonly opts: ControlOptions) {}

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

  onCommand(_raw: string, cmd: Record<string, unknown>): void {
    const { id, source, type, session } = cmd;
    if (typeof id !== 'string' || typeof source !== 'string' || typeof type !== 'string' || typeof session !== 'string') return;
    const key = CommandLedger.key(source, id);
    const recorded = this.ledger.recorded(source, id);
    if (recorded !== undefined) return this.opts.emitter.sendRaw(recorded);
    if (this.inflight.has(key)) return;
    if (type === 'control.attention.respond') return this.respond(cmd, session, key);
    if (type === 'control.cancel') return this.cancel(cmd, session, key);
    this.ack(cmd, session, { reason: 'unsupported', detail: `${type} is not in this bridge's control.accepts (${CONTROL_ACCEPTS.join(', ')})` });
  }

  private ack(cmd: Record<string, unknown>, session: string, nack?: { reason: string; detail?: string }): void {
    const run = typeof cmd.run === 'string' ? cmd.run : undefined;
    const detail = nack?.detail ? red(nack.detail, levelFor('control.rejected', this.opts.posture ?? DEFAULT_POSTURE)) : undefined;
    const data: Record<string, unknown> = nack ? { reason: nack.reason, ...(detail !== undefined ? { detail } : {}) } : {};
    const event = this.opts.emitter.emit(session, { type: nack ? 'control.rejected' : 'control.accepted', data }, { cause: cmd.id as string, ...(run ? { run } : {}) });
    this.ledger.record(cmd.source as string, cmd.id as string, JSON.stringify(event));
  }

  private respond(cmd: Record<string, unknown>, session: string, key: string): void {
    const subject = typeof cmd.subject === 'string' ? cmd.subject : undefined;
    const ask = subject ? this.asks.get(subject) : undefined;
    if (!ask || ask.session !== session) return this.ack(cmd, session, { reason: 'invalid', detail: `no pending permission request '${subject ?? ''}' in session ${session}` });
    const answer = isPlainObject(cmd.data) && isPlainObject(cmd.data.answer) ? cmd.data.answer : {};
    const option = typeof answer.option === 'string' ? answer.option : undefined;
    if (!option || !REPLY_OPTIONS.some((o) => o.id === option)) {
      return this.ack(cmd, session, { reason: 'invalid', detail: `answer.option must be one of ${REPLY_OPTIONS.map((o) => o.id).join(', ')}; free text and values cannot reach this server` });
    }
    const path = `/session/${encodeURIComponent(session)}/permissions/${encodeURIComponent(ask.permission)}`;
    const mark = { command: cmd.id as string, option };
    this.settling.set(ask.permission, mark);
    this.write(cmd, session, key, path, { response: option }, () => this.asks.delete(subject!), () => {
      if (this.settling.get(ask.permission) === mark) this.settling.delete(ask.permission);
    });
  }

  private cancel(cmd: Record<string, unknown>, session: string, key: string): void {
    const scope = isPlainObject(cmd.data) ? cmd.data.scope : undefined;
    if (scope !== 'run') return this.ack(cmd, session, { reason: 'refused', detail: 'only scope "run" is supported: the session-terminal write is a destructive DELETE this bridge never sends' });
    const run = this.opts.runOf(session);
    if (!run) return this.ack(cmd, session, { reason: 'refused', detail: `no run is open in session ${session}` });
    if (typeof cmd.run === 'string' && cmd.run !== run) return this.ack(cmd, session, { reason: 'refused', detail: `run ${cmd.run} is not the open run (${run})` });
    this.write(cmd, session, key, `/session/${encodeURIComponent(session)}/abort`, undefined, () => this.pendingCancel.set(session, { command: cmd.id as string, run }));
  }

  private write(cmd: Record<string, unknown>, session: string, key: string, path: string, body: unknown, onAccepted: () => void, onRefused?: () => void): void {
    this.inflight.add(key);
    let decided = false;
    const decide = (nack?: { reason: string; detail?: string }): void => {
      if (decided) return;
      decided = true;
      clearTimeout(guard);
      this.inflight.delete(key);
      if (!nack) onAccepted();
      else onRefused?.();
      this.ack(cmd, session, nack);
    };
    // Guard expiry: will-try. The write may still land; the outcome rides the vendor's broadcast.
    const guard = setTimeout(() => decide(), this.opts.guardMs ?? 8000);
    void fetch(new URL(path, this.opts.server), { method: 'POST', headers: { 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) })
      .then(async (res) => {
        const text = await res.text().catch(() => '');
        if (res.status >= 200 && res.status < 300) decide();
        else decide({ reason: res.status >= 500 ? 'busy' : 'refused', detail: `the server answered HTTP ${res.status} ${text.slice(0, 200)}` });
      })
      .catch((err: Error) => decide({ reason: 'busy', detail: `the server is unreachable: ${err.message}` }));
  }
}
