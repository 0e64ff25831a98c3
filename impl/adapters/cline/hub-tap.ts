/**
 * The Cline hub tap and hub control (opt-in; the Cline design record, "The hub control tap"):
 * one outbound WebSocket to the vendor's hub, contributing to the session lane the hooks own.
 *
 * - Tap (`AEP_CLINE_HUB=1`): `approval.requested` → `attention.requested` (permission,
 *   approve/deny, prompt synthesized from the tool name); an out-of-band `approval.resolved` →
 *   `attention.answered{via:"oob"}` + `attention.resolved{answered}`; a hub-side cancellation, a
 *   disconnect or the session's end with the request pending → `attention.resolved{dismissed}`.
 * - Control (`AEP_CLINE_HUB_CONTROL=1`): `control.attention.respond` → `approval.respond`
 *   (`answer.option` approve|deny required; text rides as the reason); `control.cancel` (run scope,
 *   the active run only) → `run.abort`; `x.cline.control.send_input{text ≤ 4000, delivery
 *   queue|steer}` → `session.send_input`, reported as `x.cline.input.sent`.
 *   Acks follow the hub's reply within the guard: ok → accepted; error → refused; guard expiry →
 *   accepted (an ack is a will-try); hub unreachable → busy.
 * Hook observation never depends on the hub: a failed connection degrades to observe-only and
 * retries every second.
 */
import { WebSocket } from 'ws';
import { levelFor, red } from '../../adapter-kit/capture.js';
import { parseAnswer } from '../../adapter-kit/held-loop.js';
import type { CommandOutcome, HookContext } from '../../adapter-kit/types.js';
import { isPlainObject } from '../../core/event.js';
import type { HubConfig } from './hub-config.js';
import { CLIENT_TYPE, approvalOf, authProtocol, commandFrame, readFrame, registerFrame, resolutionOf, subscribeFrame } from './hub-frames.js';
import { AGENT } from './map-hooks.js';

export type { HubConfig } from './hub-config.js';

export const APPROVAL_OPTIONS = Object.freeze([
  Object.freeze({ id: 'approve', label: 'Approve' }),
  Object.freeze({ id: 'deny', label: 'Deny' }),
]);

/** The longest `send_input` text the adapter forwards. */
export const SEND_INPUT_CAP = 4000;

interface Approval {
  approvalId: string;
  requestId: string;
  session: string;
  run?: string;
  time: string;
  /** Set when a forwarded respond's reply did not arrive in the guard: the hub broadcast settles it. */
  answeredBy?: { command: string; option: string; text?: string };
}

interface TapOptions {
  control: boolean;
  log: (line: string) => void;
  /** The session's active run (the run `run.abort` would end). */
  runOf(session: string): string | undefined;
}

type Reply = { ok: boolean; error?: { code: string; message: string } };

export class ClineHubTap {
  private ws: WebSocket | null = null;
  private connected = false;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private nextRequest = 1;
  private readonly replies = new Map<string, (reply: Reply) => void>();
  private readonly approvals = new Map<string, Approval>();
  private readonly byRequest = new Map<string, string>();

  constructor(private readonly ctx: HookContext, private readonly cfg: HubConfig, private readonly opts: TapOptions) {}

  /** Whether the hub connection is up and registered. */
  get ready(): boolean {
    return this.connected;
  }

  start(): void {
    if (this.closed) return;
    const ws = new WebSocket(this.cfg.url, [authProtocol(this.cfg.token)]);
    this.ws = ws;
    ws.on('open', () => {
      const id = this.requestId();
      this.replies.set(id, (reply) => {
        if (!reply.ok) {
          this.opts.log(`cline hub refused the registration (${reply.error?.code ?? 'error'}); observe-only until it reconnects`);
          ws.close();
          return;
        }
        this.connected = true;
        ws.send(subscribeFrame(this.clientId ?? CLIENT_TYPE));
        this.opts.log(`cline hub tap connected to ${this.cfg.url}`);
      });
      ws.send(registerFrame(id));
    });
    ws.on('message', (data) => this.onFrame(data.toString()));
    ws.on('error', (err) => this.opts.log(`cline hub: ${err.message}`));
    ws.on('close', () => {
      this.connected = false;
      this.ws = null;
      this.failReplies();
      for (const a of [...this.approvals.values()]) this.dismiss(a);
      if (!this.closed) this.retry = setTimeout(() => this.start(), this.cfg.reconnectMs);
    });
  }

  private clientId: string | undefined;

  private requestId(): string {
    return `aep-${process.pid}-${this.nextRequest++}`;
  }

