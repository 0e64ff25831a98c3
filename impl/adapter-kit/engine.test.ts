/**
 * The engine's kit guarantees, with a minimal adapter that does nothing right on its own: every
 * request it opens reaches a terminal on every path, `session.ended` closes what the session left
 * open, an out-of-band request refuses control answers, and adapter state is per engine.
 */
import { describe, expect, it } from 'vitest';
import { validateStream } from '../core/stream.js';
import { DEFAULT_POSTURE } from './capture.js';
import { createEngine } from './engine.js';
import type { AdapterDef, HookContext, Settlement } from './types.js';

const S = 'kit-s1';

/** A manual clock with timers (time moves only on `advance`). */
class FakeClock {
  private timers = new Map<number, { due: number; fn: () => void }>();
  private next = 1;
  constructor(private time: number) {}
  now = (): number => this.time;
  set = (fn: () => void, ms: number): unknown => {
    this.timers.set(this.next, { due: this.time + ms, fn });
    return this.next++;
  };
  clear = (handle: unknown): void => void this.timers.delete(handle as number);
  advance(ms: number): void {
    this.time += ms;
    for (const [handle, t] of [...this.timers]) if (t.due <= this.time && this.timers.delete(handle)) t.fn();
  }
}
const OPTIONS = [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }];

/** An adapter whose hooks are named after what they do to the kit. */
/** Request ids `hold()` handed back at once, by hook call, beside the ids the settlements name. */
const heldIds: Array<{ at: string; settled?: string }> = [];

function careless(settled: Settlement[]): AdapterDef {
  return {
    agent: 'careless',
    defaultPort: 0,
    emits: ['session', 'attention'],
    accepts: ['control.attention.respond'],
    neutralReply: () => '{}',
    steerable: () => false,
    steeringReply: () => '{}',
    async handle(hook, input, ctx: HookContext) {
      const session = input.session_id as string;
      const request = { type: 'attention.requested', data: { kind: 'permission', prompt: 'ok?', options: OPTIONS, respond_via: ['control'] } };
      if (hook === 'Start') ctx.emit(session, { type: 'session.started', data: {} });
      if (hook === 'Hold') {
        const held = ctx.hold({ session, mapped: request, options: OPTIONS });
        const row: { at: string; settled?: string } = { at: held.requestId };
        heldIds.push(row);
        const out = await held;
        row.settled = out.request.id;
        settled.push(out.settlement);
      }
      if (hook === 'Open') ctx.open({ session, mapped: { type: 'attention.requested', data: { kind: 'auth', prompt: 'sign in', respond_via: ['oob'] } }, key: 'url' });
      if (hook === 'Count') {
        const state = ctx.state(session, () => ({ n: 0 }));
        state.n += 1;
        return String(state.n);
      }
      if (hook === 'End') ctx.emit(session, { type: 'session.ended', data: {} }); // closes nothing itself
      return '{}';
    },
  };
}

function setup() {
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const lines: string[] = [];
  const settled: Settlement[] = [];
  const engine = createEngine(careless(settled), { posture: DEFAULT_POSTURE, timeoutMs: 1000, instruct: false, host: 'h', epoch: 0, clock: () => clock.now(), timers: clock, send: (l) => lines.push(l), log: () => {} });
  const events = () => lines.map((l) => JSON.parse(l) as Record<string, any>);
  const flush = async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };
  return { engine, clock, events, settled, flush, hook: (name: string) => engine.handleHook(name, { session_id: S }) };
}

describe('engine: every open request reaches a terminal', () => {
  it('session.ended first dismisses the held and the out-of-band requests its session left open', async () => {
    const t = setup();
    await t.hook('Start');
    const held = t.hook('Hold');
    await t.hook('Open');
    await t.hook('End');
    expect(await held).toBe('{}');
    expect(t.settled).toEqual([{ kind: 'dismissed' }]);
    const events = t.events();
    expect(events.map((e) => [e.type, e.data?.resolution ?? null])).toEqual([
      ['session.started', null],
      ['attention.requested', null],
      ['attention.requested', null],
      ['attention.resolved', 'dismissed'],
      ['attention.resolved', 'dismissed'],
      ['session.ended', null],
    ]);
    expect(events[3]!.subject).toBe(events[1]!.id);
    expect(events[4]!.subject).toBe(events[2]!.id);
    expect(validateStream(events)).toEqual([]);
    expect(t.engine.pendingLines()).toEqual([]);
  });

  it('a held request times out; an out-of-band one never does, and refuses a control answer', async () => {
    const t = setup();
    const held = t.hook('Hold');
    await t.hook('Open');
    const [, oob] = t.events();
    t.clock.advance(5000);
    expect(await held).toBe('{}');
    expect(t.settled).toEqual([{ kind: 'timeout' }]);
    t.engine.onCommand('', { aep: '0.1', id: 'c1', type: 'control.attention.respond', source: 'aep://x/agent/op', agent: 'op', session: S, subject: oob!.id, data: { answer: { option: 'accept' } } });
    const types = t.events().map((e) => e.type);
    expect(types).toEqual(['attention.requested', 'attention.requested', 'attention.timeout', 'control.rejected']);
    expect(t.engine.pendingLines()).toEqual([JSON.stringify(oob)]);
    t.engine.dismissAll();
    expect(t.events().at(-1)).toMatchObject({ type: 'attention.resolved', subject: oob!.id, data: { resolution: 'dismissed' } });
  });

  it('an answered request carries the answered event id in its settlement', async () => {
    const t = setup();
    const held = t.hook('Hold');
    const [req] = t.events();
    t.engine.onCommand('', { aep: '0.1', id: 'c2', type: 'control.attention.respond', source: 'aep://x/agent/op', agent: 'op', session: S, subject: req!.id, data: { answer: { option: 'allow' } } });
    await held;
    const answered = t.events().find((e) => e.type === 'attention.answered')!;
    expect(t.settled).toEqual([{ kind: 'option', option: 'allow', via: 'control', answered: answered.id }]);
  });
});

