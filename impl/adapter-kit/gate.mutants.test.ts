/**
 * The opt-in permission gate as a user configures it and an adapter runs it: the environment's
 * edge values, the hold window inside the vendor's timeout, and what one gated call raises and
 * records (the `tool.denied` a commanded deny lands, the key a later hook dismisses it by).
 */
import { describe, expect, it } from 'vitest';
import { GATE_MARGIN_MS, dismissGateRequests, gateDecision, gateKey, gatedDef, gates, holdGate, readGate, type GateConfig } from './gate.js';
import type { AdapterDef, Held, HoldSpec, HookContext, Settlement } from './types.js';

const VARS = { control: 'AEP_X_CONTROL', tools: 'AEP_X_GATE_TOOLS', defaultHoldMs: 25_000, vendorTimeoutMs: 30_000 };

describe('readGate: edges', () => {
  it('an empty opt-in is off, not an error; only "1" turns the gate on', () => {
    expect(readGate({ AEP_X_CONTROL: '' }, VARS)).toEqual({ enabled: false, tools: null, holdMs: 25_000 });
    expect(readGate({ AEP_X_CONTROL: '01' }, VARS)).toBe("AEP_X_CONTROL must be 1 (gate on) or 0 (off), got '01'");
  });

  it('an empty tools pattern gates every tool', () => {
    const config = readGate({ AEP_X_CONTROL: '1', AEP_X_GATE_TOOLS: '' }, VARS) as GateConfig;
    expect(config.tools).toBeNull();
    expect(gates(config, 'Anything')).toBe(true);
  });

  it('a bad pattern names the variable, the pattern and the parser message', () => {
    const error = readGate({ AEP_X_GATE_TOOLS: 'a(' }, VARS) as string;
    expect(error).toMatch(/^AEP_X_GATE_TOOLS must be a regular expression over tool names, got 'a\(' \(.+\)$/);
    expect(error).toContain('Unterminated group');
  });

  it('the pattern is anchored as a whole: an alternation cannot match a part of a name', () => {
    const config = readGate({ AEP_X_CONTROL: '1', AEP_X_GATE_TOOLS: 'Bash|Wr' }, VARS) as GateConfig;
    expect(['Bash', 'Wr', 'Write', 'xBash', 'Bashx'].map((t) => gates(config, t))).toEqual([true, true, false, false, false]);
  });

  it('AEP_ATTENTION_TIMEOUT_MS: 1 is the smallest window; 0, signs, decimals and junk are refused; empty is unset', () => {
    expect(readGate({ AEP_ATTENTION_TIMEOUT_MS: '1' }, VARS)).toMatchObject({ holdMs: 1 });
    expect(readGate({ AEP_ATTENTION_TIMEOUT_MS: '' }, VARS)).toMatchObject({ holdMs: 25_000 });
    for (const bad of ['0', '+5', '1.5', '12a', 'a12', ' 5'])
      expect(readGate({ AEP_ATTENTION_TIMEOUT_MS: bad }, VARS), bad).toBe(`AEP_ATTENTION_TIMEOUT_MS must be a positive integer of milliseconds, got '${bad}'`);
  });

  it('the window is capped at the vendor timeout minus the 5 s margin, exactly', () => {
    expect(GATE_MARGIN_MS).toBe(5000);
    expect(readGate({ AEP_ATTENTION_TIMEOUT_MS: '24999' }, VARS)).toMatchObject({ holdMs: 24_999 });
    expect(readGate({ AEP_ATTENTION_TIMEOUT_MS: '25001' }, VARS)).toMatchObject({ holdMs: 25_000 });
    expect(readGate({}, { ...VARS, defaultHoldMs: 1_000 })).toMatchObject({ holdMs: 1_000 });
  });
});

describe('gatedDef', () => {
  it('with the gate on: accepts respond and holds for the gate window', () => {
    const on: GateConfig = { enabled: true, tools: null, holdMs: 7_000 };
    const def = gatedDef(on, VARS, () => ({}) as AdapterDef);
    expect([def.accepts, def.holdMs]).toEqual([['control.attention.respond'], 7_000]);
  });
});

describe('gateDecision', () => {
  it('a deny without guidance blocks with the canned reason the vendor shows', () => {
    expect(gateDecision({ kind: 'option', option: 'deny', via: 'control' })).toEqual({ kind: 'deny', reason: 'Denied by the operator via the AEP permission gate' });
  });

  it('a form answer over control decides nothing', () => {
    expect(gateDecision({ kind: 'values', values: {}, via: 'control' })).toEqual({ kind: 'none', allowed: false });
  });
});

