/**
 * The command target as an operator meets it (AEP-0004 §7): which frames it answers at all, the
 * exact ack or nack (reason and detail) for each decision, what is cause-linked to the command,
 * and how an adapter-actuated command is acked. The dedupe rule itself is in commands.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createCommandTarget } from './commands.js';
import { createEmitter } from './emission.js';
import { HeldRequests, type EngineTimers } from './held-requests.js';
import { SteeringDesk } from './steering-desk.js';
import type { CommandOutcome, Posture } from './types.js';

const S = 'cmd-s1';
const OP = 'aep://ops/agent/operator';
const INSTRUCT = 'x.kit.control.instruct';
const FULL: Posture = { ceiling: 'full', attention: 'full' };
const NO_TIMERS: EngineTimers = { set: () => undefined, clear: () => {} };

function setup(opts: { posture?: Posture; accepts?: string[]; steeringCap?: number; actuate?: (cmd: Record<string, unknown>) => Promise<CommandOutcome> | undefined } = {}) {
  const wire: Record<string, any>[] = [];
  const resent: string[] = [];
  const logged: string[] = [];
  let t = Date.UTC(2026, 0, 1);
  const clock = () => t++;
  const posture = opts.posture ?? FULL;
  const emitter = createEmitter({ agent: 'kit', host: 'h', epoch: 0, posture, clock, send: (l) => wire.push(JSON.parse(l)), log: () => {} });
  const held = new HeldRequests(emitter, posture, 60_000, clock, NO_TIMERS);
  const steering = new SteeringDesk('kit', emitter, posture, clock);
  const target = createCommandTarget({
    accepts: opts.accepts ?? ['control.attention.respond', INSTRUCT, 'control.cancel'],
    instructType: INSTRUCT,
    ...(opts.steeringCap !== undefined ? { steeringCap: opts.steeringCap } : {}),
    posture, clock, emitter, held, steering,
    send: (l) => resent.push(l),
    log: (l) => logged.push(l),
    ...(opts.actuate ? { actuate: opts.actuate } : {}),
  });
  const deliver = (cmd: Record<string, unknown>) => target(JSON.stringify(cmd), cmd);
  const acks = () => wire.filter((e) => e.type === 'control.accepted' || e.type === 'control.rejected');
  const ask = (session = S) => {
    const h = held.hold({ session, mapped: { type: 'attention.requested', data: { kind: 'permission', prompt: 'ok?', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] } }, options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] }, undefined);
    return h;
  };
  return { wire, resent, logged, held, steering, deliver, acks, ask };
}

let n = 0;
const cmd = (type: string, data: unknown, extra: Record<string, unknown> = {}) => ({ aep: '0.1', id: `c${++n}`, type, source: OP, agent: 'operator', session: S, data, ...extra });
const nack = (e: Record<string, any> | undefined) => [e?.type, e?.data];

describe('which frames are commands', () => {
  it('events that are not commands, and frames without an id, source or type, get no answer at all', () => {
    const k = setup();
    for (const frame of [
      cmd('session.started', {}),
      cmd('controlx.cancel', {}),
      cmd('x.Kit.control.cancel', {}),
      cmd('xx.kit.control.cancel', {}),
      cmd('x.kit.notcontrol.cancel', {}),
      { ...cmd('control.cancel', {}), id: 7 },
      { ...cmd('control.cancel', {}), source: undefined },
      { ...cmd('control.cancel', {}), type: ['control.cancel'] },
    ]) k.deliver(frame);
    expect(k.wire).toEqual([]);
    expect(k.logged).toEqual([]);
  });

  it('a command without a session is logged and not acked', () => {
    const k = setup();
    const c = { ...cmd('control.cancel', {}), session: undefined };
    k.deliver(c);
    expect(k.wire).toEqual([]);
    expect(k.logged).toEqual([`ignored command ${c.id}: no target session`]);
  });

  it('a vendor command type with digits and dashes is a command', () => {
    const k = setup({ accepts: [] });
    k.deliver(cmd('x.k-2.control.poke', {}));
    expect(k.acks().map((e) => e.data.reason)).toEqual(['unsupported']);
  });
});

describe('acks', () => {
  it('an undeclared type is unsupported, listing what the adapter accepts (or none)', () => {
    const k = setup({ accepts: ['control.cancel', INSTRUCT] });
    k.deliver(cmd('control.pause', {}));
    const none = setup({ accepts: [] });
    none.deliver(cmd('control.pause', {}));
    expect(nack(k.acks()[0])).toEqual(['control.rejected', { reason: 'unsupported', detail: `control.pause is not in this adapter's control.accepts (control.cancel, ${INSTRUCT})` }]);
    expect(nack(none.acks()[0])).toEqual(['control.rejected', { reason: 'unsupported', detail: "control.pause is not in this adapter's control.accepts (none)" }]);
  });

  it('a declared type with no handler is unsupported', () => {
    const k = setup();
    k.deliver(cmd('control.cancel', {}));
    expect(nack(k.acks()[0])).toEqual(['control.rejected', { reason: 'unsupported', detail: 'control.cancel has no handler in this adapter' }]);
  });

  it('an ack is cause-linked to the command, in its session, and carries its run when it names one', () => {
    const k = setup();
    const c = cmd(INSTRUCT, { text: 'go' }, { run: 'run-7' });
    k.deliver(c);
    const plain = cmd(INSTRUCT, { text: 'again' }, { run: 42 });
    k.deliver(plain);
    expect(k.acks()[0]).toMatchObject({ type: 'control.accepted', cause: c.id, session: S, run: 'run-7', data: {} });
    expect(k.acks()[1]).toMatchObject({ type: 'control.accepted', cause: plain.id });
    expect('run' in k.acks()[1]!).toBe(false);
  });

  it('below the full/redacted ceiling a nack keeps its reason and drops the free-text detail', () => {
    const k = setup({ posture: { ceiling: 'metadata', attention: 'redacted' } });
    k.deliver(cmd('control.pause', {}));
    expect(k.acks()[0]!.data).toEqual({ reason: 'unsupported' });
  });
});

describe('control.attention.respond', () => {
  it('a malformed answer is invalid, saying what an answer is', () => {
    const k = setup();
    k.deliver(cmd('control.attention.respond', { answer: 'allow' }));
    expect(nack(k.acks()[0])).toEqual(['control.rejected', { reason: 'invalid', detail: 'data.answer must be an object with option/text strings or a values object' }]);
  });

  it('answers the request named by subject, then by cause; the answer is caused by the command', async () => {
    const k = setup();
    const bySubject = k.ask();
    const byCause = k.ask();
    const c1 = cmd('control.attention.respond', { answer: { option: 'allow' } }, { subject: bySubject.requestId, cause: byCause.requestId });
    k.deliver(c1);
    expect((await bySubject).settlement).toMatchObject({ option: 'allow' });
    expect(k.held.get(byCause.requestId)).toBeDefined();
    const c2 = cmd('control.attention.respond', { answer: { option: 'deny' } }, { cause: byCause.requestId });
    k.deliver(c2);
    expect((await byCause).settlement).toMatchObject({ option: 'deny' });
    expect(k.acks().map((e) => [e.type, e.cause])).toEqual([['control.accepted', c1.id], ['control.accepted', c2.id]]);
    const answered = k.wire.filter((e) => e.type === 'attention.answered');
    expect(answered.map((e) => [e.subject, e.cause])).toEqual([[bySubject.requestId, c1.id], [byCause.requestId, c2.id]]);
    // The ack goes out before the answer it accepted.
    expect(k.wire.findIndex((e) => e.cause === c1.id && e.type === 'control.accepted')).toBeLessThan(k.wire.findIndex((e) => e.type === 'attention.answered'));
  });

  it("a request of another session is refused, naming it, and stays pending", () => {
    const k = setup();
    const other = k.ask('other-session');
    k.deliver(cmd('control.attention.respond', { answer: { option: 'allow' } }, { subject: other.requestId }));
    expect(nack(k.acks()[0])).toEqual(['control.rejected', { reason: 'invalid', detail: `attention request '${other.requestId}' belongs to another session` }]);
    expect(k.held.get(other.requestId)).toBeDefined();
  });

  it('no subject and no cause string: invalid, naming no request', () => {
    const k = setup();
    k.ask();
    k.deliver(cmd('control.attention.respond', { answer: { option: 'allow' } }, { subject: 5, cause: null }));
    expect(k.acks()[0]!.data).toEqual({ reason: 'invalid', detail: "no pending attention request '' (unknown, or already settled): set subject to a pending attention.requested id" });
  });

  it("the held loop's refusal reaches the operator as the nack", () => {
    const k = setup();
    const h = k.ask();
    k.deliver(cmd('control.attention.respond', { answer: { option: 'maybe' } }, { subject: h.requestId }));
    expect(k.acks()[0]!.data).toEqual({ reason: 'invalid', detail: 'answer.option must be one of allow, deny' });
  });
});

describe('steering instructions', () => {
  it('queues the text, cause-linked to the command, and accepts', () => {
    const k = setup();
    const c = cmd(INSTRUCT, { text: 'use staging' });
    k.deliver(c);
    expect(k.acks().map((e) => e.type)).toEqual(['control.accepted']);
    expect(k.steering.take(S)).toBe('use staging');
    expect(k.wire.find((e) => e.type === 'x.kit.instruction.delivered')).toMatchObject({ cause: c.id });
  });

  it('empty, blank or missing text is invalid', () => {
    const k = setup();
    for (const data of [{ text: '' }, { text: '  \n' }, { text: 5 }, {}, 'text']) k.deliver(cmd(INSTRUCT, data));
    expect(k.acks().map((e) => e.data)).toEqual(Array(5).fill({ reason: 'invalid', detail: 'data.text must be a non-empty string' }));
    expect(k.steering.take(S)).toBeNull();
  });

  it("text over the vendor's cap is invalid, naming both lengths; at the cap it is accepted", () => {
    const k = setup({ steeringCap: 5 });
    k.deliver(cmd(INSTRUCT, { text: '123456' }));
    k.deliver(cmd(INSTRUCT, { text: '12345' }));
    expect(k.acks().map((e) => e.data)).toEqual([{ reason: 'invalid', detail: 'data.text is 6 characters; this vendor accepts at most 5' }, {}]);
  });

  it('a full queue is invalid with the queue saying so', () => {
    const k = setup();
    for (let i = 0; i < 21; i++) k.deliver(cmd(INSTRUCT, { text: `t${i}` }));
    expect(k.acks().slice(0, 20).every((e) => e.type === 'control.accepted')).toBe(true);
    expect(k.acks()[20]!.data).toEqual({ reason: 'invalid', detail: 'the steering queue for this session is full (20 instructions); retry after delivery' });
  });
});

describe('adapter-actuated commands', () => {
  const flush = () => new Promise((r) => setTimeout(r, 0));

  it('an ok outcome is acked, then its after() runs', async () => {
    const order: string[] = [];
    const k = setup({ actuate: () => Promise.resolve({ ok: true, after: () => order.push(`after:${k.acks().length}`) }) });
    k.deliver(cmd('control.cancel', {}));
    await flush();
    expect(k.acks().map((e) => e.type)).toEqual(['control.accepted']);
    expect(order).toEqual(['after:1']);
  });

  it('a refused outcome is nacked with its reason and detail; a redelivery then gets the recorded nack', async () => {
    const k = setup({ actuate: () => Promise.resolve({ ok: false, reason: 'refused', detail: 'nothing to cancel' }) });
    const c = cmd('control.cancel', {});
    k.deliver(c);
    await flush();
    expect(k.acks()[0]!.data).toEqual({ reason: 'refused', detail: 'nothing to cancel' });
    k.deliver(c);
    expect(k.resent).toHaveLength(1);
  });

  it('a failed actuation is busy, naming the type and the error; a redelivery then gets the recorded nack', async () => {
    const k = setup({ actuate: () => Promise.reject(new Error('socket closed')) });
    const c = cmd('control.cancel', {});
    k.deliver(c);
    await flush();
    expect(k.acks()[0]!.data).toEqual({ reason: 'busy', detail: 'the adapter could not actuate control.cancel: socket closed' });
    k.deliver(c);
    expect(k.resent).toHaveLength(1);
  });

  it('two different commands in flight at once are each actuated and acked', async () => {
    const finish: ((o: CommandOutcome) => void)[] = [];
    const k = setup({ actuate: () => new Promise<CommandOutcome>((res) => finish.push(res)) });
    const a = cmd('control.cancel', {});
    const b = cmd('control.cancel', {});
    k.deliver(a);
    k.deliver(b);
    expect(finish).toHaveLength(2);
    for (const f of finish) f({ ok: true });
    await flush();
    expect(k.acks().map((e) => e.cause)).toEqual([a.id, b.id]);
  });

  it('a command the adapter leaves to the kit is handled by the kit', () => {
    const k = setup({ actuate: () => undefined });
    k.deliver(cmd(INSTRUCT, { text: 'hi' }));
    expect(k.acks().map((e) => e.type)).toEqual(['control.accepted']);
  });

  it('an undeclared type is refused before the adapter sees it', () => {
    let seen = 0;
    const k = setup({ accepts: ['control.cancel'], actuate: () => (seen++, Promise.resolve({ ok: true })) });
    k.deliver(cmd('control.pause', {}));
    expect(seen).toBe(0);
  });
});
