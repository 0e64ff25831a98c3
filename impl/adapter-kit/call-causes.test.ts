import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../core/event.js';
import { CallCauses } from './call-causes.js';

const ev = (id: string, type: string, session: string, data: Record<string, unknown>): AepEvent => ({ aep: '0.1', id, type, source: 'aep://h/a', agent: 'a', time: '2026-12-02T00:00:00Z', session, data }) as AepEvent;
const tool = (call?: string) => ({ tool: { name: 'Bash', ...(call ? { call_id: call } : {}) } });

describe('CallCauses: a tool terminal without a cause names its request', () => {
  it('pairs by (session, call_id), keeps an explicit cause, forgets at the terminal and at session end', () => {
    const c = new CallCauses();
    c.note(ev('req-1', 'tool.requested', 's1', tool('c1')));
    c.note(ev('req-2', 'tool.requested', 's2', tool('c1'))); // the same call id in another session
    expect(c.causeFor('s1', { type: 'tool.completed', data: tool('c1') }, undefined)).toBe('req-1');
    expect(c.causeFor('s2', { type: 'tool.failed', data: tool('c1') }, undefined)).toBe('req-2');
    expect(c.causeFor('s1', { type: 'tool.denied', data: tool('c1') }, 'answer-9')).toBeUndefined();
    expect(c.causeFor('s1', { type: 'tool.completed', data: tool('nope') }, undefined)).toBeUndefined();
    expect(c.causeFor('s1', { type: 'tool.completed', data: tool() }, undefined)).toBeUndefined();
    expect(c.causeFor('s1', { type: 'progress.status', data: tool('c1') }, undefined)).toBeUndefined();
    c.note(ev('done-1', 'tool.completed', 's1', tool('c1')));
    expect(c.causeFor('s1', { type: 'tool.completed', data: tool('c1') }, undefined)).toBeUndefined();
    expect(c.size()).toBe(1);
    c.note(ev('end-2', 'session.ended', 's2', {}));
    expect(c.size()).toBe(0);
  });
});
