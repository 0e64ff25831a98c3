/**
 * The steering desk's audit trail as an operator reads it: one `x.{agent}.instruction.delivered`
 * per delivered text (with how long it waited) and one `...dropped` per text lost at session
 * end, each cause-linked to its command, the text itself following the capture ceiling.
 * Also `mapHeld` (held.ts), which wraps a held request and must keep its id.
 */
import { describe, expect, it } from 'vitest';
import { createEmitter } from './emission.js';
import { mapHeld } from './held.js';
import { SteeringDesk } from './steering-desk.js';
import type { Held, Posture } from './types.js';

function desk(posture: Posture, cap?: number) {
  const wire: Record<string, any>[] = [];
  let now = 1_000_000;
  const clock = () => now;
  const emitter = createEmitter({ agent: 'acme', host: 'h', epoch: 0, posture, clock, send: (l) => wire.push(JSON.parse(l)), log: () => {} });
  const d = new SteeringDesk('acme', emitter, posture, clock, cap);
  return { d, wire, setNow: (t: number) => (now = t) };
}

describe('SteeringDesk', () => {
  it('take: the joined texts, one delivered audit per text with its wait, cause-linked', () => {
    const k = desk({ ceiling: 'full', attention: 'full' });
    expect(k.d.push('s', { commandId: 'c1', text: 'one', queuedAt: 999_000 })).toBeNull();
    k.d.push('s', { commandId: 'c2', text: 'two', queuedAt: 999_500 });
    expect(k.d.take('s')).toBe('one\n\ntwo');
    expect(k.wire.map((e) => [e.type, e.session, e.cause, e.data])).toEqual([
      ['x.acme.instruction.delivered', 's', 'c1', { queued_ms: 1_000, text: 'one' }],
      ['x.acme.instruction.delivered', 's', 'c2', { queued_ms: 500, text: 'two' }],
    ]);
    expect(k.d.take('s')).toBeNull();
    expect(k.wire).toHaveLength(2);
  });

  it("the wait is never negative; the vendor's cap limits one take", () => {
    const k = desk({ ceiling: 'full', attention: 'full' }, 4);
    k.d.push('s', { commandId: 'c1', text: 'abc', queuedAt: 2_000_000 });
    k.d.push('s', { commandId: 'c2', text: 'def', queuedAt: 0 });
    expect(k.d.take('s')).toBe('abc');
    expect(k.wire[0]!.data).toEqual({ queued_ms: 0, text: 'abc' });
    expect(k.d.take('s')).toBe('def');
  });

  it('the text follows the ceiling of the audit type: PII redacted at redacted, absent at metadata', () => {
    const red = desk({ ceiling: 'redacted', attention: 'none' });
    red.d.push('s', { commandId: 'c1', text: 'mail bob@example.com', queuedAt: 1_000_000 });
    red.d.take('s');
    expect(red.wire[0]!.data).toEqual({ queued_ms: 0, text: 'mail [REDACTED:pii]' });
    const meta = desk({ ceiling: 'metadata', attention: 'full' });
    meta.d.push('s', { commandId: 'c1', text: 'secret plan', queuedAt: 1_000_000 });
    meta.d.drop('s');
    expect(meta.wire[0]!.data).toEqual({ reason: 'session-ended' });
  });

  it('drop: one dropped audit per queued text, in order, and nothing is left to take', () => {
    const k = desk({ ceiling: 'full', attention: 'full' });
    k.d.push('s', { commandId: 'c1', text: 'one', queuedAt: 0 });
    k.d.push('s', { commandId: 'c2', text: 'two', queuedAt: 0 });
    k.d.push('t', { commandId: 'c3', text: 'other', queuedAt: 0 });
    k.d.drop('s');
    expect(k.wire.map((e) => [e.type, e.cause, e.data])).toEqual([
      ['x.acme.instruction.dropped', 'c1', { reason: 'session-ended', text: 'one' }],
      ['x.acme.instruction.dropped', 'c2', { reason: 'session-ended', text: 'two' }],
    ]);
    expect(k.d.take('s')).toBeNull();
    expect(k.d.take('t')).toBe('other');
  });

  it('push reports a full queue', () => {
    const k = desk({ ceiling: 'full', attention: 'full' });
    for (let i = 0; i < 20; i++) k.d.push('s', { commandId: `c${i}`, text: 'x', queuedAt: 0 });
    expect(k.d.push('s', { commandId: 'c20', text: 'x', queuedAt: 0 })).toMatch(/full/);
  });
});

describe('mapHeld', () => {
  it('passes the outcome through f and keeps the request id', async () => {
    const held: Held = Object.assign(Promise.resolve({ request: { id: 'r1' } as never, settlement: { kind: 'timeout' as const } }), { requestId: 'r1' });
    const mapped = mapHeld(held, (out) => ({ ...out, settlement: { kind: 'dismissed' } }));
    expect(mapped.requestId).toBe('r1');
    expect((await mapped).settlement).toEqual({ kind: 'dismissed' });
  });
});
