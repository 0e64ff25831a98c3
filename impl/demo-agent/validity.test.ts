/**
 * Everything the demo target emits is a valid event and a valid stream (AEP-0001, AEP-0002,
 * AEP-0004): a black-box checker may validate every frame it observes, not only the ones its
 * check is about.
 */
import { describe, expect, it } from 'vitest';
import { validateEvent } from '../core/envelope.js';
import { validateStream } from '../core/stream.js';
import { DemoTarget } from './target.js';

const T = '2026-11-30T05:40:00.000Z';

function command(id: string, type: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ aep: '0.1', id, type, time: T, source: 'aep://checker/agent/aep-live-check', agent: 'aep-live-check', session: 'vs', ...extra });
}

describe('demo target output validity', () => {
  it('emits only valid events, forming a valid stream, across every decision it makes', () => {
    let n = 0;
    const t = new DemoTarget(
      { agent: 'aep-demo-agent', source: 'aep://box/agent/aep-demo-agent/session/vs', session: 'vs', run: 'vr', epoch: 3, ackWindowMs: 10000, instance: 'box/1' },
      () => new Date(T),
      () => `01KDEMOVALID${String(++n).padStart(14, '0')}`,
    );
    const out = [...t.opening()];
    const request = t.pendingRequest!;
    out.push(...t.onFrame(command('c-unknown', 'control.attention.respond', { subject: 'nope', data: { answer: { option: 'allow' } } })));
    out.push(...t.onFrame(command('c-pause', 'control.pause', { data: {} })));
    out.push(...t.onFrame(command('c-answer', 'control.attention.respond', { subject: request, data: { answer: { option: 'deny' } } })));
    out.push(...t.onFrame(command('c-answer', 'control.attention.respond', { subject: request, data: { answer: { option: 'deny' } } })));
    out.push(...t.onFrame(command('c-cancel', 'control.cancel', { run: 'vr', data: { scope: 'run' } })));
    out.push(...t.onFrame(command('c-again', 'control.cancel', { run: 'vr', data: { scope: 'run' } })));
    const events = out.map((f) => JSON.parse(f) as Record<string, unknown>);
    expect(events.map((e) => e.type)).toEqual([
      'session.started',
      'run.started',
      'attention.requested',
      'control.rejected',
      'control.rejected',
      'control.accepted',
      'attention.answered',
      'attention.resolved',
      'control.accepted', // the recorded ack, re-sent for the retransmit
      'control.accepted',
      'run.cancelled',
      'control.rejected',
    ]);
    for (const e of events) expect(validateEvent(e), JSON.stringify(e)).toEqual([]);
    expect(validateStream(events)).toEqual([]);
  });
});
