/**
 * The OpenHands bridge's opt-in control gate (`AEP_OPENHANDS_CONTROL=1`): exactly five REST
 * writes (design record "The opt-in control gate"), with the session key header when one is set;
 * the events socket stays auth-frame-only. Guards read the bridge's own last-observed
 * `execution_status` (the state that drives run synthesis), before any REST call:
 * - `control.attention.respond` (subject = the live `waiting_for_confirmation` request event):
 *   option `approve` → `POST /api/conversations/{id}/events/respond_to_confirmation`
 *   `{"accept":true}`; `deny` → `{"accept":false,"reason":<answer.text or the vendor default>}`.
 *   Another subject is refused; a missing or unknown option is invalid. The respond marks the
 *   request settling: the status flip out of waiting (the one outcome source) then emits
 *   `attention.answered` and `attention.resolved` cause-linked to the command.
 * - `control.pause` → `POST /api/conversations/{id}/pause`, only from `running`;
 * - `control.resume` → `POST /api/conversations/{id}/run`, only from `paused` (from
 *   `waiting_for_confirmation` the detail names the respond verb: run() there silently accepts);
 * - `x.openhands.control.interrupt` → `POST /api/conversations/{id}/interrupt`, only from `running`;
 *   pause, resume and interrupt arm a per-conversation note: the vendor's own flip to `paused` /
 *   `running` (its `state.delta`) is cause-linked to the command; any status change clears notes;
 * - `x.openhands.control.send_input` `{text}` (≤ 4000 characters) → `POST
 *   /api/conversations/{id}/events` `{role:"user", content:[{type:"text", text}], run:false}`
 *   (`run` pinned false), no status guard; a 2xx emits `x.openhands.input.sent {}` cause-linked.
 * `control.cancel` is not declared (no OpenHands write terminates a run): the relay refuses it.
 * Acks follow bridge-kit/control-desk.ts.
 */
import { DEFAULT_POSTURE, levelFor, red } from '../../adapter-kit/capture.js';
import type { Mapped, Posture, RequestOption } from '../../adapter-kit/types.js';
import { ControlDesk, type Command } from '../../bridge-kit/control-desk.js';
import type { Emitter } from '../../bridge-kit/emitter.js';
import { WAITING } from './map-events.js';

export const CONTROL_ACCEPTS = ['control.attention.respond', 'control.pause', 'control.resume', 'x.openhands.control.send_input', 'x.openhands.control.interrupt'];
export const CONFIRM_OPTIONS: RequestOption[] = [
  { id: 'approve', label: 'Approve' },
  { id: 'deny', label: 'Deny' },
];
/** The vendor's own default rejection reason. */
export const DEFAULT_REJECT_REASON = 'User rejected the action.';
export const INPUT_CAP = 4000;

export interface OpenHandsControlOptions {
  server: string;
  apiKey?: string;
  emitter: Emitter;
  /** The last-observed execution_status of a conversation (null before the first). */
  statusOf(conversation: string): string | null;
  guardMs?: number;
  posture?: Posture;
  log(line: string): void;
}

export interface Settling {
  command: string;
  answer: { option: string; text?: string };
}

type NoteKind = 'pause' | 'resume' | 'interrupt';
/** The status flip each note's command asked for. */
const NOTE_TARGET: Record<NoteKind, string> = { pause: 'paused', interrupt: 'paused', resume: 'running' };

export class OpenHandsControlGate {
  private readonly desk: ControlDesk;
  /** conversation → the respond settling its pending request. */
  private readonly settlingBy = new Map<string, Settling>();
  private readonly notes = new Map<string, Map<NoteKind, string>>();
  /** The live request per conversation, told by the receiver. */
  private readonly asks = new Map<string, string>();

  constructor(private readonly opts: OpenHandsControlOptions) {
    this.desk = new ControlDesk({ emitter: opts.emitter, ...(opts.posture ? { posture: opts.posture } : {}), ...(opts.guardMs !== undefined ? { guardMs: opts.guardMs } : {}), log: opts.log });
  }

  /** The answerable form of the waiting_for_confirmation request. */
  decorate(mapped: Mapped): Mapped {
    if (mapped.type !== 'attention.requested' || mapped.data.kind !== 'permission') return mapped;
    return { ...mapped, data: { ...mapped.data, options: CONFIRM_OPTIONS, respond_via: ['control'] } };
  }

  /** The receiver raised (event id) or closed (undefined) a conversation's request. */
  asked(conversation: string, eventId: string | undefined): void {
    if (eventId) this.asks.set(conversation, eventId);
    else this.asks.delete(conversation);
  }

  /** The respond settling the conversation's request, consumed by the flip out of waiting. */
  takeSettling(conversation: string): Settling | undefined {
    const s = this.settlingBy.get(conversation);
    this.settlingBy.delete(conversation);
    return s;
  }

  /** The `attention.answered` data echoing a settled respond (the text redaction-gated). */
  answerData(settling: Settling): Record<string, unknown> {
    const answer: Record<string, unknown> = { option: settling.answer.option };
    const level = levelFor('attention.answered', this.opts.posture ?? DEFAULT_POSTURE);
    const text = settling.answer.text !== undefined ? red(settling.answer.text, level) : undefined;
    if (text !== undefined) answer.text = text;
    return { answer, via: 'control' };
  }

