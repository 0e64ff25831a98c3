/**
 * Observed-only cards at their edges: per-engine state, the default queueing of a reopened key,
 * latencies on odd clocks, and what a timeout or dismissal carries.
 */
import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../core/event.js';
import { ObservedCards, oobPermissionData, perContext } from './observed-cards.js';
import type { HookContext, Mapped } from './types.js';

/** A context whose events take the times the test hands out. */
function fakeCtx(times: string[]) {
  const emitted: { session: string; mapped: Mapped; extra: Record<string, unknown>; id: string }[] = [];
  const ctx = {
    emit: (session: string, mapped: Mapped, extra: Record<string, unknown> = {}): AepEvent => {
      const id = `e${emitted.length + 1}`;
      emitted.push({ session, mapped, extra, id });
      return { id, time: times.shift() ?? '2026-01-01T00:00:00.000Z' } as AepEvent;
    },
  } as unknown as HookContext;
  return { ctx, emitted };
}

const CARD: Mapped = { type: 'attention.requested', data: oobPermissionData('Run?') };

describe('perContext', () => {
  it('one state per context, made once', () => {
    let made = 0;
    const state = perContext(() => ({ n: ++made }));
    const a = fakeCtx([]).ctx;
    const b = fakeCtx([]).ctx;
    expect(state(a)).toBe(state(a));
    expect(state(b).n).toBe(2);
    expect(made).toBe(2);
  });
});

describe('ObservedCards', () => {
  it('by default a card reopened under an open key queues behind it (nothing dismissed)', () => {
    const { ctx, emitted } = fakeCtx([]);
    const cards = new ObservedCards();
    const first = cards.open(ctx, 's', CARD, { key: 'k' });
    const second = cards.open(ctx, 's', CARD, { key: 'k' });
    expect(emitted.map((e) => e.mapped.type)).toEqual(['attention.requested', 'attention.requested']);
    expect(cards.isOpen(first.id) && cards.isOpen(second.id)).toBe(true);
    expect(cards.openFor('s').map((c) => c.id)).toEqual([first.id, second.id]);
    expect(new ObservedCards({ reopen: 'queue' }).open(ctx, 's', CARD, { key: 'k' })).toBeDefined();
  });

  it('open files the card with its run and time, and emits with the cause', () => {
    const { ctx, emitted } = fakeCtx(['2026-01-01T00:00:01.000Z']);
    const cards = new ObservedCards();
    cards.open(ctx, 's', CARD, { key: 'k', run: 'r', cause: 'T' });
    expect(emitted[0]!.extra).toEqual({ run: 'r', cause: 'T' });
    expect(cards.openFor('s')).toEqual([{ id: 'e1', session: 's', key: 'k', time: '2026-01-01T00:00:01.000Z', run: 'r' }]);
    cards.open(ctx, 's', CARD, { key: 'k2' });
    expect(emitted[1]!.extra).toEqual({});
    expect(cards.openFor('s')[1]).toEqual({ id: 'e2', session: 's', key: 'k2', time: '2026-01-01T00:00:00.000Z' });
  });

  it('take matches both the session and the key', () => {
    const { ctx } = fakeCtx([]);
    const cards = new ObservedCards();
    cards.open(ctx, 'a', CARD, { key: 'k' });
    cards.open(ctx, 'b', CARD, { key: 'j' });
    expect(cards.take('a', 'j')).toBeUndefined();
    expect(cards.take('b', 'k')).toBeUndefined();
    expect(cards.take('b', 'j')?.session).toBe('b');
    expect(cards.isOpen('e2')).toBe(false);
    expect(cards.isOpen('e1')).toBe(true);
  });

  it('an answer before the request (a clock step back) has latency 0; unreadable times give no latency', () => {
    const back = fakeCtx(['2026-01-01T00:00:00.000Z']);
    const card = { id: 'r', session: 's', key: 'k', time: '2026-01-01T00:00:05.000Z' };
    new ObservedCards().answered(back.ctx, card, { answer: { option: 'a' } });
    expect(back.emitted[1]!.mapped.data).toEqual({ resolution: 'answered', latency_ms: 0 });
    const odd = fakeCtx([]);
    new ObservedCards().answered(odd.ctx, { ...card, time: 'not a time' }, { answer: { option: 'a' } });
    expect(odd.emitted[1]!.mapped.data).toEqual({ resolution: 'answered' });
    expect(odd.emitted.map((e) => e.extra)).toEqual([{ cause: 'r' }, { cause: 'e1' }]);
  });

  it('a timeout carries the given data (none by default), subject and cause the request, and its run', () => {
    const { ctx, emitted } = fakeCtx([]);
    const cards = new ObservedCards();
    cards.timedOut(ctx, { id: 'r', session: 's', key: 'k', time: 't', run: 'run' });
    cards.timedOut(ctx, { id: 'q', session: 's', key: 'k', time: 't' }, { after_ms: 30_000 });
    expect(emitted.map((e) => [e.mapped, e.extra])).toEqual([
      [{ type: 'attention.timeout', data: {}, subject: 'r' }, { run: 'run', cause: 'r' }],
      [{ type: 'attention.timeout', data: { after_ms: 30_000 }, subject: 'q' }, { cause: 'q' }],
    ]);
  });

  it('a dismissal carries no latency; the sweep leaves other sessions open', () => {
    const { ctx, emitted } = fakeCtx([]);
    const cards = new ObservedCards();
    cards.open(ctx, 's', CARD, { key: 'k', run: 'r' });
    cards.open(ctx, 't', CARD, { key: 'k' });
    cards.sweep(ctx, 's');
    expect(emitted[2]).toMatchObject({ session: 's', mapped: { type: 'attention.resolved', data: { resolution: 'dismissed' }, subject: 'e1' }, extra: { run: 'r', cause: 'e1' } });
    expect(cards.openFor('t')).toHaveLength(1);
    expect(cards.openFor('s')).toEqual([]);
  });
});