/** A hook context that records what the gate asks of it; `settle` resolves the hold. */
function fakeCtx(run: string | undefined) {
  const holds: HoldSpec[] = [];
  const emitted: { session: string; mapped: unknown; extra: unknown }[] = [];
  const settled: [string, unknown][] = [];
  let settle: (s: Settlement) => void = () => {};
  const pending: { id: string; session: string; key?: string }[] = [];
  const ctx = {
    hold: (spec: HoldSpec): Held => {
      holds.push(spec);
      pending.push({ id: `req-${holds.length}`, session: spec.session, ...(spec.key ? { key: spec.key } : {}) });
      const p = new Promise<{ request: never; settlement: Settlement }>((r) => (settle = (s) => r({ request: undefined as never, settlement: s })));
      return Object.assign(p, { requestId: `req-${holds.length}` });
    },
    run: () => run,
    emit: (session: string, mapped: unknown, extra: unknown) => {
      emitted.push({ session, mapped, extra });
      return {} as never;
    },
    pending: (session: string, key?: string) => pending.filter((p) => p.session === session && (key === undefined || p.key === key)),
    settle: (id: string, how: unknown) => {
      settled.push([id, how]);
      return true;
    },
  } as unknown as HookContext;
  return { ctx, holds, emitted, settled, settle: (s: Settlement) => settle(s) };
}

const OPTIONS = [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }];
const MAPPED = { type: 'attention.requested', data: { kind: 'permission', prompt: 'Bash?', options: OPTIONS, respond_via: ['control'] } };

describe('holdGate', () => {
  it('holds the call with deny refusing, under its call key; a commanded deny records tool.denied in the run, caused by the answer', async () => {
    const k = fakeCtx('run-1');
    const decision = holdGate(k.ctx, { session: 's', mapped: MAPPED, options: OPTIONS, tool: { name: 'Bash', call_id: 'c9' }, input: { command: 'ls' } });
    expect(k.holds).toEqual([{ session: 's', mapped: MAPPED, options: OPTIONS, refusing: 'deny', key: gateKey('s', 'Bash', { command: 'ls' }) }]);
    k.settle({ kind: 'option', option: 'deny', text: 'no', via: 'control', answered: 'ans-1' });
    expect(await decision).toEqual({ kind: 'deny', reason: 'no', answered: 'ans-1' });
    expect(k.emitted).toEqual([{ session: 's', mapped: { type: 'tool.denied', data: { tool: { name: 'Bash', call_id: 'c9' }, by: 'policy' }, subject: 'Bash' }, extra: { run: 'run-1', cause: 'ans-1' } }]);
  });

  it('a deny outside a run and without an answer id carries neither', async () => {
    const k = fakeCtx(undefined);
    const decision = holdGate(k.ctx, { session: 's', mapped: MAPPED, options: OPTIONS, tool: { name: 'Bash' }, input: {} });
    k.settle({ kind: 'option', option: 'deny', via: 'control' });
    await decision;
    expect(k.emitted.map((e) => e.extra)).toEqual([{}]);
  });

  it('allow, ask and a timeout record nothing', async () => {
    for (const s of [{ kind: 'option', option: 'allow', via: 'control' }, { kind: 'option', option: 'ask', via: 'control' }, { kind: 'timeout' }] as const) {
      const k = fakeCtx('r');
      const decision = holdGate(k.ctx, { session: 's', mapped: MAPPED, options: OPTIONS, tool: { name: 'Bash' }, input: {} });
      k.settle(s);
      await decision;
      expect(k.emitted).toEqual([]);
    }
  });
});

describe('gate keys and dismissal', () => {
  it('the key names the gate, the session, the tool and the call input', () => {
    expect(gateKey('s1', 'Bash', { b: 1, a: 2 })).toBe('gate:s1:Bash:{"a":2,"b":1}');
  });

  it('a later hook of the same call dismisses that gate request, not a parallel call of the same tool', () => {
    const k = fakeCtx(undefined);
    void holdGate(k.ctx, { session: 's', mapped: MAPPED, options: OPTIONS, tool: { name: 'Bash' }, input: { command: 'ls' } });
    void holdGate(k.ctx, { session: 's', mapped: MAPPED, options: OPTIONS, tool: { name: 'Bash' }, input: { command: 'pwd' } });
    dismissGateRequests({ tool_name: 'Bash', tool_input: { command: 'pwd' } }, 's', k.ctx);
    expect(k.settled).toEqual([['req-2', { kind: 'dismissed' }]]);
  });
});
