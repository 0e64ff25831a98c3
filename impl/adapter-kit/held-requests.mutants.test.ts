/**
 * Held requests as an adapter and an operator see them: the events each path emits (their data,
 * subject, cause and run), the window a hook is held for, and what the waiting hook gets back.
 * Every path ends a request exactly once (AEP-0002 §5.3).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_POSTURE } from './capture.js';
import { createEmitter } from './emission.js';
import { HeldRequests, REAL_TIMERS, type Audience, type EngineTimers } from './held-requests.js';
import type { FieldSpec, HoldSpec, Posture, Settlement } from './types.js';

const S = 'held-s1';
const OPTIONS = [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }];
const FULL: Posture = { ceiling: 'none', attention: 'full' };

/** Timers the test fires by hand; each armed timer remembers its window. */
function manualTimers() {
  const armed: { fn: () => void; ms: number; cleared: boolean }[] = [];
  const timers: EngineTimers = {
    set: (fn, ms) => {
      const t = { fn, ms, cleared: false };
      armed.push(t);
      return t;
    },
    clear: (handle) => {
      (handle as { cleared: boolean }).cleared = true;
    },
  };
  return { armed, timers };
}

function setup(opts: { posture?: Posture; timeoutMs?: number; audience?: Audience; start?: number } = {}) {
  const wire: Record<string, any>[] = [];
  let now = opts.start ?? Date.UTC(2026, 0, 1);
  const clock = () => now;
  const posture = opts.posture ?? DEFAULT_POSTURE;
  const emitter = createEmitter({ agent: 'kit', host: 'h', epoch: 0, posture, clock, send: (l) => wire.push(JSON.parse(l)), log: () => {} });
  const { armed, timers } = manualTimers();
  const held = new HeldRequests(emitter, posture, opts.timeoutMs ?? 30_000, clock, timers, opts.audience);
  return { wire, held, armed, advance: (ms: number) => (now += ms), setNow: (t: number) => (now = t), of: (type: string) => wire.filter((e) => e.type === type) };
}

const permission = (extra: Partial<HoldSpec> = {}): HoldSpec => ({
  session: S,
  mapped: { type: 'attention.requested', data: { kind: 'permission', prompt: 'Run ls?', options: OPTIONS, respond_via: ['control'] } },
  options: OPTIONS,
  ...extra,
});

const FORM_FIELDS: FieldSpec[] = [{ id: 'note', type: 'string', label: 'Note', required: true }];
const form = (extra: Partial<HoldSpec> = {}): HoldSpec => ({
  session: S,
  mapped: { type: 'attention.requested', data: { kind: 'form', prompt: 'Why?', fields: FORM_FIELDS, respond_via: ['control'] } },
  fields: FORM_FIELDS,
  ...extra,
});

describe('REAL_TIMERS', () => {
  it('runs the callback after the window, and a cleared timer never runs', async () => {
    const fired: string[] = [];
    REAL_TIMERS.set(() => fired.push('kept'), 5);
    REAL_TIMERS.clear(REAL_TIMERS.set(() => fired.push('cleared'), 5));
    await new Promise((r) => setTimeout(r, 30));
    expect(fired).toEqual(['kept']);
  });
});

