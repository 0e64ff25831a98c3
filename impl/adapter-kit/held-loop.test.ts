import { describe, expect, it } from 'vitest';
import { HeldLoop, parseAnswer, type PendingRequest } from './held-loop.js';
import { applyTextRule } from './text-rule.js';
import { CommandLedger } from './ledger.js';
import { SteeringQueue, joinInstructions } from './steering.js';

const OPTIONS = [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }];

describe('applyTextRule (AEP-0008)', () => {
  it('an option id or a unique label, trimmed and case-insensitive, is that option', () => {
    expect(applyTextRule(OPTIONS, ' allow ', 'deny')).toEqual({ option: 'allow' });
    expect(applyTextRule(OPTIONS, 'DENY', 'deny')).toEqual({ option: 'deny' });
    expect(applyTextRule([{ id: 'a', label: 'Ship it' }, { id: 'b', label: 'Hold' }], 'ship it', 'b')).toEqual({ option: 'a' });
  });
  it('an ambiguous label is not a match; other text refuses with the text as reason', () => {
    expect(applyTextRule([{ id: 'a', label: 'Go' }, { id: 'b', label: 'go' }], 'go', 'b')).toEqual({ option: 'b', text: 'go' });
    expect(applyTextRule(OPTIONS, 'yes please', 'deny')).toEqual({ option: 'deny', text: 'yes please' });
    expect(applyTextRule(OPTIONS, 'allow it', 'deny')).toEqual({ option: 'deny', text: 'allow it' });
  });
  it('empty text is a plain refusal', () => {
    expect(applyTextRule(OPTIONS, '   ', 'deny')).toEqual({ option: 'deny' });
  });
});

describe('parseAnswer', () => {
  it('accepts option/text/values and refuses malformed answers', () => {
    expect(parseAnswer({ answer: { option: 'allow', extra: 1 } })).toEqual({ option: 'allow' });
    expect(parseAnswer({ answer: { values: { a: 1 } } })).toEqual({ values: { a: 1 } });
    expect(parseAnswer({ answer: { option: 3 } })).toBeNull();
    expect(parseAnswer({ answer: 'allow' })).toBeNull();
    expect(parseAnswer(null)).toBeNull();
  });
});

const permission = (id: string, session = 's1'): PendingRequest => ({ id, session, options: OPTIONS, refusing: 'deny', openedAt: 0 });

