/**
 * The one-pass envelope check (`isCleanEnvelope`) must call an Event clean exactly when the
 * reference checks find nothing, and `validateEnvelope` must return the reference's issues, in
 * order, whichever path it takes. The reference path is forced by a null-prototype copy (the one
 * pass takes plain `Object.prototype` objects only; the reference checks read both alike).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCleanEnvelope } from './envelope-pass.js';
import { validateEnvelope, validateEvent } from './envelope.js';

/** The same members in a null-prototype object: `validateEnvelope` then runs the reference checks. */
function referenceCopy(ev: Record<string, unknown>): Record<string, unknown> {
  const copy = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(ev)) Object.defineProperty(copy, key, { value: ev[key], enumerable: true, writable: true, configurable: true });
  return copy;
}

const BASES: readonly Record<string, unknown>[] = [
  { aep: '0.1', id: '01J0000000000000000000000A', type: 'tool.completed', time: '2026-07-03T10:15:04.221Z', source: 'aep://h/agent/a/session/s', agent: 'claude-code', session: 's1', run: 'r1', seq: 4, capture: 'metadata', data: { tool: { call_id: 'c1', name: 'Bash' } } },
  { aep: '0.1', id: 'e2', type: 'agent.started', time: '2026-07-03T10:15:04+02:00', source: 'urn:x', agent: 'codex', severity: 'info', data: {} },
  { aep: '0.1', id: 'e3', type: 'control.cancel', time: '2026-07-03T10:15:04Z', source: 'aep://console', agent: 'console', session: 's1', cause: 'c', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
  { aep: '0.1', id: 'e4', type: 'attention.routed', time: '2026-07-03T10:15:04Z', source: 'aep://r', agent: 'a', session: 's', subject: 'q1' },
  { aep: '0.1', id: 'e5', type: 'x.acme.session.note', time: '2026-07-03T10:15:04Z', source: 'aep://r', agent: 'a', session: 's', seq: 0, epoch: 2, step: 'st', acme: 'v', acmen: 3, acmeb: true },
  { aep: '0.1', id: 'e6', type: 'x.acme.control.poke', time: '2026-07-03T10:15:04Z', source: 'aep://r', agent: 'a', session: 's' },
  { aep: '0.1', id: 'e7', type: 'run.frobbed', time: '2026-07-03T10:15:04Z', source: 'aep://r', agent: 'a', session: 's', seq: 1 },
];

const NAMES = ['aep', 'id', 'type', 'subject', 'time', 'source', 'agent', 'session', 'run', 'step', 'seq', 'epoch', 'cause', 'traceparent', 'severity', 'capture', 'data', 'acme', 'Acme', 'a_b', 'abcdefghijklmnopqrstu', '__proto__', '0'];
let deep: unknown = 1;
for (let i = 0; i < 66; i++) deep = [deep];
const VALUES: readonly unknown[] = [
  '', 'x', '0.1', '0.2', 0.1, 'aep://h/x', 'no scheme', 'a:%zz', 'a:b c', '2026-07-03T10:15:04Z', '2026-02-30T00:00:00Z', '2026-07-03 10:15:04Z',
  '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', '00-00000000000000000000000000000000-b7ad6b7169203331-01',
  'info', 'loud', 'none', 'metadata', 'redacted', 'full', 'FULL', 'session.started', 'agent.ready', 'Tool.Completed', 'x.acme', 'x.acme.run.x', 'nocat.thing', 'tool', 'control.pause', 'attention.routed', 'x.acme.control.go',
  0, 1, -1, 1.5, 2 ** 53, 2 ** 53 - 1, Number.NaN, true, false, null, undefined, {}, [], { a: 1 }, [1], { deep }, deep, { nested: { deeper: [{ x: 1 }] } },
];

const mutation = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), name: fc.constantFrom(...NAMES), value: fc.constant(undefined) }),
  fc.record({ op: fc.constant('set' as const), name: fc.constantFrom(...NAMES), value: fc.constantFrom(...VALUES) }),
);

