import { describe, expect, it } from 'vitest';
import { validateStream } from '../core/stream.js';
import { createEngine } from './engine.js';
import { DEFAULT_POSTURE } from './capture.js';
import { OobCards, oob, oobPermissionData } from './oob.js';
import type { AdapterDef, HookContext } from './types.js';

describe('OobCards', () => {
  it('keys cards by (session, key); take removes; drain returns a session oldest first; a reopened key hands back the old card', () => {
    const cards = new OobCards();
    expect(cards.open({ id: 'a', session: 's1', key: 'k1', openedAt: 2 })).toBeUndefined();
    cards.open({ id: 'b', session: 's1', key: 'k2', openedAt: 1 });
    cards.open({ id: 'c', session: 's2', key: 'k1', openedAt: 0 });
    expect(cards.open({ id: 'd', session: 's1', key: 'k1', openedAt: 3 })?.id).toBe('a');
    expect(cards.take('s1', 'k1')?.id).toBe('d');
    expect(cards.take('s1', 'k1')).toBeUndefined();
    expect(cards.drain('s1').map((c) => c.id)).toEqual(['b']);
    expect(cards.drain('s1')).toEqual([]);
    expect(cards.take('s2', 'k1')?.id).toBe('c');
  });
});

/** The kit's emission helpers through a real engine: every card is closed, the stream stays valid. */
describe('oob emission', () => {
  function harness(): { ctx: HookContext; lines: Record<string, any>[] } {
    const lines: Record<string, any>[] = [];
    let captured: HookContext | undefined;
    const def: AdapterDef = {
      agent: 'probe', defaultPort: 0, emits: ['attention'], accepts: [], neutralReply: () => '', steerable: () => false, steeringReply: () => '',
      handle: async (_h, _i, ctx) => ((captured = ctx), ''),
    };
    let now = Date.UTC(2026, 0, 1);
    const engine = createEngine(def, { posture: DEFAULT_POSTURE, timeoutMs: 1000, instruct: false, host: 'h', epoch: 0, clock: () => (now += 250), send: (l) => lines.push(JSON.parse(l)), log: () => {} });
    void engine.handleHook('X', { session_id: 's' });
    return { ctx: captured!, lines };
  }

  it('open, answer (answered + resolved with latency, cause-linked), dismiss; a reopened key dismisses the old card', () => {
    const { ctx, lines } = harness();
    const cards = new OobCards();
    const mapped = { type: 'attention.requested', data: oobPermissionData('Run ls?'), subject: 'Bash' };
    const first = oob.open(ctx, cards, { session: 's', key: 'c1', run: 'r1', mapped, cause: 'T1' });
    const second = oob.open(ctx, cards, { session: 's', key: 'c1', run: 'r1', mapped });
    const answered = oob.answer(ctx, cards.take('s', 'c1')!, { type: 'attention.answered', data: { answer: { option: 'approved' }, via: 'oob' } });
    const third = oob.open(ctx, cards, { session: 's', key: 'c2', mapped });
    oob.dismiss(ctx, cards.take('s', 'c2')!);
    expect(lines.map((e) => [e.type, e.subject, e.cause ?? null, e.run ?? null])).toEqual([
      ['attention.requested', 'Bash', 'T1', 'r1'],
      ['attention.requested', 'Bash', null, 'r1'],
      ['attention.resolved', first.id, first.id, 'r1'],
      ['attention.answered', second.id, second.id, 'r1'],
      ['attention.resolved', second.id, answered.id, 'r1'],
      ['attention.requested', 'Bash', null, null],
      ['attention.resolved', third.id, third.id, null],
    ]);
    expect(lines[4]!.data).toEqual({ resolution: 'answered', latency_ms: Date.parse(answered.time) - Date.parse(second.time) });
    expect(lines[4]!.data.latency_ms).toBeGreaterThan(0);
    expect(lines[2]!.data).toEqual({ resolution: 'dismissed' });
    expect(validateStream(lines)).toEqual([]);
  });
});
