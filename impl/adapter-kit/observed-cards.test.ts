import { describe, expect, it } from 'vitest';
import { validateStream } from '../core/stream.js';
import { createEngine } from './engine.js';
import { DEFAULT_POSTURE } from './capture.js';
import { ObservedCards, oobPermissionData, perContext } from './observed-cards.js';
import type { AdapterDef, HookContext } from './types.js';

/** An engine's adapter context, on a stepping clock. */
function engineCtx(): { ctx: HookContext; lines: Record<string, any>[] } {
  const lines: Record<string, any>[] = [];
  const def: AdapterDef = {
    agent: 'probe', defaultPort: 0, emits: [], accepts: [], neutralReply: () => '', steerable: () => false, steeringReply: () => '',
    handle: async () => '',
  };
  let t = 1_000;
  const engine = createEngine(def, { posture: DEFAULT_POSTURE, timeoutMs: 1000, instruct: false, host: 'h', epoch: 0, clock: () => (t += 250), send: (l) => lines.push(JSON.parse(l)), log: () => {} });
  return { ctx: engine.context, lines };
}

const card = { type: 'attention.requested', data: { kind: 'permission', prompt: 'p', options: [{ id: 'a', label: 'A' }], respond_via: ['oob'] } };

describe('observed cards', () => {
  it('answered: answered via oob then resolved, cause-linked, latency from event times', () => {
    const { ctx, lines } = engineCtx();
    const cards = new ObservedCards();
    const req = cards.open(ctx, 's1', card, { key: 'k', run: 'r1' });
    const taken = cards.take('s1', 'k')!;
    expect(cards.take('s1', 'k')).toBeUndefined();
    cards.answered(ctx, taken, { answer: { option: 'a' } });
    expect(lines.map((l) => [l.type, l.subject ?? null, l.cause ?? null, l.run])).toEqual([
      ['attention.requested', null, null, 'r1'],
      ['attention.answered', req.id, req.id, 'r1'],
      ['attention.resolved', req.id, lines[1]!.id, 'r1'],
    ]);
    expect(lines[1]!.data).toEqual({ answer: { option: 'a' }, via: 'oob' });
    expect(lines[2]!.data).toEqual({ resolution: 'answered', latency_ms: Date.parse(lines[1]!.time) - Date.parse(lines[0]!.time) });
    expect(lines[2]!.data.latency_ms).toBeGreaterThan(0);
    expect(validateStream(lines)).toEqual([]);
  });

  it('FIFO per key; timeout and dismissal; the sweep closes only that session, before its end', () => {
    const { ctx, lines } = engineCtx();
    const cards = new ObservedCards();
    const first = cards.open(ctx, 's1', card, { key: 'k' });
    cards.open(ctx, 's1', card, { key: 'k' });
    cards.open(ctx, 's2', card, { key: 'other' });
    expect(cards.take('s2', 'k')).toBeUndefined();
    expect(cards.take('s1', 'k')!.id).toBe(first.id);
    cards.timedOut(ctx, { id: first.id, session: 's1', key: 'k', time: first.time });
    cards.sweep(ctx, 's1');
    expect(cards.openFor('s1')).toEqual([]);
    expect(cards.openFor('s2')).toHaveLength(1);
    expect(lines.slice(3).map((l) => [l.type, l.data.resolution ?? null])).toEqual([['attention.timeout', null], ['attention.resolved', 'dismissed']]);
    const state = perContext(() => ({ n: 0 }));
    state(ctx).n++;
    expect(state(ctx).n).toBe(1);
  });

  it('supersede: a card reopened under an open key dismisses the older one after the new request; answered data keeps its members', () => {
    const { ctx, lines } = engineCtx();
    const cards = new ObservedCards({ reopen: 'supersede' });
    const mapped = { type: 'attention.requested', data: oobPermissionData('Run ls?'), subject: 'Bash' };
    const first = cards.open(ctx, 's', mapped, { key: 'c1', run: 'r1', cause: 'T1' });
    const second = cards.open(ctx, 's', mapped, { key: 'c1', run: 'r1' });
    cards.open(ctx, 'other', mapped, { key: 'c1' });
    const answered = cards.answered(ctx, cards.take('s', 'c1')!, { answer: { option: 'approved' }, via: 'oob', label: 'Yes' });
    expect(cards.take('s', 'c1')).toBeUndefined();
    const third = cards.open(ctx, 's', mapped, { key: 'c2' });
    cards.sweep(ctx, 's');
    expect(cards.openFor('other')).toHaveLength(1);
    expect(lines.map((e) => [e.type, e.subject, e.cause ?? null, e.run ?? null])).toEqual([
      ['attention.requested', 'Bash', 'T1', 'r1'],
      ['attention.requested', 'Bash', null, 'r1'],
      ['attention.resolved', first.id, first.id, 'r1'],
      ['attention.requested', 'Bash', null, null],
      ['attention.answered', second.id, second.id, 'r1'],
      ['attention.resolved', second.id, answered.id, 'r1'],
      ['attention.requested', 'Bash', null, null],
      ['attention.resolved', third.id, third.id, null],
    ]);
    expect(lines[0]!.data).toEqual({ kind: 'permission', prompt: 'Run ls?', respond_via: ['oob'] });
    expect(lines[2]!.data).toEqual({ resolution: 'dismissed' });
    expect(lines[4]!.data).toEqual({ answer: { option: 'approved' }, via: 'oob', label: 'Yes' });
    expect(lines[5]!.data).toEqual({ resolution: 'answered', latency_ms: Date.parse(answered.time) - Date.parse(second.time) });
    expect(validateStream(lines)).toEqual([]);
  });

  it('the sweep closes a session oldest first across keys', () => {
    const { ctx, lines } = engineCtx();
    const cards = new ObservedCards();
    const a = cards.open(ctx, 's', card, { key: 'x' });
    const b = cards.open(ctx, 's', card, { key: 'y' });
    const c = cards.open(ctx, 's', card, { key: 'x' });
    cards.sweep(ctx, 's');
    expect(lines.slice(3).map((l) => l.subject)).toEqual([a.id, b.id, c.id]);
    expect(cards.isOpen(a.id)).toBe(false);
  });
});