  /**
   * A status change `prev → next` was observed: the command whose note asked for `next`, if any
   * (its state.delta is cause-linked to it). Every note of the conversation is cleared.
   */
  statusChanged(conversation: string, next: string): string | undefined {
    const notes = this.notes.get(conversation);
    this.notes.delete(conversation);
    if (!notes) return undefined;
    for (const [kind, command] of notes) if (NOTE_TARGET[kind] === next) return command;
    return undefined;
  }

  onCommand(_raw: string, value: Record<string, unknown>): void {
    this.desk.receive(value, (cmd) => {
      switch (cmd.type) {
        case 'control.attention.respond': return this.respond(cmd);
        case 'control.pause': return this.guarded(cmd, 'pause', 'running', '/pause');
        case 'x.openhands.control.interrupt': return this.guarded(cmd, 'interrupt', 'running', '/interrupt');
        case 'control.resume': return this.guarded(cmd, 'resume', 'paused', '/run');
        case 'x.openhands.control.send_input': return this.sendInput(cmd);
        default: return this.desk.ack(cmd, { reason: 'unsupported', detail: `${cmd.type} is not in this bridge's control.accepts (${CONTROL_ACCEPTS.join(', ')})` });
      }
    });
  }

  private url(conversation: string, path: string): URL {
    return new URL(`/api/conversations/${encodeURIComponent(conversation)}${path}`, this.opts.server);
  }

  private headers(): Record<string, string> {
    return this.opts.apiKey ? { 'x-session-api-key': this.opts.apiKey } : {};
  }

  private respond(cmd: Command): void {
    const pending = this.asks.get(cmd.session);
    if (!pending || cmd.subject !== pending) return this.desk.ack(cmd, { reason: 'refused', detail: `'${cmd.subject ?? ''}' is not the live confirmation request of conversation ${cmd.session}` });
    const answer = typeof cmd.data.answer === 'object' && cmd.data.answer !== null ? (cmd.data.answer as Record<string, unknown>) : {};
    const option = typeof answer.option === 'string' ? answer.option : undefined;
    if (option !== 'approve' && option !== 'deny') return this.desk.ack(cmd, { reason: 'invalid', detail: 'answer.option must be approve or deny (answer.text rides as the rejection reason)' });
    if (this.settlingBy.has(cmd.session)) return this.desk.ack(cmd, { reason: 'refused', detail: `the confirmation request of conversation ${cmd.session} is already being answered` });
    const text = typeof answer.text === 'string' && answer.text !== '' ? answer.text : undefined;
    const body = option === 'approve' ? { accept: true } : { accept: false, reason: text ?? DEFAULT_REJECT_REASON };
    const settling: Settling = { command: cmd.id, answer: { option, ...(text ? { text } : {}) } };
    this.desk.write(cmd, { url: this.url(cmd.session, '/events/respond_to_confirmation'), headers: this.headers(), body }, {
      before: () => this.settlingBy.set(cmd.session, settling),
      onRefused: () => { if (this.settlingBy.get(cmd.session) === settling) this.settlingBy.delete(cmd.session); },
    });
  }

  private guarded(cmd: Command, kind: NoteKind, from: string, path: string): void {
    const status = this.opts.statusOf(cmd.session);
    if (status !== from) return this.desk.ack(cmd, { reason: 'refused', detail: refusal(kind, status) });
    this.desk.write(cmd, { url: this.url(cmd.session, path), headers: this.headers() }, {
      before: () => {
        const notes = this.notes.get(cmd.session) ?? new Map<NoteKind, string>();
        notes.set(kind, cmd.id);
        this.notes.set(cmd.session, notes);
      },
      onRefused: () => { if (this.notes.get(cmd.session)?.get(kind) === cmd.id) this.notes.get(cmd.session)!.delete(kind); },
    });
  }

  private sendInput(cmd: Command): void {
    const text = cmd.data.text;
    if (typeof text !== 'string' || text === '') return this.desk.ack(cmd, { reason: 'invalid', detail: 'data.text (a non-empty string) is required' });
    if (text.length > INPUT_CAP) return this.desk.ack(cmd, { reason: 'invalid', detail: `data.text is ${text.length} characters; the cap is ${INPUT_CAP}` });
    const body = { role: 'user', content: [{ type: 'text', text }], run: false };
    this.desk.write(cmd, { url: this.url(cmd.session, '/events'), headers: this.headers(), body }, {
      // 200 means appended: the outcome, cause-linked; never the text.
      afterSettled: () => void this.opts.emitter.emit(cmd.session, { type: 'x.openhands.input.sent', data: {} }, { cause: cmd.id }),
    });
  }
}

/** Why a pause / interrupt / resume is refused from the last-observed status. */
export function refusal(kind: NoteKind, status: string | null): string {
  const seen = status ?? 'unknown (no status observed yet)';
  if (kind === 'resume') {
    if (status === WAITING) return 'the conversation is waiting_for_confirmation: run() there silently accepts the pending actions; answer with control.attention.respond instead';
    if (status === 'idle') return 'the conversation is idle: run() there starts new work, which is operating, not resuming';
    return `control.resume is forwarded only from paused; the last-observed status is ${seen}`;
  }
  const verb = kind === 'pause' ? 'control.pause' : 'x.openhands.control.interrupt';
  if (status === 'idle') return `${verb} is forwarded only from running: the conversation is idle (no run to suspend)`;
  return `${verb} is forwarded only from running; the last-observed status is ${seen} (the vendor would silently ignore it)`;
}