describe('HeldLoop', () => {
  it('an out-of-band request takes no control answer, and stays pending', () => {
    const loop = new HeldLoop();
    loop.open({ ...permission('r9'), oob: true });
    const outcome = loop.respond('r9', { option: 'allow' });
    expect(outcome).toMatchObject({ ok: false, reason: 'invalid' });
    expect(!outcome.ok && outcome.detail).toMatch(/answered out of band \(respond_via: \["oob"\]\)/);
    expect(loop.get('r9')).toBeDefined();
  });
  it('settles a permission request once; an unknown id is invalid', () => {
    const loop = new HeldLoop();
    loop.open(permission('r1'));
    const first = loop.respond('r1', { option: 'allow' });
    expect(first).toMatchObject({ ok: true, settlement: { kind: 'option', option: 'allow', via: 'control' } });
    expect(loop.respond('r1', { option: 'allow' })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(loop.respond(undefined, { option: 'allow' })).toMatchObject({ ok: false, reason: 'invalid' });
  });
  it('an option that was not offered, or values on a permission, is invalid and stays pending', () => {
    const loop = new HeldLoop();
    loop.open(permission('r1'));
    expect(loop.respond('r1', { option: 'maybe' })).toMatchObject({ ok: false });
    expect(loop.respond('r1', { values: { a: 1 } })).toMatchObject({ ok: false });
    expect(loop.get('r1')).toBeDefined();
  });
  it('deny keeps guidance text; allow drops it', () => {
    const loop = new HeldLoop();
    loop.open(permission('r1'));
    loop.open(permission('r2'));
    expect(loop.respond('r1', { option: 'deny', text: 'use staging' })).toMatchObject({ ok: true, settlement: { option: 'deny', text: 'use staging' } });
    const allowed = loop.respond('r2', { option: 'allow', text: 'ok' });
    expect(allowed.ok && allowed.settlement).toEqual({ kind: 'option', option: 'allow', via: 'control' });
  });
  it('a form rejects invalid values and stays pending, then accepts valid ones', () => {
    const loop = new HeldLoop();
    loop.open({ id: 'f1', session: 's1', refusing: 'deny', openedAt: 0, fields: [{ id: 'env', type: 'select', label: 'env', required: true, choices: [{ id: 'a', label: 'a' }] }] });
    expect(loop.respond('f1', { values: {} })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(loop.respond('f1', { values: { env: 'zzz' } })).toMatchObject({ ok: false });
    expect(loop.respond('f1', { text: 'a' })).toMatchObject({ ok: false });
    expect(loop.respond('f1', { values: { env: 'a' } })).toMatchObject({ ok: true, settlement: { kind: 'values', values: { env: 'a' } } });
  });
  it('a form takes a legacy answer only through its conversion', () => {
    const loop = new HeldLoop();
    loop.open({ id: 'f1', session: 's1', refusing: 'deny', openedAt: 0, legacyAnswer: (a) => (a.text ? { q: a.text } : null), fields: [{ id: 'q', type: 'string', label: 'q', required: true }] });
    expect(loop.respond('f1', { text: 'blue' })).toMatchObject({ ok: true, settlement: { values: { q: 'blue' } } });
  });
  it('lists by session and key, and closes', () => {
    const loop = new HeldLoop();
    loop.open({ ...permission('a'), key: 'k1' });
    loop.open({ ...permission('b'), key: 'k2' });
    loop.open(permission('c', 's2'));
    expect(loop.list('s1').map((r) => r.id)).toEqual(['a', 'b']);
    expect(loop.list('s1', 'k2').map((r) => r.id)).toEqual(['b']);
    expect(loop.close('a')?.id).toBe('a');
    expect(loop.close('a')).toBeUndefined();
  });
});

describe('CommandLedger', () => {
  it('keeps the first ack per (source, id) and evicts the oldest past capacity', () => {
    const ledger = new CommandLedger(2);
    ledger.record('s', '1', 'ack-1');
    ledger.record('s', '1', 'other');
    expect(ledger.recorded('s', '1')).toBe('ack-1');
    expect(ledger.recorded('t', '1')).toBeUndefined();
    ledger.record('s', '2', 'ack-2');
    ledger.record('s', '3', 'ack-3');
    expect(ledger.recorded('s', '1')).toBeUndefined();
    expect(ledger.recorded('s', '3')).toBe('ack-3');
  });
});

describe('SteeringQueue', () => {
  it('is FIFO per session, capped, and takes up to the character cap', () => {
    const q = new SteeringQueue(2);
    expect(q.push('s', { commandId: 'a', text: 'one', queuedAt: 0 })).toBeNull();
    expect(q.push('s', { commandId: 'b', text: 'two', queuedAt: 0 })).toBeNull();
    expect(q.push('s', { commandId: 'c', text: 'three', queuedAt: 0 })).toMatch(/full/);
    const first = q.take('s', 4);
    expect(first.map((i) => i.commandId)).toEqual(['a']);
    expect(joinInstructions(q.take('s'))).toBe('two');
    expect(q.take('s')).toEqual([]);
  });
  it('joins in arrival order and drops everything at session end', () => {
    const q = new SteeringQueue();
    q.push('s', { commandId: 'a', text: 'one', queuedAt: 0 });
    q.push('s', { commandId: 'b', text: 'two', queuedAt: 0 });
    expect(joinInstructions(q.take('s', 100))).toBe('one\n\ntwo');
    q.push('s', { commandId: 'c', text: 'x', queuedAt: 0 });
    expect(q.drop('s').map((i) => i.commandId)).toEqual(['c']);
    expect(q.size('s')).toBe(0);
  });
});
