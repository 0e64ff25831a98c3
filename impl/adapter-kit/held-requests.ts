/**
 * Held requests: the attention requests an engine has open, the hooks waiting on them, and their
 * timers. Every request opened here reaches exactly one terminal on every path (AEP-0002 §5.3):
 * answered over control (`attention.answered` + `attention.resolved{answered}`), answered out of
 * band (the same, `via:"oob"`), dismissed (`attention.resolved{dismissed}`: a vendor surface
 * settled it, the session ended, or the daemon stopped), or timed out (`attention.timeout`,
 * held requests only). The pure answer rules are held-loop.ts; this module adds time and events.
 */
import type { AepEvent } from '../core/event.js';
import { gateFormValues } from '../core/forms.js';
import { redactText } from '../core/redact.js';
import { levelFor, red } from './capture.js';
import type { Emitter } from './emission.js';
import { HeldLoop, type PendingRequest, type RespondOutcome } from './held-loop.js';
import type { Answer, Held, HoldSpec, PendingInfo, Posture, Settlement } from './types.js';

/** Timers for held requests; the default is `setTimeout`/`clearTimeout`. */
export interface EngineTimers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/**
 * Who can see a held request, and how long one raised unseen waits for them.
 * The daemon's audience is the relay link: a request raised while the link is down is still held
 * (its events wait in the link's outbox) for `graceMs`, long enough for a relay restart; when the
 * grace ends with the link still down it times out and the hook gets the vendor's neutral reply;
 * when the link is back by then, the request is held for the rest of its window. Never past the
 * window: the grace is cut to it.
 */
export interface Audience {
  /** Whether anyone can see a request now (the relay link is up). */
  visible(): boolean;
  /** How long a request raised unseen waits for the audience, in ms (0: answered neutrally at once). */
  graceMs: number;
  /** Called when a request is raised unseen, with the grace it gets (the daemon hurries the link's reconnects). */
  unseen?(graceMs: number): void;
}

/** The default link grace of a daemon (`AEP_LINK_GRACE_MS`): a relay restart takes a few seconds. */
export const DEFAULT_LINK_GRACE_MS = 10_000;

export const REAL_TIMERS: EngineTimers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

type Answered = Extract<Settlement, { kind: 'option' | 'values' }>;

interface Waiter {
  resolve(s: Settlement): void;
  timer: unknown;
}

export class HeldRequests {
  private readonly loop = new HeldLoop();
  private readonly waiters = new Map<string, Waiter>();
  /** The exact `attention.requested` line of every open request (redelivered after a relay reconnect). */
  private readonly lines = new Map<string, string>();

  constructor(
    private readonly emitter: Emitter,
    private readonly posture: Posture,
    private readonly timeoutMs: number,
    private readonly clock: () => number,
    private readonly timers: EngineTimers,
    /**
     * Who can see a request (see {@link Audience}); absent = always somebody. A request nobody
     * can see is held for the audience's grace only, unless they are back when it ends.
     */
    private readonly audience?: Audience,
  ) {}

  /** The window a request timed out after, when it is not {@link timeoutMs} (its grace ended unseen). */
  private readonly windows = new Map<string, number>();

  private register(spec: HoldSpec, run: string | undefined, oob: boolean): AepEvent {
    const { event, line } = this.emitter.emit(spec.session, spec.mapped, { ...(run ? { run } : {}), ...(spec.cause ? { cause: spec.cause } : {}) });
    this.loop.open({
      id: event.id,
      session: spec.session,
      ...(run ? { run } : {}),
      ...(spec.key ? { key: spec.key } : {}),
      ...(spec.options ? { options: spec.options } : {}),
      ...(spec.fields ? { fields: spec.fields } : {}),
      refusing: spec.refusing ?? 'deny',
      ...(spec.legacyAnswer ? { legacyAnswer: spec.legacyAnswer } : {}),
      ...(oob ? { oob: true } : {}),
      openedAt: this.clock(),
    });
    this.lines.set(event.id, line);
    return event;
  }

  /** Emit `attention.requested` and hold until it settles; resolves exactly once. */
  hold(spec: HoldSpec, run: string | undefined): Held {
    const request = this.register(spec, run, false);
    const audience = this.audience;
    const unseen = audience !== undefined && !audience.visible();
    const grace = unseen ? Math.max(0, Math.min(audience.graceMs, this.timeoutMs)) : this.timeoutMs;
    if (unseen) audience.unseen?.(grace);
    const settled = new Promise<{ request: AepEvent; settlement: Settlement }>((resolve) => {
      const timer = this.timers.set(() => (unseen ? this.graceOver(request.id, grace) : this.expire(request.id)), grace);
      this.waiters.set(request.id, { timer, resolve: (settlement) => resolve({ request, settlement }) });
    });
    return Object.assign(settled, { requestId: request.id });
  }

