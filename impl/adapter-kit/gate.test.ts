import { describe, expect, it } from 'vitest';
import { GATE_DENY_REASON, gateDecision, gatedDef, gates, readGate, type GateConfig } from './gate.js';
import type { AdapterDef } from './types.js';

const VARS = { control: 'AEP_X_CONTROL', tools: 'AEP_X_GATE_TOOLS', defaultHoldMs: 25_000, vendorTimeoutMs: 30_000 };

describe('readGate', () => {
  it('is off unless the variable is exactly 1; other values are errors naming the variable', () => {
    expect(readGate({}, VARS)).toEqual({ enabled: false, tools: null, holdMs: 25_000 });
    expect(readGate({ AEP_X_CONTROL: '0' }, VARS)).toMatchObject({ enabled: false });
    expect(readGate({ AEP_X_CONTROL: '1' }, VARS)).toMatchObject({ enabled: true });
    expect(readGate({ AEP_X_CONTROL: 'true' }, VARS)).toBe("AEP_X_CONTROL must be 1 (gate on) or 0 (off), got 'true'");
  });

  it('the tools pattern matches whole tool names; a bad pattern is an error', () => {
    const config = readGate({ AEP_X_CONTROL: '1', AEP_X_GATE_TOOLS: 'Bash|Write' }, VARS);
    if (typeof config === 'string') throw new Error(config);
    expect(['Bash', 'Write', 'BashOutput', 'Read'].map((t) => gates(config, t))).toEqual([true, true, false, false]);
    expect(readGate({ AEP_X_GATE_TOOLS: '(' }, VARS)).toMatch(/^AEP_X_GATE_TOOLS must be a regular expression/);
    expect(gates({ enabled: false, tools: null, holdMs: 1 }, 'Bash')).toBe(false);
  });

  it('the hold window: AEP_ATTENTION_TIMEOUT_MS when set, never within 5 s of the vendor timeout', () => {
    expect(readGate({ AEP_ATTENTION_TIMEOUT_MS: '8000' }, VARS)).toMatchObject({ holdMs: 8000 });
    expect(readGate({ AEP_ATTENTION_TIMEOUT_MS: '55000' }, VARS)).toMatchObject({ holdMs: 25_000 });
    expect(readGate({ AEP_ATTENTION_TIMEOUT_MS: '-1' }, VARS)).toMatch(/AEP_ATTENTION_TIMEOUT_MS must be a positive integer/);
    expect(readGate({}, { ...VARS, defaultHoldMs: 50_000, vendorTimeoutMs: 30_000 })).toMatchObject({ holdMs: 25_000 });
  });
});

describe('gateDecision', () => {
  it('allow is no objection; deny carries the guidance or the canned reason and the answer id; ask passes through', () => {
    expect(gateDecision({ kind: 'option', option: 'allow', via: 'control' })).toEqual({ kind: 'none', allowed: true });
    expect(gateDecision({ kind: 'option', option: 'deny', via: 'control', answered: 'A1' })).toEqual({ kind: 'deny', reason: GATE_DENY_REASON, answered: 'A1' });
    expect(gateDecision({ kind: 'option', option: 'deny', text: 'use staging', via: 'control' })).toEqual({ kind: 'deny', reason: 'use staging' });
    expect(gateDecision({ kind: 'option', option: 'ask', via: 'control' })).toEqual({ kind: 'other', option: 'ask' });
  });

  it('a timeout, a dismissal or an out-of-band settlement decides nothing', () => {
    for (const s of [{ kind: 'timeout' }, { kind: 'dismissed' }, { kind: 'option', option: 'deny', via: 'oob' }] as const) {
      expect(gateDecision(s)).toEqual({ kind: 'none', allowed: false });
    }
  });
});

describe('gatedDef', () => {
  const vars = { control: 'AEP_ACME_CONTROL', tools: 'AEP_ACME_GATE_TOOLS', defaultHoldMs: 20_000, vendorTimeoutMs: 30_000 };
  const off: GateConfig = { enabled: false, tools: null, holdMs: 20_000 };
  const create = (gate: GateConfig): AdapterDef => ({ agent: 'acme', gate, ...gatedDef(gate, vars, create) }) as unknown as AdapterDef;
  it('accepts control only with the gate on; configure re-creates from the environment or names the bad variable', () => {
    expect(gatedDef(off, vars, create)).toMatchObject({ accepts: [], holdMs: 20_000 });
    const on = gatedDef(off, vars, create).configure!({ AEP_ACME_CONTROL: '1', AEP_ATTENTION_TIMEOUT_MS: '40000' }) as AdapterDef & { gate: GateConfig };
    expect([on.accepts, on.holdMs, on.gate.enabled]).toEqual([['control.attention.respond'], 25_000, true]);
    expect(gatedDef(off, vars, create).configure!({ AEP_ACME_CONTROL: 'yes' })).toMatch(/^AEP_ACME_CONTROL must be 1/);
  });
});