  private failReplies(): void {
    for (const resolve of this.replies.values()) resolve({ ok: false, error: { code: 'disconnected', message: 'the hub connection closed' } });
    this.replies.clear();
  }

  private onFrame(text: string): void {
    const frame = readFrame(text);
    if (frame.kind === 'reply') {
      if (typeof frame.payload.clientId === 'string') this.clientId = frame.payload.clientId;
      const resolve = this.replies.get(frame.requestId);
      this.replies.delete(frame.requestId);
      resolve?.({ ok: frame.ok, ...(frame.error ? { error: frame.error } : {}) });
      return;
    }
    if (frame.kind !== 'event') return;
    if (frame.event === 'approval.requested') this.onRequested(frame.payload, frame.sessionId);
    else if (frame.event === 'approval.resolved') this.onResolved(frame.payload);
  }

  private onRequested(payload: Record<string, unknown>, sessionId?: string): void {
    const a = approvalOf(payload);
    const session = sessionId ?? a.sessionId;
    if (!a.approvalId || !session || this.approvals.has(a.approvalId)) return;
    const run = this.opts.runOf(session);
    const tool = a.toolName ?? 'unknown';
    const event = this.ctx.emit(
      session,
      {
        type: 'attention.requested',
        data: {
          kind: 'permission',
          prompt: `${AGENT} requests approval: ${tool}`,
          options: APPROVAL_OPTIONS.map((o) => ({ ...o })),
          respond_via: this.opts.control ? ['control', 'oob'] : ['oob'],
        },
        subject: tool,
      },
      run ? { run } : {},
    );
    const approval: Approval = { approvalId: a.approvalId, requestId: event.id, session, time: event.time, ...(run ? { run } : {}) };
    this.approvals.set(a.approvalId, approval);
    this.byRequest.set(event.id, a.approvalId);
  }

  private onResolved(payload: Record<string, unknown>): void {
    const { approvalId } = approvalOf(payload);
    const approval = approvalId ? this.approvals.get(approvalId) : undefined;
    if (!approval) return;
    const how = resolutionOf(payload);
    if (how === 'cancelled') return this.dismiss(approval);
    if (approval.answeredBy) return this.answer(approval, approval.answeredBy.option, approval.answeredBy.text, 'control', approval.answeredBy.command);
    this.answer(approval, how, undefined, 'oob', approval.requestId);
  }

  private forget(approval: Approval): void {
    this.approvals.delete(approval.approvalId);
    this.byRequest.delete(approval.requestId);
  }

  private answer(approval: Approval, option: string, text: string | undefined, via: 'control' | 'oob', cause: string): void {
    this.forget(approval);
    const answer: Record<string, unknown> = { option };
    const gated = text === undefined ? undefined : red(text, levelFor('attention.answered', this.ctx.posture));
    if (gated !== undefined) answer.text = gated;
    const runOpt = approval.run ? { run: approval.run } : {};
    const answered = this.ctx.emit(approval.session, { type: 'attention.answered', data: { answer, via }, subject: approval.requestId }, { ...runOpt, cause });
    const latency = Math.max(0, Date.parse(answered.time) - Date.parse(approval.time));
    this.ctx.emit(approval.session, { type: 'attention.resolved', data: { resolution: 'answered', latency_ms: latency }, subject: approval.requestId }, { ...runOpt, cause: answered.id });
  }

  private dismiss(approval: Approval): void {
    this.forget(approval);
    const latency = Math.max(0, Date.now() - Date.parse(approval.time));
    this.ctx.emit(approval.session, { type: 'attention.resolved', data: { resolution: 'dismissed', latency_ms: latency }, subject: approval.requestId }, { ...(approval.run ? { run: approval.run } : {}), cause: approval.requestId });
  }

  /** Dismiss the session's pending approvals (its `session.ended` follows). */
  endSession(_ctx: HookContext, session: string): void {
    for (const a of [...this.approvals.values()]) if (a.session === session) this.dismiss(a);
  }

  /** Forward one command to the hub; resolves with its reply, `null` at the guard. */
  private forward(command: string, payload: Record<string, unknown>, sessionId?: string): Promise<Reply | null> | null {
    if (!this.connected || !this.ws) return null;
    const id = this.requestId();
    const ws = this.ws;
    return new Promise((resolve) => {
      const guard = setTimeout(() => {
        this.replies.delete(id);
        resolve(null);
      }, this.cfg.ackGuardMs);
      this.replies.set(id, (reply) => {
        clearTimeout(guard);
        resolve(reply);
      });
      ws.send(commandFrame(command, id, payload, sessionId));
    });
  }