describe('hold: the attention.requested event and the pending request', () => {
  it('carries the run and the cause; the held promise names the request id', () => {
    const k = setup();
    const held = k.held.hold(permission({ cause: 'T1', key: 'k1' }), 'r1');
    const [req] = k.of('attention.requested');
    expect(req).toMatchObject({ session: S, run: 'r1', cause: 'T1' });
    expect(held.requestId).toBe(req!.id);
    expect(k.held.get(req!.id)).toMatchObject({ id: req!.id, session: S, run: 'r1', key: 'k1', refusing: 'deny' });
  });

  it('without a run or a cause the event carries neither', () => {
    const k = setup();
    k.held.hold(permission(), undefined);
    const [req] = k.of('attention.requested');
    expect('run' in req! || 'cause' in req!).toBe(false);
  });

  it('unmatched text applies the default refusing option, deny, keeping the text as the reason', async () => {
    const k = setup();
    const held = k.held.hold(permission(), undefined);
    const outcome = k.held.respond(held.requestId, { text: 'not on prod' });
    expect(outcome).toMatchObject({ ok: true, settlement: { kind: 'option', option: 'deny', text: 'not on prod' } });
  });

  it('a form request is listed as a form and its answer is validated against its fields', () => {
    const k = setup();
    const held = k.held.hold(form({ key: 'f' }), undefined);
    expect(k.held.list(S)).toEqual([{ id: held.requestId, session: S, key: 'f', form: true }]);
    expect(k.held.respond(held.requestId, { values: {} })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(k.held.respond(held.requestId, { values: { note: 'fine' } })).toMatchObject({ ok: true, settlement: { kind: 'values', values: { note: 'fine' } } });
  });

  it('a permission request is listed without form or key members', () => {
    const k = setup();
    const held = k.held.hold(permission(), undefined);
    expect(k.held.list(S)).toEqual([{ id: held.requestId, session: S }]);
  });

  it("a form's legacy conversion is used for a plain text answer", () => {
    const k = setup();
    const held = k.held.hold(form({ legacyAnswer: (a) => (a.text ? { note: a.text } : null) }), undefined);
    expect(k.held.respond(held.requestId, { text: 'because' })).toMatchObject({ ok: true, settlement: { kind: 'values', values: { note: 'because' } } });
  });
});

describe('open: an out-of-band request', () => {
  it('takes no control answer and arms no timer; it is still listed and redelivered', () => {
    const k = setup();
    const req = k.held.open(permission(), 'r1');
    expect(k.held.respond(req.id, { option: 'allow' })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(k.armed).toEqual([]);
    expect(k.held.pendingLines()).toHaveLength(1);
    expect(JSON.parse(k.held.pendingLines()[0]!).id).toBe(req.id);
  });
});

describe('the hold window', () => {
  it('is the configured timeout when somebody can see the request, and the timeout reports it', async () => {
    const unseen: number[] = [];
    const k = setup({ timeoutMs: 12_345, audience: { visible: () => true, graceMs: 10_000, unseen: (ms) => unseen.push(ms) } });
    const held = k.held.hold(permission(), 'r1');
    expect(k.armed.map((t) => t.ms)).toEqual([12_345]);
    expect(unseen).toEqual([]);
    k.armed[0]!.fn();
    expect(await held).toMatchObject({ settlement: { kind: 'timeout' } });
    const [timeout] = k.of('attention.timeout');
    expect(timeout).toMatchObject({ data: { after_ms: 12_345 }, subject: held.requestId, cause: held.requestId, run: 'r1' });
    expect(k.held.get(held.requestId)).toBeUndefined();
    expect(k.held.pendingLines()).toEqual([]);
  });

  it('is the configured timeout without an audience check', () => {
    const k = setup({ timeoutMs: 777 });
    k.held.hold(permission(), undefined);
    expect(k.armed.map((t) => t.ms)).toEqual([777]);
  });

  it('raised unseen: held for the grace; still unseen when it ends, it times out reporting the grace', async () => {
    const unseen: number[] = [];
    const k = setup({ timeoutMs: 30_000, audience: { visible: () => false, graceMs: 10_000, unseen: (ms) => unseen.push(ms) } });
    const held = k.held.hold(permission(), undefined);
    expect(k.armed.map((t) => t.ms)).toEqual([10_000]);
    expect(unseen).toEqual([10_000]);
    expect(k.of('attention.requested')).toHaveLength(1);
    expect(k.of('attention.timeout')).toEqual([]);
    k.armed[0]!.fn();
    expect((await held).settlement).toEqual({ kind: 'timeout' });
    expect(k.of('attention.timeout').map((e) => e.data)).toEqual([{ after_ms: 10_000 }]);
    expect('run' in k.of('attention.timeout')[0]!).toBe(false);
    expect(k.armed).toHaveLength(1);
  });

  it('raised unseen, seen again before the grace ends: held for the rest of the window and answerable', async () => {
    let visible = false;
    const k = setup({ timeoutMs: 30_000, audience: { visible: () => visible, graceMs: 10_000 } });
    const held = k.held.hold(permission(), 'r1');
    visible = true;
    k.armed[0]!.fn();
    expect(k.armed.map((t) => t.ms)).toEqual([10_000, 20_000]);
    expect(k.of('attention.timeout')).toEqual([]);
    const outcome = k.held.respond(held.requestId, { option: 'allow' });
    expect(outcome).toMatchObject({ ok: true });
    if (!outcome.ok) throw new Error('refused');
    k.held.applyAnswer(outcome, 'cmd-1');
    expect((await held).settlement).toMatchObject({ kind: 'option', option: 'allow' });
    expect(k.armed[1]!.cleared).toBe(true);
    k.armed[1]!.fn();
    expect(k.of('attention.timeout')).toEqual([]);
  });

  it('raised unseen, seen again but never answered: it times out at the end of the whole window', async () => {
    let visible = false;
    const k = setup({ timeoutMs: 30_000, audience: { visible: () => visible, graceMs: 10_000 } });
    const held = k.held.hold(permission(), undefined);
    visible = true;
    k.armed[0]!.fn();
    k.armed[1]!.fn();
    expect((await held).settlement).toEqual({ kind: 'timeout' });
    expect(k.of('attention.timeout').map((e) => e.data)).toEqual([{ after_ms: 30_000 }]);
  });

  it('an answer during the grace settles the request and clears the grace timer', async () => {
    const k = setup({ timeoutMs: 30_000, audience: { visible: () => false, graceMs: 10_000 } });
    const held = k.held.hold(permission(), undefined);
    const outcome = k.held.respond(held.requestId, { option: 'deny' });
    if (!outcome.ok) throw new Error('refused');
    k.held.applyAnswer(outcome, 'cmd-2');
    expect((await held).settlement).toMatchObject({ kind: 'option', option: 'deny' });
    expect(k.armed[0]!.cleared).toBe(true);
    k.armed[0]!.fn();
    expect(k.of('attention.timeout')).toEqual([]);
    expect(k.armed).toHaveLength(1);
  });

  it('a grace of 0 answers at once (after_ms 0); a grace longer than the window is cut to it, never extended', async () => {
    const none = setup({ timeoutMs: 30_000, audience: { visible: () => false, graceMs: 0 } });
    const first = none.held.hold(permission(), undefined);
    expect(none.armed.map((t) => t.ms)).toEqual([0]);
    none.armed[0]!.fn();
    await first;
    expect(none.of('attention.timeout').map((e) => e.data)).toEqual([{ after_ms: 0 }]);

    let visible = false;
    const long = setup({ timeoutMs: 900, audience: { visible: () => visible, graceMs: 10_000 } });
    const second = long.held.hold(permission(), undefined);
    expect(long.armed.map((t) => t.ms)).toEqual([900]);
    visible = true;
    long.armed[0]!.fn();
    expect((await second).settlement).toEqual({ kind: 'timeout' });
    expect(long.armed).toHaveLength(1);
    expect(long.of('attention.timeout').map((e) => e.data)).toEqual([{ after_ms: 900 }]);
  });

  it('a later request raised while somebody sees it again gets the full window', () => {
    let visible = false;
    const k = setup({ timeoutMs: 900, audience: { visible: () => visible, graceMs: 300 } });
    k.held.hold(permission(), undefined);
    visible = true;
    k.held.hold(permission(), undefined);
    expect(k.armed.map((t) => t.ms)).toEqual([300, 900]);
  });

  it('a timer firing after the request settled does nothing', async () => {
    const k = setup();
    const held = k.held.hold(permission(), undefined);
    expect(k.held.settle(held.requestId, { kind: 'dismissed' })).toBe(true);
    expect(k.armed[0]!.cleared).toBe(true);
    k.armed[0]!.fn();
    expect(k.of('attention.timeout')).toEqual([]);
    expect((await held).settlement).toEqual({ kind: 'dismissed' });
  });
});

describe('answered over control', () => {
  it('records attention.answered (cause: the command) then attention.resolved (cause: the answer) with the latency', async () => {
    const k = setup({ posture: FULL });
    const held = k.held.hold(permission(), 'r1');
    k.advance(1_500);
    const outcome = k.held.respond(held.requestId, { option: 'deny', text: 'use staging' });
    if (!outcome.ok) throw new Error(outcome.detail);
    k.held.applyAnswer(outcome, 'cmd-1');
    const [answered] = k.of('attention.answered');
    const [resolved] = k.of('attention.resolved');
    expect(answered).toMatchObject({ subject: held.requestId, cause: 'cmd-1', run: 'r1' });
    expect(answered!.data).toEqual({ answer: { option: 'deny', text: 'use staging' }, via: 'control' });
    expect(resolved).toMatchObject({ subject: held.requestId, cause: answered!.id, run: 'r1' });
    expect(resolved!.data).toEqual({ resolution: 'answered', latency_ms: 1_500 });
    const settlement: Settlement = (await held).settlement;
    expect(settlement).toEqual({ kind: 'option', option: 'deny', text: 'use staging', via: 'control', answered: answered!.id });
    expect(k.held.pendingLines()).toEqual([]);
    expect(k.armed[0]!.cleared).toBe(true);
  });

  it('guidance text follows the attention capture level: dropped at metadata, kept verbatim at full', () => {
    for (const [posture, expected] of [
      [{ ceiling: 'full', attention: 'metadata' }, { option: 'deny' }],
      [{ ceiling: 'none', attention: 'full' }, { option: 'deny', text: 'mail bob@example.com' }],
    ] as const) {
      const k = setup({ posture });
      const held = k.held.hold(permission(), undefined);
      const outcome = k.held.respond(held.requestId, { option: 'deny', text: 'mail bob@example.com' });
      if (!outcome.ok) throw new Error(outcome.detail);
      k.held.applyAnswer(outcome, 'cmd');
      expect(k.of('attention.answered')[0]!.data.answer).toEqual(expected);
      expect('run' in k.of('attention.answered')[0]!).toBe(false);
    }
  });

  it('a latency is never negative, even when the clock steps back', () => {
    const k = setup({ start: 10_000_000 });
    const held = k.held.hold(permission(), undefined);
    k.setNow(9_000_000);
    const outcome = k.held.respond(held.requestId, { option: 'allow' });
    if (!outcome.ok) throw new Error(outcome.detail);
    k.held.applyAnswer(outcome, 'cmd');
    expect(k.of('attention.resolved')[0]!.data).toEqual({ resolution: 'answered', latency_ms: 0 });
  });
});

describe('settled from the vendor side', () => {
  it('dismissed: attention.resolved{dismissed} with the latency, cause-linked and in the run; the hook is freed', async () => {
    const k = setup();
    const held = k.held.hold(permission(), 'r1');
    k.advance(250);
    expect(k.held.settle(held.requestId, { kind: 'dismissed' })).toBe(true);
    const [resolved] = k.of('attention.resolved');
    expect(resolved).toMatchObject({ subject: held.requestId, cause: held.requestId, run: 'r1' });
    expect(resolved!.data).toEqual({ resolution: 'dismissed', latency_ms: 250 });
    expect((await held).settlement).toEqual({ kind: 'dismissed' });
    expect(k.held.settle(held.requestId, { kind: 'dismissed' })).toBe(false);
    expect(k.of('attention.resolved')).toHaveLength(1);
  });

  it('answered out of band with an option and text: via oob, cause the request', async () => {
    const k = setup({ posture: FULL });
    const held = k.held.hold(permission(), 'r1');
    expect(k.held.settle(held.requestId, { kind: 'oob', answer: { option: 'allow', text: 'ok then' } })).toBe(true);
    const [answered] = k.of('attention.answered');
    expect(answered).toMatchObject({ cause: held.requestId, subject: held.requestId, run: 'r1' });
    expect(answered!.data).toEqual({ answer: { option: 'allow', text: 'ok then' }, via: 'oob' });
    expect((await held).settlement).toEqual({ kind: 'option', option: 'allow', text: 'ok then', via: 'oob', answered: answered!.id });
  });

  it('answered out of band with no option applies the refusing option', async () => {
    const k = setup();
    const held = k.held.hold(permission({ refusing: 'deny' }), undefined);
    k.held.settle(held.requestId, { kind: 'oob', answer: {} });
    expect((await held).settlement).toMatchObject({ kind: 'option', option: 'deny', via: 'oob' });
    expect((await held).settlement).not.toHaveProperty('text');
  });

  it('answered out of band with form values: the values are gated to the fields, free text redacted', async () => {
    const k = setup({ posture: DEFAULT_POSTURE });
    const held = k.held.hold(form(), undefined);
    k.held.settle(held.requestId, { kind: 'oob', answer: { values: { note: 'mail bob@example.com', stray: 1 } } });
    const [answered] = k.of('attention.answered');
    expect(answered!.data).toEqual({ answer: { values: { note: 'mail [REDACTED:pii]' } }, via: 'oob' });
    expect((await held).settlement).toEqual({ kind: 'values', values: { note: 'mail bob@example.com', stray: 1 }, via: 'oob', answered: answered!.id });
  });

  it('an out-of-band request (no hook waiting) is settled and closed', () => {
    const k = setup();
    const req = k.held.open(permission(), undefined);
    expect(k.held.settle(req.id, { kind: 'oob', answer: { option: 'allow' } })).toBe(true);
    expect(k.held.get(req.id)).toBeUndefined();
    expect(k.of('attention.resolved').map((e) => e.data.resolution)).toEqual(['answered']);
  });

  it('a session end dismisses only that session, in the order raised; shutdown dismisses the rest', () => {
    const k = setup();
    const a = k.held.hold(permission(), undefined);
    const other = k.held.hold({ ...permission(), session: 'other' }, undefined);
    const b = k.held.hold(permission(), undefined);
    k.held.closeSession(S);
    expect(k.of('attention.resolved').map((e) => e.subject)).toEqual([a.requestId, b.requestId]);
    k.held.dismissAll();
    expect(k.of('attention.resolved').map((e) => e.subject)).toEqual([a.requestId, b.requestId, other.requestId]);
  });
});
