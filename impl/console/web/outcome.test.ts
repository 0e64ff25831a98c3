import { describe, expect, it } from 'vitest';
import type { Request } from './model.js';
import { outcomeText } from './outcome.js';

const options = [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }, { id: 'later', label: 'Ask later' }];
const req = (answer: unknown, closing?: Record<string, unknown>, data: Record<string, unknown> = { kind: 'permission', options }): Request => ({
  key: 'k', relay: 'r0', status: 'resolved', event: { type: 'attention.requested', data },
  answered: answer === undefined ? undefined : { type: 'attention.answered', data: { answer } },
  closedBy: closing ?? { type: 'attention.resolved', data: { resolution: 'answered' } },
});

describe('settled outcome text', () => {
  it('says allowed, denied with the words, another choice, and form values as received', () => {
    expect(outcomeText(req({ option: 'allow' }), undefined)).toBe('allowed');
    expect(outcomeText(req({ option: 'deny', text: 'not today' }), undefined)).toBe('denied: “not today”');
    expect(outcomeText(req({ option: 'deny' }), undefined)).toBe('denied');
    expect(outcomeText(req({ option: 'later' }), undefined)).toBe('chose "Ask later"');
    expect(outcomeText(req({ values: { n: 3, region: 'eu' } }, undefined, { kind: 'form', fields: [] }), undefined)).toBe('answered the form: n=3, region=eu');
    expect(outcomeText(req({}, undefined, { kind: 'form', fields: [{ id: 'n', type: 'number' }] }), 'metadata')).toBe("answered the form (its values are above this console's capture ceiling (metadata): withheld)");
  });

  it('reads data.resolution, timeouts and ended sessions', () => {
    expect(outcomeText(req(undefined, { type: 'attention.resolved', data: { resolution: 'dismissed' } }), undefined)).toBe('cancelled (dismissed by the agent)');
    expect(outcomeText(req(undefined, { type: 'attention.resolved', data: { resolution: 'auto' } }), undefined)).toBe('resolved by the agent on its own');
    expect(outcomeText(req(undefined, { type: 'attention.timeout', data: { after_ms: 5000 } }), undefined)).toBe('timed out after 5 s');
    expect(outcomeText(req(undefined, { type: 'session.ended' }), undefined)).toBe('cancelled: the session ended');
  });
});
