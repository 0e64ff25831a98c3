/**
 * Observed-only attention cards (AEP-0008 `respond_via: ["oob"]`), pure: the vendor asks its own
 * user (its UI owns the choice), the adapter only sees the ask and, later, what was chosen. Unlike
 * a held request (held-loop.ts) no hook is held, no timer runs and no bus answer is accepted (a
 * `control.attention.respond` naming an observed card finds no pending held request and is nacked
 * `invalid`). The vendor side settles the card: an answer (`attention.answered{via:"oob"}` +
 * `attention.resolved{answered}`), its own timeout (`attention.timeout`), or a dismissal
 * (`attention.resolved{dismissed}`); a session end sweeps what is left as dismissed, so every
 * request the adapter opened is closed on every path.
 *
 * One `ObservedCards` per engine (use `perContext`, or one per adapter instance); cards are filed
 * under `(session, key)` with an adapter-chosen pairing key (Kimi: the `tool_call_id`; Hermes:
 * `approval:<session>|<pattern_key>`). Per key, cards queue first in first out; with
 * `{ reopen: 'supersede' }` a card reopened under a key still open dismisses the older one.
 * Latencies are computed on the events' own times (the engine's clock, so fake clocks hold).
 * No method throws or does I/O of its own.
 */
import type { AepEvent } from '../core/event.js';
import type { HookContext, Mapped } from './types.js';

export interface ObservedCard {
  /** The `attention.requested` event id. */
  id: string;
  session: string;
  run?: string;
  key: string;
  /** The request's event time. */
  time: string;
}

/** What a second card under a key still open means: queue behind it (default), or dismiss it. */
export interface ObservedCardsOptions {
  reopen?: 'queue' | 'supersede';
}

/** Per-engine state for an adapter: one `T` per `HookContext` (one context per engine). */
export function perContext<T>(make: () => T): (ctx: HookContext) => T {
  const states = new WeakMap<HookContext, T>();
  return (ctx) => {
    let state = states.get(ctx);
    if (state === undefined) states.set(ctx, (state = make()));
    return state;
  };
}

/** The `attention.requested` data of an observed permission prompt: no options claimed, answered out of band. */
export function oobPermissionData(prompt: string): Record<string, unknown> {
  return { kind: 'permission', prompt, respond_via: ['oob'] };
}

const runOf = (card: { run?: string }): { run?: string } => (card.run ? { run: card.run } : {});

export class ObservedCards {
  /** Open cards in the order they were opened (oldest first). */
  private cards: ObservedCard[] = [];
  private readonly reopen: 'queue' | 'supersede';

  constructor(options: ObservedCardsOptions = {}) {
    this.reopen = options.reopen ?? 'queue';
  }

  /**
   * Emit `attention.requested` (data as mapped; `respond_via` is the mapper's) and file the card
   * under `(session, key)`. In `supersede` mode a card already open there is dismissed after it.
   */
  open(ctx: HookContext, session: string, mapped: Mapped, opts: { key: string; run?: string; cause?: string }): AepEvent {
    const event = ctx.emit(session, mapped, { ...runOf(opts), ...(opts.cause ? { cause: opts.cause } : {}) });
    const previous = this.reopen === 'supersede' ? this.take(session, opts.key) : undefined;
    this.cards.push({ id: event.id, session, key: opts.key, time: event.time, ...runOf(opts) });
    if (previous) this.dismissed(ctx, previous);
    return event;
  }

  /** Remove and return the oldest card filed under `(session, key)`, if any. */
  take(session: string, key: string): ObservedCard | undefined {
    const at = this.cards.findIndex((c) => c.session === session && c.key === key);
    return at < 0 ? undefined : this.cards.splice(at, 1)[0];
  }

  /** Whether `id` is the request id of a card still open. */
  isOpen(id: string): boolean {
    return this.cards.some((c) => c.id === id);
  }

  /** Cards still open for a session, oldest first. */
  openFor(session: string): ObservedCard[] {
    return this.cards.filter((c) => c.session === session);
  }

  /**
   * The vendor's user answered: `attention.answered` (the given data, e.g. `{answer, label}`, with
   * `via:"oob"`) then `attention.resolved{answered, latency_ms}`, cause-linked. Returns the answer event.
   */
  answered(ctx: HookContext, card: ObservedCard, data: Record<string, unknown>): AepEvent {
    const answered = ctx.emit(card.session, { type: 'attention.answered', data: { ...data, via: 'oob' }, subject: card.id }, { ...runOf(card), cause: card.id });
    const ms = Date.parse(answered.time) - Date.parse(card.time);
    const latency = Number.isFinite(ms) ? { latency_ms: Math.max(0, ms) } : {};
    ctx.emit(card.session, { type: 'attention.resolved', data: { resolution: 'answered', ...latency }, subject: card.id }, { ...runOf(card), cause: answered.id });
    return answered;
  }

  /** The vendor's own timeout ended the ask. */
  timedOut(ctx: HookContext, card: ObservedCard, data: Record<string, unknown> = {}): AepEvent {
    return ctx.emit(card.session, { type: 'attention.timeout', data, subject: card.id }, { ...runOf(card), cause: card.id });
  }

  /** The ask ended without an answer (cancelled, undeliverable, blocked, session end); no latency. */
  dismissed(ctx: HookContext, card: ObservedCard): AepEvent {
    return ctx.emit(card.session, { type: 'attention.resolved', data: { resolution: 'dismissed' }, subject: card.id }, { ...runOf(card), cause: card.id });
  }

  /** Dismiss every card of a session, oldest first (before its `session.ended`). */
  sweep(ctx: HookContext, session: string): void {
    const closing = this.openFor(session);
    this.cards = this.cards.filter((c) => c.session !== session);
    for (const card of closing) this.dismissed(ctx, card);
  }
}
