/**
 * Observed-only attention cards (AEP-0008 `respond_via: ["oob"]`), pure: a vendor prompt the
 * adapter can see but not answer (the vendor's own UI owns the choice). The card opens on one
 * vendor moment and is settled by a later one that reports what the human chose; the kit turns
 * that report into `attention.answered{via:"oob"}` + `attention.resolved{answered}`, or
 * `attention.resolved{dismissed}` when no answer exists. Nothing is held: the hook that opened
 * the card is answered at once. A card still open when its session ends is dismissed then, so
 * every request the adapter opened is closed on every path.
 *
 * `OobCards` is the per-daemon table of open cards, keyed by `(session, key)` (Kimi keys by
 * `tool_call_id`). Its methods never throw and never do I/O.
 */
import type { AepEvent } from '../core/event.js';
import type { HookContext, Mapped } from './types.js';

export interface OobCard {
  /** The `attention.requested` event id. */
  id: string;
  session: string;
  key: string;
  run?: string;
  /** Epoch milliseconds the card opened at (for `latency_ms`). */
  openedAt: number;
}

export class OobCards {
  private readonly cards = new Map<string, OobCard>();

  private static slot(session: string, key: string): string {
    return `${session}\u0000${key}`;
  }

  /** Record an opened card; a card already open under the same key is returned so it can be dismissed first. */
  open(card: OobCard): OobCard | undefined {
    const slot = OobCards.slot(card.session, card.key);
    const previous = this.cards.get(slot);
    this.cards.set(slot, card);
    return previous;
  }

  /** Remove and return the open card for `(session, key)`, if any. */
  take(session: string, key: string): OobCard | undefined {
    const slot = OobCards.slot(session, key);
    const card = this.cards.get(slot);
    this.cards.delete(slot);
    return card;
  }

  /** Remove and return every open card of a session, oldest first. */
  drain(session: string): OobCard[] {
    const out = [...this.cards.values()].filter((c) => c.session === session).sort((a, b) => a.openedAt - b.openedAt);
    for (const c of out) this.cards.delete(OobCards.slot(c.session, c.key));
    return out;
  }
}

/** The `attention.requested` data of an observed permission prompt: no options claimed, answered out of band. */
export function oobPermissionData(prompt: string): Record<string, unknown> {
  return { kind: 'permission', prompt, respond_via: ['oob'] };
}

/** Epoch milliseconds of an emitted event's `time`. */
const timeOf = (event: { time?: unknown }): number => (typeof event.time === 'string' ? Date.parse(event.time) : NaN);

/**
 * Emission helpers over the kit's hook context (no I/O of their own): open a card, answer it out
 * of band, dismiss it. Latencies come from the events' own `time` (the engine's clock).
 */
export const oob = {
  /** Emit the card's `attention.requested` and record it; a card already open under the key is dismissed first. */
  open(ctx: HookContext, cards: OobCards, spec: { session: string; key: string; run?: string; mapped: Mapped; cause?: string }): AepEvent {
    const extra = { ...(spec.run ? { run: spec.run } : {}), ...(spec.cause ? { cause: spec.cause } : {}) };
    const request = ctx.emit(spec.session, spec.mapped, extra);
    const previous = cards.open({ id: request.id, session: spec.session, key: spec.key, ...(spec.run ? { run: spec.run } : {}), openedAt: timeOf(request) });
    if (previous) oob.dismiss(ctx, previous);
    return request;
  },
  /** `attention.answered` (the mapped answer, `via:"oob"`) + `attention.resolved{answered}` cause-linked to it. */
  answer(ctx: HookContext, card: OobCard, answered: Mapped): AepEvent {
    const run = card.run ? { run: card.run } : {};
    const event = ctx.emit(card.session, { ...answered, subject: card.id }, { ...run, cause: card.id });
    ctx.emit(card.session, { type: 'attention.resolved', data: { resolution: 'answered', ...latency(card, event) }, subject: card.id }, { ...run, cause: event.id });
    return event;
  },
  /** `attention.resolved{dismissed}` for a card no answer will come for (no latency: nothing answered). */
  dismiss(ctx: HookContext, card: OobCard): AepEvent {
    const run = card.run ? { run: card.run } : {};
    return ctx.emit(card.session, { type: 'attention.resolved', data: { resolution: 'dismissed' }, subject: card.id }, { ...run, cause: card.id });
  },
};

function latency(card: OobCard, event: { time?: unknown }): { latency_ms?: number } {
  const ms = timeOf(event) - card.openedAt;
  return Number.isFinite(ms) ? { latency_ms: Math.max(0, ms) } : {};
}
