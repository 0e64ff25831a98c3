import { describe, expect, it } from 'vitest';
import { validateStream } from '../core/stream.js';
import { createEngine } from './engine.js';
import { DEFAULT_POSTURE } from './capture.js';
import { ObservedCards, perContext } from './observed-cards.js';
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
    const taken = cards.take('k')!;
    expect(cards.take('k')).toBeUndefined();
    cards.answered(ctx, taken, { option: 'a' });
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
    expect(cards.take('k')!.id).toBe(first.id);
    cards.timedOut(ctx, { id: first.id, session: 's1', key: 'k', time: first.time });
    cards.sweep(ctx, 's1');
    expect(cards.openFor('s1')).toEqual([]);
    expect(cards.openFor('s2')).toHaveLength(1);
    expect(lines.slice(3).map((l) => [l.type, l.data.resolution ?? null])).toEqual([['attention.timeout', null], ['attention.resolved', 'dismissed']]);
    const state = perContext(() => ({ n: 0 }));
    state(ctx).n++;
    expect(state(ctx).n).toBe(1);
  });
});
