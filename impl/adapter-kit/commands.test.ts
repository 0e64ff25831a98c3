/**
 * The AEP-0004 dedupe rule held by the kit's own tests: a command is `(source, id)`; its first
 * delivery is decided once, and every redelivery is answered with the recorded ack bytes and has
 * no second effect (no second answer, no second queued instruction, no second actuation).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_POSTURE } from './capture.js';
import { createCommandTarget } from './commands.js';
import { createEmitter } from './emission.js';
import { HeldRequests, REAL_TIMERS } from './held-requests.js';
import { SteeringDesk } from './steering-desk.js';
import type { CommandOutcome } from './types.js';

const S = 'dedupe-s1';
const OP = 'aep://ops/agent/operator';
const INSTRUCT = 'x.kit.control.instruct';

function setup(opts: { actuate?: (cmd: Record<string, unknown>) => Promise<CommandOutcome> | undefined } = {}) {
  const wire: string[] = [];
  const resent: string[] = [];
  let t = Date.UTC(2026, 0, 1);
  const clock = () => t++;
  const emitter = createEmitter({ agent: 'kit', host: 'h', epoch: 0, posture: DEFAULT_POSTURE, clock, send: (l) => wire.push(l), log: () => {} });
  const held = new HeldRequests(emitter, DEFAULT_POSTURE, 60_000, clock, REAL_TIMERS);
  const steering = new SteeringDesk('kit', emitter, DEFAULT_POSTURE, clock);
  const target = createCommandTarget({
    accepts: ['control.attention.respond', INSTRUCT, 'control.cancel'], instructType: INSTRUCT, posture: DEFAULT_POSTURE, clock, emitter, held, steering,
    send: (l) => resent.push(l), log: () => {}, ...(opts.actuate ? { actuate: opts.actuate } : {}),
  });
  const deliver = (cmd: Record<string, unknown>) => target(JSON.stringify(cmd), cmd);
  const events = () => wire.map((l) => JSON.parse(l) as Record<string, any>);
  const acks = () => wire.filter((l) => /"type":"control\.(accepted|rejected)"/.test(l));
  return { wire, resent, held, steering, deliver, events, acks };
}

const cmd = (id: string, type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ aep: '0.1', id, type, source: OP, agent: 'operator', session: S, data, ...extra });

describe('command dedupe (AEP-0004): same (source, id) twice → one effect, the recorded ack again', () => {
  it('a respond delivered twice answers the held request once; the redelivery gets the first ack byte for byte', async () => {
    const k = setup();
    const pending = k.held.hold({ session: S, mapped: { type: 'attention.requested', data: { kind: 'permission', prompt: 'ok?', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] } }, options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] }, undefined);
    const req = k.events().find((e) => e.type === 'attention.requested')!;
    const respond = cmd('cmd_1', 'control.attention.respond', { answer: { option: 'allow' } }, { subject: req.id });
    k.deliver(respond);
    const after = k.wire.length;
    k.deliver(respond);
    k.deliver(respond);
    expect(k.wire.length).toBe(after); // nothing new emitted: no second ack, no second answer
    expect(k.acks()).toHaveLength(1);
    expect(k.resent).toEqual([k.acks()[0], k.acks()[0]]);
    expect(k.events().filter((e) => e.type === 'attention.answered')).toHaveLength(1);
    expect((await pending).settlement).toMatchObject({ kind: 'option', option: 'allow' });
  });

  it('a rejected command is not re-decided on redelivery: the same rejection bytes', () => {
    const k = setup();
    const stray = cmd('cmd_2', 'control.attention.respond', { answer: { option: 'allow' } }, { subject: 'no-such-request' });
    k.deliver(stray);
    expect(k.events().map((e) => e.type)).toEqual(['control.rejected']);
    k.deliver(stray);
    expect(k.acks()).toHaveLength(1);
    expect(k.resent).toEqual([k.acks()[0]]);
  });

  it('an instruction delivered twice is queued once', () => {
    const k = setup();
    const instruct = cmd('cmd_3', INSTRUCT, { text: 'use the staging registry' });
    k.deliver(instruct);
    k.deliver(instruct);
    expect(k.steering.take(S)).toBe('use the staging registry');
    expect(k.steering.take(S)).toBeNull();
    expect(k.acks()).toHaveLength(1);
    expect(k.resent).toEqual([k.acks()[0]]);
  });

  it('an actuated command runs once: a redelivery in flight is ignored, one after the ack gets the ack bytes', async () => {
    let calls = 0;
    let finish: (o: CommandOutcome) => void = () => {};
    const k = setup({ actuate: () => { calls++; return new Promise<CommandOutcome>((res) => { finish = res; }); } });
    const cancel = cmd('cmd_4', 'control.cancel', { scope: 'run' });
    k.deliver(cancel);
    k.deliver(cancel);
    expect(calls).toBe(1);
    expect(k.acks()).toHaveLength(0);
    finish({ ok: true });
    await new Promise((r) => setTimeout(r, 0));
    k.deliver(cancel);
    expect(calls).toBe(1);
    expect(k.acks()).toHaveLength(1);
    expect(k.resent).toEqual([k.acks()[0]]);
  });

  it('the same id from another source is another command, decided on its own', () => {
    const k = setup();
    k.deliver(cmd('cmd_5', INSTRUCT, { text: 'one' }));
    k.deliver({ ...cmd('cmd_5', INSTRUCT, { text: 'two' }), source: 'aep://other/agent/operator' });
    expect(k.acks()).toHaveLength(2);
    expect(k.resent).toEqual([]);
    expect(k.steering.take(S)).toContain('two');
  });
});
