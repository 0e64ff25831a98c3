/**
 * Command routing as a sender sees it (AEP-0004 §4): which types are commands and which are
 * acknowledgements, and the exact refusal a sender reads for each way routing can fail.
 */
import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../core/event.js';
import { isAck, isCommand, routeCommand, type Claimant } from './control.js';

const cmd = (type: string, session?: unknown): AepEvent =>
  ({ aep: '0.1', id: 'c1', type, time: 't', source: 's', agent: 'a', ...(session !== undefined ? { session } : {}) }) as AepEvent;
const peer = (claims: string[], accepts?: string[]): Claimant => ({ claims: new Set(claims), accepts });

describe('isAck', () => {
  it('is exactly the two acknowledgement types', () => {
    expect(isAck('control.accepted')).toBe(true);
    expect(isAck('control.rejected')).toBe(true);
    for (const t of ['control.cancel', 'control.accepted.x', 'x.acme.control.accepted', '', 'control.']) expect(isAck(t), t).toBe(false);
  });
});

describe('isCommand', () => {
  it('needs a verb after control. (core or vendor), anchored at the start', () => {
    for (const t of ['control.a', 'x.v.control.a', 'x.acme-1.control.instruct.more']) expect(isCommand(t), t).toBe(true);
    for (const t of ['control.', 'control..x', 'x.acme.control.', 'x.acme.control..x', 'x..control.a', 'y.control.a', 'xx.acme.control.a', 'my.control.a', 'acontrol.a'])
      expect(isCommand(t), t).toBe(false);
  });
  it('a vendor segment is one token: x.a.b.control.verb is not a command', () => {
    expect(isCommand('x.a.b.control.verb')).toBe(false);
  });
});

describe('routeCommand refusals, as the sender reads them', () => {
  it('unauthorized: names watch-only and AEP_TOKEN', () => {
    expect(routeCommand(cmd('control.cancel', 's1'), false, [peer(['s1'], ['control.cancel'])])).toEqual({
      ok: false,
      code: 'unauthorized',
      detail: 'commands flow only on an authenticated binding; this relay runs watch-only without AEP_TOKEN (AEP-0004 §4.1)',
    });
  });

  it('no-route without a session string, whatever the peers claim', () => {
    for (const session of [undefined, 42, null]) {
      expect(routeCommand(cmd('control.cancel', session), true, [peer(['42', 'null', 'undefined'], ['control.cancel'])])).toEqual({
        ok: false,
        code: 'no-route',
        detail: 'the command names no session to route to',
      });
    }
  });

  it('no-route names the session nobody owns', () => {
    expect(routeCommand(cmd('control.cancel', 'zz'), true, [peer(['s1'], ['control.cancel'])])).toEqual({
      ok: false,
      code: 'no-route',
      detail: 'no connected emitter owns session "zz"',
    });
    expect(routeCommand(cmd('control.cancel', 'zz'), true, [])).toMatchObject({ code: 'no-route' });
  });

  it('ambiguous counts the claimants and never picks one', () => {
    const peers = [peer(['s'], ['control.cancel']), peer(['s'], ['control.cancel']), peer(['s'], ['control.cancel'])];
    expect(routeCommand(cmd('control.cancel', 's'), true, peers)).toEqual({
      ok: false,
      code: 'ambiguous',
      detail: '3 live connections claim session "s"; the relay never guesses (AEP-0004 §4.5)',
    });
    expect(routeCommand(cmd('control.cancel', 's'), true, peers.slice(0, 2))).toMatchObject({ ok: false, code: 'ambiguous' });
  });

  it('unsupported lists what the target declared', () => {
    expect(routeCommand(cmd('control.pause', 's'), true, [peer(['s'], ['control.cancel', 'control.attention.respond'])])).toEqual({
      ok: false,
      code: 'unsupported',
      detail: 'the target of session "s" declared [control.cancel, control.attention.respond], not control.pause (AEP-0004 §4.2)',
    });
    expect(routeCommand(cmd('control.pause', 's'), true, [peer(['s'])])).toEqual({
      ok: false,
      code: 'unsupported',
      detail: 'the target of session "s" declared no control capability, not control.pause (AEP-0004 §4.2)',
    });
    expect(routeCommand(cmd('control.pause', 's'), true, [peer(['s'], [])])).toMatchObject({ code: 'unsupported', detail: expect.stringContaining('declared [], not') });
  });

  it('routes to the one owner among many peers, from any iterable', () => {
    const owner = peer(['s', 't'], ['control.cancel']);
    const others = [peer(['u'], ['control.cancel']), peer([], ['control.cancel'])];
    const route = routeCommand(cmd('control.cancel', 't'), true, new Set([...others, owner]));
    expect(route).toEqual({ ok: true, target: owner });
  });
});