  /**
   * The grace of a request raised unseen is over: held for the rest of its window when somebody
   * can see it now, else timed out (`after_ms`: the grace).
   */
  private graceOver(id: string, grace: number): void {
    const waiter = this.waiters.get(id);
    if (!waiter || !this.loop.get(id)) return;
    if (grace < this.timeoutMs && this.audience!.visible()) {
      waiter.timer = this.timers.set(() => this.expire(id), this.timeoutMs - grace);
      return;
    }
    this.windows.set(id, grace);
    this.expire(id);
  }

  /** Emit `attention.requested` for a request answered out of band only (no hook waits; no timer). */
  open(spec: HoldSpec, run: string | undefined): AepEvent {
    return this.register(spec, run, true);
  }

  get(id: string): PendingRequest | undefined {
    return this.loop.get(id);
  }

  list(session: string, key?: string): PendingInfo[] {
    return this.loop.list(session, key).map((r) => ({ id: r.id, session: r.session, ...(r.key ? { key: r.key } : {}), ...(r.fields ? { form: true } : {}) }));
  }

  /** The exact lines of every open request, in the order they were raised. */
  pendingLines(): string[] {
    return [...this.lines.values()];
  }

  /** Apply a `control.attention.respond` answer; on success the caller acks first, then calls `applyAnswer`. */
  respond(id: string | undefined, answer: Answer): RespondOutcome {
    return this.loop.respond(id, answer);
  }

  /** Record an accepted control answer (cause: the command id) and free the waiting hook. */
  applyAnswer(outcome: Extract<RespondOutcome, { ok: true }>, commandId: string): void {
    this.lines.delete(outcome.request.id);
    const answered = this.recordAnswer(outcome.request, outcome.settlement, commandId);
    this.release(outcome.request.id, { ...outcome.settlement, answered });
  }

  /** Settle an open request from the vendor side: dismissed, or answered out of band. */
  settle(id: string, how: { kind: 'dismissed' } | { kind: 'oob'; answer: Answer }): boolean {
    const request = this.loop.close(id);
    if (!request) return false;
    this.lines.delete(id);
    if (how.kind === 'dismissed') {
      this.emitter.emit(request.session, { type: 'attention.resolved', data: { resolution: 'dismissed', latency_ms: this.latency(request) }, subject: id }, { ...(request.run ? { run: request.run } : {}), cause: id });
      this.release(id, { kind: 'dismissed' });
      return true;
    }
    const settlement: Answered = how.answer.values !== undefined
      ? { kind: 'values', values: how.answer.values, via: 'oob' }
      : { kind: 'option', option: how.answer.option ?? request.refusing, ...(how.answer.text ? { text: how.answer.text } : {}), via: 'oob' };
    const answered = this.recordAnswer(request, settlement, id);
    this.release(id, { ...settlement, answered });
    return true;
  }

  /** Dismiss every open request of a session (its end), in the order they were raised. */
  closeSession(session: string): void {
    for (const p of this.loop.list(session)) this.settle(p.id, { kind: 'dismissed' });
  }

  /** Dismiss every open request (shutdown). */
  dismissAll(): void {
    for (const id of [...this.lines.keys()]) this.settle(id, { kind: 'dismissed' });
  }

  private latency(request: PendingRequest): number {
    return Math.max(0, this.clock() - request.openedAt);
  }

  private expire(id: string): void {
    const expired = this.loop.close(id);
    if (!expired) return;
    this.lines.delete(id);
    const afterMs = this.windows.get(id) ?? this.timeoutMs;
    this.windows.delete(id);
    this.emitter.emit(expired.session, { type: 'attention.timeout', data: { after_ms: afterMs }, subject: expired.id }, { ...(expired.run ? { run: expired.run } : {}), cause: expired.id });
    this.release(id, { kind: 'timeout' });
  }

  /** Deliver a settlement to the hook waiting on request `id` (none waits on an out-of-band request). */
  private release(id: string, settlement: Settlement): void {
    const waiter = this.waiters.get(id);
    if (!waiter) return;
    this.timers.clear(waiter.timer);
    this.waiters.delete(id);
    waiter.resolve(settlement);
  }

  /** attention.answered (+ attention.resolved cause-linked to it) for a settled request. */
  private recordAnswer(request: PendingRequest, settlement: Answered, cause: string): string {
    const level = levelFor('attention.answered', this.posture);
    const answer: Record<string, unknown> = {};
    if (settlement.kind === 'option') {
      answer.option = settlement.option;
      const text = settlement.text === undefined ? undefined : red(settlement.text, level);
      if (text !== undefined) answer.text = text;
    } else {
      answer.values = gateFormValues(request.fields ?? [], settlement.values, level, (s) => redactText(s, { pii: true }));
    }
    const run = request.run ? { run: request.run } : {};
    const answered = this.emitter.emit(request.session, { type: 'attention.answered', data: { answer, via: settlement.via }, subject: request.id }, { ...run, cause }).event;
    this.emitter.emit(request.session, { type: 'attention.resolved', data: { resolution: 'answered', latency_ms: this.latency(request) }, subject: request.id }, { ...run, cause: answered.id });
    return answered.id;
  }
}
