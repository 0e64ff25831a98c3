import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../core/event.js';
import { isCommand, routeCommand, type Claimant } from './control.js';

const cmd = (type: string, session?: string): AepEvent => ({ aep: '0.1', id: 'c1', type, time: 't', source: 's', agent: 'a', ...(session ? { session } : {}) });
const peer = (claims: string[], accepts?: string[]): Claimant & { name: string } => ({ name: claims.join(','), claims: new Set(claims), accepts });

describe('isCommand', () => {
  it('knows commands from acknowledgements and other types', () => {
    for (const t of ['control.cancel', 'control.attention.respond', 'control.pause', 'x.acme.control.instruct']) expect(isCommand(t), t).toBe(true);
    for (const t of ['control.accepted', 'control.rejected', 'run.cancelled', 'x.acme.session.control', 'x.acme.controls.do']) expect(isCommand(t), t).toBe(false);
  });

  it('answers as the two patterns alone do (its prefix check only skips them), on generated types', () => {
    const reference = (type: string): boolean =>
      type !== 'control.accepted' && type !== 'control.rejected' && (/^control\.[^.]/.test(type) || /^x\.[^.]+\.control\.[^.]/.test(type));
    const parts = ['control', 'x', 'acme', 'accepted', 'rejected', 'cancel', 'progress', 'status', '', 'c', 'ontrol', 'X', 'Control', '\n', 'x.'];
    let seed = 7;
    const pick = (): string => parts[(seed = (seed * 1103515245 + 12345) % 2147483648) % parts.length]!;
    const types = ['', 'control', 'control.', 'control..x', 'x', 'x.', 'x..control.a', 'x.a.control.', 'x.a.control..b', 'xcontrol.a', ' control.a', 'control.\n'];
    for (let i = 0; i < 5000; i++) types.push(Array.from({ length: 1 + (i % 5) }, pick).join(i % 7 === 0 ? '' : '.'));
    for (const t of types) expect(isCommand(t), JSON.stringify(t)).toBe(reference(t));
  });
});

describe('routeCommand', () => {
  const a = peer(['s1'], ['control.cancel']);
  const b = peer(['s2', 's3']);
  const c = peer(['s3'], ['control.cancel']);

  it('refuses unauthenticated bindings before anything else', () => {
    expect(routeCommand(cmd('control.cancel', 's1'), false, [a])).toMatchObject({ ok: false, code: 'unauthorized' });
  });
  it('routes to the single claimant that accepts the type', () => {
    expect(routeCommand(cmd('control.cancel', 's1'), true, [a, b])).toEqual({ ok: true, target: a });
  });
  it('refuses no-route when nobody claims the session, or the command names none', () => {
    expect(routeCommand(cmd('control.cancel', 'zz'), true, [a, b])).toMatchObject({ ok: false, code: 'no-route' });
    expect(routeCommand(cmd('control.cancel'), true, [a])).toMatchObject({ ok: false, code: 'no-route' });
  });
  it('refuses ambiguous with two claimants, never picking one', () => {
    expect(routeCommand(cmd('control.cancel', 's3'), true, [a, b, c])).toMatchObject({ ok: false, code: 'ambiguous' });
  });
  it('refuses unsupported for an undeclared type, or a target that declared no control', () => {
    expect(routeCommand(cmd('control.pause', 's1'), true, [a])).toMatchObject({ ok: false, code: 'unsupported' });
    expect(routeCommand(cmd('control.cancel', 's2'), true, [b])).toMatchObject({ ok: false, code: 'unsupported', detail: expect.stringContaining('no control capability') });
  });
});
