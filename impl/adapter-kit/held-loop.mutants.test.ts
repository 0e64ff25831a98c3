/**
 * The held loop's answer rules as an operator meets them (AEP-0002 §5.3, AEP-0006, AEP-0008):
 * which answers parse, the exact nack detail for each refusal (it is what `aep respond` prints),
 * and what a permission or form request settles to.
 */
import { describe, expect, it } from 'vitest';
import { HeldLoop, parseAnswer, type PendingRequest } from './held-loop.js';

const OPTIONS = [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }];
const permission = (id: string, extra: Partial<PendingRequest> = {}): PendingRequest => ({ id, session: 's1', options: OPTIONS, refusing: 'deny', openedAt: 0, ...extra });
const loopWith = (...requests: PendingRequest[]) => {
  const loop = new HeldLoop();
  for (const r of requests) loop.open(r);
  return loop;
};

describe('parseAnswer', () => {
  it('copies option, text and values, and nothing else', () => {
    expect(parseAnswer({ answer: { option: 'a', text: 't', values: { x: 1 }, other: true } })).toEqual({ option: 'a', text: 't', values: { x: 1 } });
    expect(parseAnswer({ answer: { text: 'just text' } })).toEqual({ text: 'just text' });
    expect(parseAnswer({ answer: {} })).toEqual({});
  });

  it('refuses a member of the wrong type, and data or answer that are not objects', () => {
    for (const data of [{ answer: { text: 5 } }, { answer: { values: 'x' } }, { answer: { values: [1] } }, { answer: { option: null } }, { answer: null }, { answer: [] }, {}, 'answer', [{ answer: {} }]]) {
      expect(parseAnswer(data), JSON.stringify(data)).toBeNull();
    }
  });
});

describe('respond: refusals and their details', () => {
  it('an unknown or missing id names what to set', () => {
    const loop = loopWith(permission('r1'));
    expect(loop.respond('zz', { option: 'allow' })).toEqual({
      ok: false,
      reason: 'invalid',
      detail: "no pending attention request 'zz' (unknown, or already settled): set subject to a pending attention.requested id",
    });
    expect(loop.respond(undefined, { option: 'allow' })).toMatchObject({ detail: expect.stringMatching(/^no pending attention request '' \(unknown/) });
  });

  it('an out-of-band request names its id and where it is answered', () => {
    const loop = loopWith(permission('r9', { oob: true }));
    expect(loop.respond('r9', { option: 'allow' })).toEqual({
      ok: false,
      reason: 'invalid',
      detail: `attention request 'r9' is answered out of band (respond_via: ["oob"]), in the agent's own UI; it takes no control answer`,
    });
  });

  it('an option not offered lists the offered ones; values on a permission say what to send', () => {
    const loop = loopWith(permission('r1'));
    expect(loop.respond('r1', { option: 'maybe' })).toEqual({ ok: false, reason: 'invalid', detail: 'answer.option must be one of allow, deny' });
    expect(loop.respond('r1', { values: { a: 1 }, option: 'allow' })).toEqual({
      ok: false,
      reason: 'invalid',
      detail: 'answer.values answers a kind:"form" request; this request takes answer.option or answer.text',
    });
    expect(loop.get('r1')).toBeDefined();
  });

  it('a request without options refuses every option, and text applies its refusing option', () => {
    const loop = loopWith({ id: 'r1', session: 's1', refusing: 'no', openedAt: 0 });
    expect(loop.respond('r1', { option: 'no' })).toEqual({ ok: false, reason: 'invalid', detail: 'answer.option must be one of ' });
    expect(loop.respond('r1', { text: 'why not' })).toEqual({ ok: true, request: expect.objectContaining({ id: 'r1' }), settlement: { kind: 'option', option: 'no', text: 'why not', via: 'control' } });
  });

  it('a form without values (and no legacy conversion, or one that declines) says what it takes', () => {
    const fields = [{ id: 'q', type: 'string' as const, label: 'q', required: true }];
    const detail = 'this kind:"form" request takes answer.values (a map of field id to value)';
    expect(loopWith(permission('f1', { fields })).respond('f1', { text: 'x' })).toEqual({ ok: false, reason: 'invalid', detail });
    expect(loopWith(permission('f2', { fields, legacyAnswer: () => null })).respond('f2', { text: 'x' })).toEqual({ ok: false, reason: 'invalid', detail });
  });

  it('invalid form values: every problem, each with its path, joined by "; "', () => {
    const loop = loopWith(permission('f1', {
      fields: [{ id: 'env', type: 'select', label: 'env', required: true, choices: [{ id: 'a', label: 'a' }] }, { id: 'n', type: 'number', label: 'n' }],
    }));
    const outcome = loop.respond('f1', { values: { n: 'x' } });
    expect(outcome).toMatchObject({ ok: false, reason: 'invalid' });
    expect((outcome as { detail: string }).detail).toMatch(/^\$\.data\.answer\.values\.n: field "n" is type number[^$]*; \$\.data\.answer\.values\.env: required field "env" has no answer/);
    expect(loop.get('f1')).toBeDefined();
  });
});

describe('respond: settlements', () => {
  it('guidance text rides only on the refusing option, kept as sent; blank guidance is dropped', () => {
    const loop = loopWith(permission('a'), permission('b'), permission('c'));
    expect(loop.respond('a', { option: 'deny', text: '  use staging ' })).toMatchObject({ settlement: { kind: 'option', option: 'deny', text: '  use staging ', via: 'control' } });
    const blank = loop.respond('b', { option: 'deny', text: '   ' });
    expect(blank.ok && blank.settlement).toEqual({ kind: 'option', option: 'deny', via: 'control' });
    const allowed = loop.respond('c', { option: 'allow', text: 'sure' });
    expect(allowed.ok && allowed.settlement).toEqual({ kind: 'option', option: 'allow', via: 'control' });
  });

  it('a text that names an option picks it; a success closes the request and returns it', () => {
    const loop = loopWith(permission('a', { run: 'r', key: 'k' }));
    const outcome = loop.respond('a', { text: 'Allow' });
    expect(outcome).toEqual({ ok: true, request: permission('a', { run: 'r', key: 'k' }), settlement: { kind: 'option', option: 'allow', via: 'control' } });
    expect(loop.get('a')).toBeUndefined();
    expect(loop.list('s1')).toEqual([]);
  });

  it('an empty answer applies the refusing option with no text', () => {
    const outcome = loopWith(permission('a')).respond('a', {});
    expect(outcome.ok && outcome.settlement).toEqual({ kind: 'option', option: 'deny', via: 'control' });
  });

  it('valid form values settle as values', () => {
    const loop = loopWith(permission('f', { fields: [{ id: 'q', type: 'string', label: 'q' }] }));
    const outcome = loop.respond('f', { values: { q: 'blue' } });
    expect(outcome.ok && outcome.settlement).toEqual({ kind: 'values', values: { q: 'blue' }, via: 'control' });
    expect(loop.get('f')).toBeUndefined();
  });
});

describe('list', () => {
  it('filters by session and, when given, by key; a request without a key never matches a key', () => {
    const loop = loopWith(permission('a', { key: 'k' }), permission('b'), permission('c', { session: 's2', key: 'k' }));
    expect(loop.list('s1').map((r) => r.id)).toEqual(['a', 'b']);
    expect(loop.list('s1', 'k').map((r) => r.id)).toEqual(['a']);
    expect(loop.list('s2', 'zz')).toEqual([]);
  });
});
