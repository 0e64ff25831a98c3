import { describe, expect, it } from 'vitest';
import { validateEvent } from '../../core/envelope.js';
import { Sequencer } from '../../adapter-kit/envelope.js';
import type { Mapped } from '../../adapter-kit/types.js';
import { mapEvent } from './map-events.js';
import { mapRunFinished, outcomeOf } from './run-outcome.js';

let n = 0;
const types = (m: Mapped | Mapped[] | null): string[] => (m === null ? [] : (Array.isArray(m) ? m : [m]).map((x) => x.type));
const finished = (outcome?: unknown, extra: Record<string, unknown> = {}) => ({ type: 'RUN_FINISHED', threadId: 't', runId: 'r', ...(outcome !== undefined ? { outcome } : {}), ...extra });

describe('RUN_FINISHED outcome (@ag-ui/core 1.0) → the run terminal', () => {
  it('absent and success outcomes are run.finished', () => {
    expect(types(mapEvent(finished()))).toEqual(['run.finished']);
    expect(types(mapEvent(finished({ type: 'success', pendingToolCallIds: ['a'] })))).toEqual(['run.finished']);
    expect(mapEvent(finished(undefined, { result: 'ok' }), { ceiling: 'full' })).toEqual({ type: 'run.finished', data: { summary: 'ok' } });
  });

  it('a cancelled run is run.cancelled, never run.finished (object and bare-string spellings)', () => {
    expect(mapEvent(finished({ type: 'cancelled' }))).toEqual({ type: 'run.cancelled', data: {} });
    expect(mapEvent(finished('cancelled'))).toEqual({ type: 'run.cancelled', data: {} });
  });

  it('an interrupt is one attention.requested per interrupt, then run.cancelled marked as an interrupt', () => {
    const out = mapEvent(finished({ type: 'interrupt', interrupts: [
      { id: 'int_1', reason: 'tool_approval', toolCallId: 'tc_9', message: 'Delete 3 files?' },
      { id: 'int_2', reason: 'input_required', expiresAt: '2026-12-02T10:00:00Z' },
    ] }));
    expect(out).toEqual([
      { type: 'attention.requested', subject: 'int_1', data: { kind: 'permission', prompt: 'The run stopped for a human: approve tool call tc_9', respond_via: ['oob'], tool_call_id: 'tc_9' } },
      { type: 'attention.requested', subject: 'int_2', data: { kind: 'input', prompt: 'The run stopped for a human (interrupt 2 of 2)', respond_via: ['oob'], expires_at: '2026-12-02T10:00:00.000Z' } },
      { type: 'run.cancelled', data: { outcome: 'interrupt' } },
    ]);
    expect(types(mapEvent(finished('interrupt')))).toEqual(['run.cancelled']);
  });

  it('the interrupt text rides only above metadata', () => {
    const [ask] = mapRunFinished(finished({ type: 'interrupt', interrupts: [{ id: 'i', reason: 'tool_approval', message: 'Delete 3 files?' }] }), 'full');
    expect(ask!.data).toMatchObject({ prompt: 'Delete 3 files?', interrupt_reason: 'tool_approval' });
  });

  it('an unknown outcome stays a success but keeps its token', () => {
    expect(outcomeOf(finished({ type: 'later' }))).toBe('later');
    expect(mapEvent(finished({ type: 'later' }))).toEqual({ type: 'run.finished', data: { outcome: 'later' } });
  });

  it('every mapped outcome event validates as an AEP event', () => {
    const seq = new Sequencer('agui', 'h', 1, { ceiling: 'metadata', attention: 'redacted' }, () => `01J${String(n++).padStart(23, '0')}`, () => 0);
    for (const o of [undefined, { type: 'cancelled' }, { type: 'interrupt', interrupts: [{ id: 'i', reason: 'x', toolCallId: 'c' }] }]) {
      for (const m of mapRunFinished(finished(o), 'metadata')) expect(validateEvent(seq.build('t', m, { run: 'r' })), m.type).toEqual([]);
    }
  });
});
