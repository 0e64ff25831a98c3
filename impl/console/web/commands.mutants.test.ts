/**
 * What the console sends when the operator clicks (issue 37: a break that sent `allow` when Deny
 * was clicked passed every test). The real card is rendered with Preact into a minimal DOM
 * (../test-utils/mini-dom.ts), its button is clicked, and the whole command handed to the relay
 * socket is asserted: the card, the controller and the command builders run as in the page.
 */
import { render } from 'preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MiniDocument, type MiniElement } from '../test-utils/mini-dom.js';
import type { RelayClient } from './clients.js';
import { cancel, respond, steer } from './commands.js';
import { Controller } from './controller.js';
import { html } from './html.js';
import { Inbox } from './view-cards.js';

const NOW = Date.parse('2026-12-06T02:00:00.000Z');
const ID = '00000000-0000-4000-8000-000000000001';

let doc: MiniDocument;
beforeEach(() => {
  doc = new MiniDocument();
  vi.stubGlobal('document', doc);
  vi.stubGlobal('location', { hostname: 'console.test' });
  vi.stubGlobal('requestAnimationFrame', () => 0);
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  vi.spyOn(crypto, 'randomUUID').mockReturnValue(ID);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const PERMISSION = { kind: 'permission', prompt: 'May I run `git push --force`?', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] };

/** A console with one relay (no roster: its requests are answerable), one waiting request, and a socket that records what is sent. */
function consoleWith(data: Record<string, unknown>): { c: Controller; sent: unknown[]; page: MiniElement } {
  const c = new Controller([], undefined);
  c.model.addRelay('r0', 'http://127.0.0.1:8787');
  c.model.setRosterSupport('r0', 'absent');
  const sent: unknown[] = [];
  c.clients.set('r0', { send: (frame: unknown) => (sent.push(frame), true) } as unknown as RelayClient);
  c.model.inboxEvent('r0', { aep: '0.1', id: 'q1', type: 'attention.requested', time: '2026-12-06T01:59:00Z', source: 'aep://h/claude-code', agent: 'claude-code', session: 's1', seq: 1, capture: 'full', data });
  const page = doc.createElement('main');
  doc.body.appendChild(page);
  render(html`<${Inbox} c=${c} capture=${undefined} />`, page as unknown as Element);
  return { c, sent, page };
}

const button = (page: MiniElement, label: string): MiniElement => {
  const found = page.findAll((el) => el.localName === 'button' && el.textContent === label);
  expect(found, `one button labelled ${label}`).toHaveLength(1);
  return found[0]!;
};

/** The command the console sends for an answer to request q1 of session s1. */
const respondWith = (answer: Record<string, unknown>, capture: string) => ({
  aep: '0.1',
  id: ID,
  type: 'control.attention.respond',
  time: '2026-12-06T02:00:00.000Z',
  source: 'aep://console.test/operator/aep-console',
  agent: 'aep-console',
  session: 's1',
  subject: 'q1',
  cause: 'q1',
  capture,
  data: { answer },
});

describe('a click on a permission card sends the answer the button names', () => {
  it('Deny sends a deny, and only that (the command in full)', () => {
    const { sent, page, c } = consoleWith(PERMISSION);
    const deny = button(page, 'Deny');
    expect(deny.getAttribute('class')).toBe('danger');
    deny.click();
    expect(sent).toEqual([respondWith({ option: 'deny' }, 'metadata')]);
    // Keyboard focus goes to the inbox heading (no other card), never to nowhere.
    expect(doc.activeElement?.getAttribute('id')).toBe('inbox-h');
    // The card records it as sent to the request, awaiting the relay's word.
    expect(c.model.commandFor('r0', 'q1')).toMatchObject({ id: ID, relay: 'r0', session: 's1', type: 'control.attention.respond', target: 'q1', state: 'sent', sentAt: NOW, ackWindowMs: 10_000 });
  });

  it('Allow sends an allow', () => {
    const { sent, page } = consoleWith(PERMISSION);
    const allow = button(page, 'Allow');
    expect(allow.getAttribute('class')).toBe('primary');
    allow.click();
    expect(sent).toEqual([respondWith({ option: 'allow' }, 'metadata')]);
  });

  it('an option with another name sends that name', () => {
    const { sent, page } = consoleWith({ kind: 'permission', options: [{ id: 'allow_always', label: 'Always' }, { id: 'reject_once', label: 'Reject' }] });
    button(page, 'Reject').click();
    button(page, 'Always').click();
    expect(sent).toEqual([respondWith({ option: 'reject_once' }, 'metadata'), respondWith({ option: 'allow_always' }, 'metadata')]);
  });

  it('a refused socket sends nothing and the card says the command was not sent', () => {
    const { c, page, sent } = consoleWith(PERMISSION);
    c.clients.set('r0', { send: () => false } as unknown as RelayClient);
    button(page, 'Deny').click();
    expect(sent).toEqual([]);
    expect(c.model.commandFor('r0', 'q1')).toMatchObject({ state: 'nacked', reason: 'not-connected', by: 'relay' });
  });
});

describe('the command builders under the console identity', () => {
  const base = { id: 'c1', time: '2026-12-06T02:00:00Z', host: 'h.example', session: 's9' };
  it('respond: text and values ride at redacted, an option at metadata', () => {
    expect(respond(base, 'q7', { text: 'not now' })).toEqual({ aep: '0.1', id: 'c1', type: 'control.attention.respond', time: '2026-12-06T02:00:00Z', source: 'aep://h.example/operator/aep-console', agent: 'aep-console', session: 's9', subject: 'q7', cause: 'q7', capture: 'redacted', data: { answer: { text: 'not now' } } });
  });
  it('cancel names the run, with the console reason', () => {
    expect(cancel(base, 'run-1')).toEqual({ aep: '0.1', id: 'c1', type: 'control.cancel', time: '2026-12-06T02:00:00Z', source: 'aep://h.example/operator/aep-console', agent: 'aep-console', session: 's9', run: 'run-1', capture: 'redacted', data: { scope: 'run', reason: 'cancelled from the console' } });
    expect(cancel(base, undefined)).toEqual({ aep: '0.1', id: 'c1', type: 'control.cancel', time: '2026-12-06T02:00:00Z', source: 'aep://h.example/operator/aep-console', agent: 'aep-console', session: 's9', capture: 'redacted', data: { scope: 'session', reason: 'cancelled from the console' } });
  });
  it('steer: a run scope with the run, a session scope without one', () => {
    expect(steer(base, 'control.pause', 'run-1')).toEqual({ aep: '0.1', id: 'c1', type: 'control.pause', time: '2026-12-06T02:00:00Z', source: 'aep://h.example/operator/aep-console', agent: 'aep-console', session: 's9', run: 'run-1', capture: 'metadata', data: { scope: 'run' } });
    expect(steer(base, 'control.resume', undefined)).toEqual({ aep: '0.1', id: 'c1', type: 'control.resume', time: '2026-12-06T02:00:00Z', source: 'aep://h.example/operator/aep-console', agent: 'aep-console', session: 's9', capture: 'metadata', data: { scope: 'session' } });
  });
});
