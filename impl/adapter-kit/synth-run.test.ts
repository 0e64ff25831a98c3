import { describe, expect, it } from 'vitest';
import { createEngine } from './engine.js';
import { DEFAULT_POSTURE } from './capture.js';
import { SynthesizedRuns } from './synth-run.js';
import type { AdapterDef, HookContext } from './types.js';

function harness(): { ctx: HookContext; lines: Record<string, any>[] } {
  const lines: Record<string, any>[] = [];
  let captured: HookContext | undefined;
  const def: AdapterDef = {
    agent: 'probe', defaultPort: 0, emits: ['run'], accepts: [], neutralReply: () => '', steerable: () => false, steeringReply: () => '',
    handle: async (_h, _i, ctx) => ((captured = ctx), ''),
  };
  const engine = createEngine(def, { posture: DEFAULT_POSTURE, timeoutMs: 1000, instruct: false, host: 'h', epoch: 0, send: (l) => lines.push(JSON.parse(l)), log: () => {} });
  void engine.handleHook('X', { session_id: 's' });
  return { ctx: captured!, lines };
}

describe('SynthesizedRuns', () => {
  it('mints a run per opening, closes it cause-linked, drains a run left open, and is quiet with nothing open', () => {
    const { ctx, lines } = harness();
    const runs = new SynthesizedRuns();
    const a = runs.open(ctx, 's', { type: 'run.started', data: {} });
    runs.close(ctx, 's', { type: 'run.finished', data: {} });
    expect(ctx.run('s')).toBeUndefined();
    const b = runs.open(ctx, 's', { type: 'run.started', data: {} });
    const c = runs.open(ctx, 's', { type: 'run.started', data: {} });
    expect(runs.drain(ctx, 's')?.type).toBe('run.cancelled');
    expect(runs.drain(ctx, 's')).toBeUndefined();
    runs.close(ctx, 's', { type: 'run.failed', data: { reason: 'x' } });
    expect(lines.map((e) => [e.type, e.run ?? null, e.cause ?? null])).toEqual([
      ['run.started', a.run, null],
      ['run.finished', a.run, a.id],
      ['run.started', b.run, null],
      ['run.cancelled', b.run, b.id],
      ['run.started', c.run, null],
      ['run.cancelled', c.run, c.id],
      ['run.failed', null, null],
    ]);
    expect(new Set([a.run, b.run, c.run]).size).toBe(3);
    expect(lines[3]!.data).toEqual({});
  });
});