const event = fc.tuple(fc.constantFrom(...BASES), fc.array(mutation, { maxLength: 3 })).map(([base, ops]) => {
  const ev = JSON.parse(JSON.stringify(base)) as Record<string, unknown>;
  for (const { op, name, value } of ops) {
    if (op === 'delete') delete ev[name];
    else Object.defineProperty(ev, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return ev;
});

describe('isCleanEnvelope', () => {
  it('says clean exactly when the reference checks find nothing, and validateEnvelope reports what they report', () => {
    let clean = 0;
    fc.assert(fc.property(event, (ev) => {
      const reference = validateEnvelope(referenceCopy(ev));
      expect(isCleanEnvelope(ev)).toBe(reference.length === 0);
      expect(validateEnvelope(ev)).toEqual(reference);
      if (reference.length === 0) clean++;
    }), { numRuns: 20000 });
    expect(clean).toBeGreaterThan(1000); // the generator reaches the clean case often
  });

  it('every base Event is clean, with and without the depth verdict given', () => {
    for (const base of BASES) {
      expect(isCleanEnvelope(base)).toBe(true);
      expect(isCleanEnvelope(base, true)).toBe(true);
    }
  });

  it('walks data for depth unless the caller already has the verdict', () => {
    const ev = { ...BASES[0], data: { deep } };
    expect(isCleanEnvelope(ev)).toBe(false);
    expect(validateEnvelope(ev).map((i) => i.rule)).toEqual(['envelope.depth']);
    expect(isCleanEnvelope(ev, true)).toBe(true); // the caller's scanner refused this already
    let within: unknown = 1;
    for (let i = 0; i < 62; i++) within = [within]; // data at level 2 holds 62 more: level 64
    expect(isCleanEnvelope({ ...BASES[0], data: { within } })).toBe(true);
    expect(isCleanEnvelope({ ...BASES[0], data: { within: [within] } })).toBe(false);
  });

  it('leaves to the reference what one pass cannot see: non-plain objects, hidden members, an enumerable Object.prototype', () => {
    expect(isCleanEnvelope(referenceCopy(BASES[0]!))).toBe(false);
    expect(isCleanEnvelope([BASES[0]])).toBe(false);
    expect(isCleanEnvelope(null)).toBe(false);
    const hidden = { ...BASES[0] };
    Object.defineProperty(hidden, 'subject', { value: 5, enumerable: false });
    expect(isCleanEnvelope(hidden)).toBe(false);
    expect(validateEnvelope(hidden).map((i) => i.rule)).toEqual(['envelope.subject.type']);
    const proto = Object.prototype as Record<string, unknown>;
    proto.polluted = 1;
    try {
      expect(isCleanEnvelope(BASES[0])).toBe(false);
    } finally {
      delete proto.polluted;
    }
    expect(isCleanEnvelope(BASES[0])).toBe(true);
  });

  it('remembers only sources found absolute, and a bounded number of them', () => {
    expect(isCleanEnvelope({ ...BASES[0], source: 'aep://h/a' })).toBe(true);
    expect(isCleanEnvelope({ ...BASES[0], source: 'not a uri' })).toBe(false);
    expect(isCleanEnvelope({ ...BASES[0], source: 'not a uri' })).toBe(false);
    expect(isCleanEnvelope({ ...BASES[0], source: 'aep://h/a' })).toBe(true);
    for (let i = 0; i < 600; i++) expect(isCleanEnvelope({ ...BASES[0], source: `aep://h/${i}` })).toBe(true);
    expect(isCleanEnvelope({ ...BASES[0], source: 'aep://h/a b' })).toBe(false);
    expect(isCleanEnvelope({ ...BASES[0], source: 'aep://h/7' })).toBe(true);
  });

  it('validateEvent is unchanged on top of it: registry and payload findings still come after a clean envelope', () => {
    expect(validateEvent(BASES[6]).map((i) => i.rule)).toEqual(['registry.type.unregistered']);
  });
});
