/**
 * Observed-only attention cards (AEP-0008 `respond_via: ["oob"]`): the vendor asks its own user,
 * the adapter only sees the ask and, later, the answer. Unlike a held request (held-loop.ts) no
 * hook is held, no timer runs and no bus answer is accepted (a `control.attention.respond` naming
 * an observed card finds no pending held request and is nacked `invalid`). The vendor side settles
 * the card: an answer (`attention.answered{via:"oob"}` + `attention.resolved{answered}`), its own
 * timeout (`attention.timeout`), or a dismissal; a session end sweeps what is left as dismissed.
 *
 * One `ObservedCards` per engine (use `perContext`); cards are filed under an adapter-chosen
 * pairing key (e.g. `approval:<session>|<pattern_key>`), first in first out per key.
 */
import type { AepEvent } from '../core/event.js';
import type { HookContext, Mapped } from './types.js';

export interface ObservedCard {
  /** The `attention.requested` event id. */
  id: string;
  session: string;
  run?: string;
  key: string;
  /** The request's event time (latencies are computed on event times, so fake clocks hold). */
  time: string;
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

const runOf = (card: { run?: string }): { run?: string } => (card.run ? { run: card.run } : {});

export class ObservedCards {
  private readonly byKey = new Map<string, ObservedCard[]>();

  /** Emit `attention.requested` (data as mapped; `respond_via` is the mapper's) and file the card under `key`. */
  open(ctx: HookContext, session: string, mapped: Mapped, opts: { key: string; run?: string; cause?: string }): AepEvent {
    const event = ctx.emit(session, mapped, { ...runOf(opts), ...(opts.cause ? { cause: opts.cause } : {}) });
    const card: ObservedCard = { id: event.id, session, key: opts.key, time: event.time, ...runOf(opts) };
    const list = this.byKey.get(opts.key) ?? [];
    list.push(card);
    this.byKey.set(opts.key, list);
    return event;
  }

  /** Remove and return the oldest card filed under `key`, if any. */
  take(key: string): ObservedCard | undefined {
    const list = this.byKey.get(key);
    const card = list?.shift();
    if (list && list.length === 0) this.byKey.delete(key);
    return card;
  }

  /** Whether `id` is the request id of a card still open. */
  isOpen(id: string): boolean {
    for (const list of this.byKey.values()) if (list.some((c) => c.id === id)) return true;
    return false;
  }

  /** Cards still open for a session, oldest first. */
  openFor(session: string): ObservedCard[] {
    return [...this.byKey.values()].flat().filter((c) => c.session === session);
  }

  /** The vendor's user answered: `attention.answered{answer, via:"oob"}` then `attention.resolved{answered}`. */
  answered(ctx: HookContext, card: ObservedCard, answer: Record<string, unknown>): void {
    const answeredEv = ctx.emit(card.session, { type: 'attention.answered', data: { answer, via: 'oob' }, subject: card.id }, { ...runOf(card), cause: card.id });
    const latency = Math.max(0, Date.parse(answeredEv.time) - Date.parse(card.time));
    ctx.emit(card.session, { type: 'attention.resolved', data: { resolution: 'answered', latency_ms: latency }, subject: card.id }, { ...runOf(card), cause: answeredEv.id });
  }

  /** The vendor's own timeout ended the ask. */
  timedOut(ctx: HookContext, card: ObservedCard, data: Record<string, unknown> = {}): void {
    ctx.emit(card.session, { type: 'attention.timeout', data, subject: card.id }, { ...runOf(card), cause: card.id });
  }

  /** The ask ended without an answer (cancelled, undeliverable, blocked, session end). */
  dismissed(ctx: HookContext, card: ObservedCard): void {
    ctx.emit(card.session, { type: 'attention.resolved', data: { resolution: 'dismissed' }, subject: card.id }, { ...runOf(card), cause: card.id });
  }

  /** Dismiss every card of a session (before its `session.ended`). */
  sweep(ctx: HookContext, session: string): void {
    for (const [key, list] of [...this.byKey.entries()]) {
      const keep = list.filter((c) => c.session !== session);
      for (const card of list.filter((c) => c.session === session)) this.dismissed(ctx, card);
      if (keep.length > 0) this.byKey.set(key, keep);
      else this.byKey.delete(key);
    }
  }
}