  private static unreachable(): CommandOutcome {
    return { ok: false, reason: 'busy', detail: 'the Cline hub is not connected; retry once it is (the adapter reconnects every second)' };
  }

  async respond(cmd: Record<string, unknown>): Promise<CommandOutcome> {
    const subject = typeof cmd.subject === 'string' ? cmd.subject : undefined;
    const approvalId = subject ? this.byRequest.get(subject) : undefined;
    const approval = approvalId ? this.approvals.get(approvalId) : undefined;
    if (!approval) return { ok: false, reason: 'invalid', detail: `no pending hub approval '${subject ?? ''}': set subject to a pending attention.requested id` };
    if (approval.session !== cmd.session) return { ok: false, reason: 'invalid', detail: `attention request '${subject}' belongs to another session` };
    const answer = parseAnswer(cmd.data);
    if (!answer || (answer.option !== 'approve' && answer.option !== 'deny')) return { ok: false, reason: 'invalid', detail: 'data.answer.option must be "approve" or "deny" (the hub loop decides approve-or-deny; text rides as the reason)' };
    if (approval.answeredBy) return { ok: false, reason: 'refused', detail: 'this approval already has an answer in flight' };
    const option = answer.option;
    const text = answer.text?.trim() ? answer.text : undefined;
    const pending = this.forward('approval.respond', { approvalId: approval.approvalId, approved: option === 'approve', ...(text ? { reason: text, payload: { reason: text } } : {}) }, approval.session);
    if (!pending) return ClineHubTap.unreachable();
    const reply = await pending;
    if (reply === null) {
      approval.answeredBy = { command: cmd.id as string, option, ...(text ? { text } : {}) };
      return { ok: true };
    }
    if (!reply.ok) return { ok: false, reason: 'refused', detail: `the hub refused the answer (${reply.error?.code ?? 'error'}: ${reply.error?.message ?? ''}); it was most likely answered elsewhere first` };
    return { ok: true, after: () => this.answer(approval, option, text, 'control', cmd.id as string) };
  }

  async cancel(cmd: Record<string, unknown>): Promise<CommandOutcome> {
    const session = cmd.session as string;
    const active = this.opts.runOf(session);
    const scope = isPlainObject(cmd.data) ? cmd.data.scope : undefined;
    if (scope === 'session' || typeof cmd.run !== 'string') return { ok: false, reason: 'refused', detail: 'the Cline hub has no session-stop verb: name the active run (scope "run")' };
    if (!active || cmd.run !== active) return { ok: false, reason: 'refused', detail: `run '${String(cmd.run)}' is not the session's active run${active ? ` ('${active}')` : ' (none is active)'}` };
    const pending = this.forward('run.abort', { sessionId: session }, session);
    if (!pending) return ClineHubTap.unreachable();
    const reply = await pending;
    if (reply && !reply.ok) return { ok: false, reason: 'refused', detail: `the hub refused run.abort (${reply.error?.code ?? 'error'})` };
    return { ok: true };
  }

  async sendInput(cmd: Record<string, unknown>): Promise<CommandOutcome> {
    const data = isPlainObject(cmd.data) ? cmd.data : {};
    const text = typeof data.text === 'string' ? data.text : '';
    const delivery = data.delivery === undefined ? 'queue' : data.delivery;
    if (text.trim() === '') return { ok: false, reason: 'invalid', detail: 'data.text must be a non-empty string' };
    if (text.length > SEND_INPUT_CAP) return { ok: false, reason: 'invalid', detail: `data.text is ${text.length} characters; at most ${SEND_INPUT_CAP}` };
    if (delivery !== 'queue' && delivery !== 'steer') return { ok: false, reason: 'invalid', detail: 'data.delivery must be "queue" or "steer"' };
    const session = cmd.session as string;
    const pending = this.forward('session.send_input', { sessionId: session, input: text, delivery }, session);
    if (!pending) return ClineHubTap.unreachable();
    const reply = await pending;
    if (reply && !reply.ok) return { ok: false, reason: 'refused', detail: `the hub refused session.send_input (${reply.error?.code ?? 'error'})` };
    const run = this.opts.runOf(session);
    return { ok: true, after: () => void this.ctx.emit(session, { type: `x.${AGENT}.input.sent`, data: { delivery } }, { cause: cmd.id as string, ...(run ? { run } : {}) }) };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const ws = this.ws;
    if (!ws) return;
    await new Promise<void>((resolve) => {
      ws.once('close', () => resolve());
      ws.close();
      setTimeout(resolve, 500).unref();
    });
  }
}
