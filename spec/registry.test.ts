import { describe, expect, it } from 'vitest';
import {
  CATEGORIES, COMMAND_TYPES, EXPERIMENTAL_TYPES, FOREIGN_EMITTER_TYPES, MANDATORY_TYPES, NACK_REASONS,
  SEVERITY_OCSF, SEVERITY_ORDER, SEVERITY_OTLP, TYPES, isCoreType, lookupCategory, lookupType,
  type CommandType, type CoreType,
} from './registry.js';

describe('registry', () => {
  it('has the thirteen categories of AEP-0002 §3 plus the x namespace', () => {
    expect(CATEGORIES).toHaveLength(14);
    expect(CATEGORIES.filter((c) => c.scope === 'agent').map((c) => c.name)).toEqual(['agent']);
    expect(lookupCategory('x')?.scope).toBe('any');
    expect(lookupCategory('chat')).toBeUndefined();
  });

  it('registers 46 types, 14 mandatory and 2 reserved without payload', () => {
    expect(TYPES).toHaveLength(46);
    expect(new Set(TYPES.map((t) => t.type)).size).toBe(46);
    expect(MANDATORY_TYPES).toHaveLength(14);
    expect(TYPES.filter((t) => t.status === 'reserved').map((t) => [t.type, t.payload])).toEqual([
      ['message.user.submitted', false],
      ['message.agent.replied', false],
    ]);
  });

  it('files every type under a registered category, with the category scope', () => {
    for (const t of TYPES) {
      const c = lookupCategory(t.category);
      expect(c, t.type).toBeDefined();
      expect(t.type.startsWith(`${t.category}.`)).toBe(true);
      expect(t.scope === 'agent', t.type).toBe(c!.scope === 'agent');
    }
  });

  it('marks the four commands and attention.routed as foreign-emitter (AEP-0001 §5.2)', () => {
    expect(COMMAND_TYPES).toEqual(['control.attention.respond', 'control.cancel', 'control.pause', 'control.resume']);
    expect([...FOREIGN_EMITTER_TYPES].sort()).toEqual([...COMMAND_TYPES, 'attention.routed'].sort());
    expect(lookupType('control.accepted')?.foreign).toBe(false);
  });

  it('flags control, resource and assessment types experimental, and nothing else', () => {
    expect(EXPERIMENTAL_TYPES.every((t) => /^(control|resource|assessment)\./.test(t))).toBe(true);
    expect(EXPERIMENTAL_TYPES).toHaveLength(13);
  });

  it('narrows strings to the literal type unions', () => {
    const t: string = 'run.step.started';
    const narrowed: CoreType | undefined = isCoreType(t) ? t : undefined;
    const cmd: CommandType = 'control.resume';
    expect([narrowed, cmd]).toEqual(['run.step.started', 'control.resume']);
    expect(isCoreType('x.acme.run.started')).toBe(false);
  });

  it('looks up core types only', () => {
    expect(lookupType('tool.completed')).toMatchObject({ status: 'mandatory', scope: 'session', payload: true });
    expect(lookupType('x.acme.tool.completed')).toBeUndefined();
    expect(lookupType('tool')).toBeUndefined();
  });

  it('maps every severity for both bridges, monotonically', () => {
    const otlp = SEVERITY_ORDER.map((s) => SEVERITY_OTLP[s].severity_number);
    const ocsf = SEVERITY_ORDER.map((s) => SEVERITY_OCSF[s]);
    expect(otlp).toEqual([...otlp].sort((a, b) => a - b));
    expect(ocsf).toEqual([...ocsf].sort((a, b) => a - b));
    expect(SEVERITY_OTLP.notice).toEqual({ severity_text: 'INFO2', severity_number: 10 });
  });

  it('lists the five on-wire nack reasons, never timeout', () => {
    expect(NACK_REASONS).toEqual(['unsupported', 'unauthorized', 'busy', 'refused', 'invalid']);
  });
});