describe('engine: adapter state', () => {
  it('is per session, per engine, and forgotten at session.ended', async () => {
    const a = setup();
    const b = setup();
    expect(await a.hook('Count')).toBe('1');
    expect(await a.hook('Count')).toBe('2');
    expect(await b.hook('Count')).toBe('1');
    await a.hook('End');
    expect(await a.hook('Count')).toBe('1');
  });
});

describe('engine: no hook is dropped without an event', () => {
  it('a lone surrogate and 5000-deep nesting still emit (made safe, and logged)', async () => {
    const lines: string[] = [];
    const logged: string[] = [];
    const def: AdapterDef = { ...careless([]), async handle(_h, input, ctx) {
      ctx.emit(input.session_id as string, { type: 'progress.status', data: { phase: typeof input.deep } });
      return '{}';
    } };
    const engine = createEngine(def, { posture: DEFAULT_POSTURE, timeoutMs: 1000, instruct: false, host: 'h', epoch: 0, send: (l) => lines.push(l), log: (l) => logged.push(l) });
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 5000; i++) deep = { a: deep };
    expect(await engine.handleHook('Notification', { session_id: 'lone\ud800', deep })).toBe('{}');
    const [event] = lines.map((l) => JSON.parse(l));
    expect(event).toMatchObject({ session: 'lone\ufffd', source: 'aep://h/agent/careless/session/lone%EF%BF%BD', data: { phase: 'object' } });
    expect(validateStream([event])).toEqual([]);
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatch(/^hook Notification: 1 string\(s\) held a lone UTF-16 surrogate/);
  });
});

describe('engine: a guarded input is not walked again', () => {
  it('handleGuarded passes the daemon-guarded input through as is; handleHook guards it', async () => {
    const seen: unknown[] = [];
    const logged: string[] = [];
    const def: AdapterDef = { ...careless([]), async handle(_h, input) {
      seen.push(input);
      return '{}';
    } };
    const engine = createEngine(def, { posture: DEFAULT_POSTURE, timeoutMs: 1000, instruct: false, host: 'h', epoch: 0, send: () => {}, log: (l) => logged.push(l) });
    const raw = { session_id: 'lone\ud800' };
    expect(await engine.handleGuarded('Notification', raw)).toBe('{}');
    expect(seen[0]).toBe(raw); // not copied, not repaired: the caller guarded it
    expect(logged).toEqual([]);
    await engine.handleHook('Notification', raw);
    expect(seen[1]).toEqual({ session_id: 'lone\ufffd' });
    expect(logged).toHaveLength(1);
  });
});

describe('engine: ended sessions', () => {
  it('ctx.ended says whether this engine emitted session.ended for a session', async () => {
    const seen: boolean[] = [];
    const def: AdapterDef = { ...careless([]), async handle(hook, input, ctx) {
      seen.push(ctx.ended(input.session_id as string));
      if (hook === 'End') ctx.emit(input.session_id as string, { type: 'session.ended', data: {} });
      return '{}';
    } };
    const engine = createEngine(def, { posture: DEFAULT_POSTURE, timeoutMs: 1000, instruct: false, host: 'h', epoch: 0, send: () => {}, log: () => {} });
    await engine.handleHook('Any', { session_id: 'a' });
    await engine.handleHook('End', { session_id: 'a' });
    await engine.handleHook('Any', { session_id: 'a' });
    await engine.handleHook('Any', { session_id: 'b' });
    expect(seen).toEqual([false, false, true, false]);
  });

  it('hold() hands back the request id at once: the emitted attention.requested, the one the settlement names', async () => {
    const t = setup();
    heldIds.length = 0;
    const first = t.hook('Hold');
    const second = t.hook('Hold');
    const [a, b] = t.events();
    expect(heldIds.map((r) => r.at)).toEqual([a!.id, b!.id]);
    t.engine.onCommand('', { aep: '0.1', id: 'c3', type: 'control.attention.respond', source: 'aep://x/agent/op', agent: 'op', session: S, subject: a!.id, data: { answer: { option: 'deny' } } });
    t.clock.advance(5000);
    await Promise.all([first, second]);
    expect(heldIds).toEqual([
      { at: a!.id, settled: a!.id },
      { at: b!.id, settled: b!.id },
    ]);
  });
});
