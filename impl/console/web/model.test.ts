import { describe, expect, it } from 'vitest';
import { ConsoleModel } from './model.js';

const ev = (seq: number | undefined, type: string, extra: Record<string, unknown> = {}) => ({ aep: '0.1', id: `e-${seq ?? type}`, type, time: `2026-01-01T00:00:${String(seq ?? 59).padStart(2, '0')}Z`, source: 's', agent: 'a', session: 's1', ...(seq === undefined ? {} : { seq }), ...extra });

describe('console model', () => {
  it('drops what a resume re-sends, per relay and stream, and resumes from the positions it holds', () => {
    const m = new ConsoleModel();
    m.addRelay('r0', 'http://a');
    m.addRelay('r1', 'http://b');
    expect(m.resumeFrom('r0', 'lanes')).toBeUndefined();
    for (const s of [0, 1, 2]) expect(m.laneEvent('r0', ev(s, 'agent.output'))).toBe(true);
    expect(m.laneEvent('r0', ev(1, 'agent.output'))).toBe(false);
    expect(m.laneEvent('r0', ev(undefined, 'control.cancel'))).toBe(true);
    expect(m.laneEvent('r0', ev(undefined, 'control.cancel'))).toBe(false);
    expect(m.laneEvent('r1', ev(1, 'agent.output'))).toBe(true);
    expect(m.resumeFrom('r0', 'lanes')).toEqual([{ session: 's1', epoch: 0, seq: 2 }]);
    expect(m.resumeFrom('r0', 'inbox')).toBeUndefined();
    expect(m.duplicates).toBe(2);
    m.laneGap('r0', 's1', { epoch: 0, seq: 9 });
    expect(m.lanes.get('r0\u0000s1')!.items.map((i) => (i.kind === 'gap' ? 'gap' : i.event.seq ?? '-'))).toEqual([0, 1, 2, '-', 'gap']);
  });

  it('opens and closes requests from the inbox stream, oldest first, and marks a gone owner', () => {
    const m = new ConsoleModel();
    m.addRelay('r0', 'http://a');
    m.inboxEvent('r0', ev(1, 'attention.requested', { id: 'q1' }));
    m.inboxEvent('r0', ev(2, 'attention.requested', { id: 'q2' }));
    expect(m.inbox().map((r) => r.event.id)).toEqual(['q1', 'q2']);
    expect(m.owner('r0', 's1')).toBe('unknown');
    m.setRosterSupport('r0', 'advertised');
    m.setLink('r0', 'socket', { state: 'live' });
    m.setRoster('r0', [{ session: 'other', control: { accepts: ['control.cancel'], ack_window_ms: 500 } }]);
    expect(m.owner('r0', 's1')).toBe('gone');
    expect(m.triage()).toMatchObject({ answerable: [], elsewhere: [{ key: 'r0\u0000s1\u0000q1' }, { key: 'r0\u0000s1\u0000q2' }] });
    m.setRoster('r0', [{ session: 's1' }]);
    expect(m.owner('r0', 's1')).toBe('yes');
    m.setRoster('r0', [{ session: 's1', instance: 'a' }, { session: 's1', instance: 'b' }]);
    expect(m.owner('r0', 's1')).toBe('ambiguous');
    expect(m.claims('r0', 's1').map((c) => c.instance)).toEqual(['a', 'b']);
    m.inboxEvent('r0', ev(3, 'attention.answered', { subject: 'q2' }));
    m.inboxEvent('r0', ev(4, 'session.ended'));
    expect(m.inbox()).toEqual([]);
    expect(m.closed().map((r) => [r.event.id, r.status])).toEqual([['q2', 'answered'], ['q1', 'ended']]);
  });

  it('never shows open a request settled anywhere in its history, even when the settling event came first', () => {
    const m = new ConsoleModel();
    m.addRelay('r0', 'http://a');
    m.inboxEvent('r0', ev(5, 'attention.answered', { subject: 'late', data: { answer: { option: 'allow' } } }));
    m.inboxEvent('r0', ev(6, 'attention.resolved', { subject: 'late', data: { resolution: 'answered' } }));
    m.inboxEvent('r0', { ...ev(undefined, 'attention.requested'), id: 'late' });
    expect(m.inbox()).toEqual([]);
    expect(m.closed()[0]).toMatchObject({ status: 'resolved', answered: { type: 'attention.answered' } });
  });

  it('treats a relay without a roster as no-roster: its requests stay answerable', () => {
    const m = new ConsoleModel();
    m.addRelay('r0', 'http://a');
    m.setRosterSupport('r0', 'absent');
    m.inboxEvent('r0', ev(1, 'attention.requested', { id: 'q1' }));
    expect(m.owner('r0', 's1')).toBe('no-roster');
    expect(m.triage().answerable).toHaveLength(1);
  });

  it('settles commands only from what the relay and the target say, and times them out', () => {
    const m = new ConsoleModel();
    m.addRelay('r0', 'http://a');
    const base = { relay: 'r0', session: 's1', type: 'control.cancel', target: 'run1', sentAt: 1000, ackWindowMs: 500 };
    m.sent({ id: 'c1', ...base });
    m.sent({ id: 'c2', ...base });
    m.sent({ id: 'c3', ...base });
    m.inboxEvent('r0', ev(1, 'control.accepted', { cause: 'c1' }));
    expect(m.commands.get('c1')!.state).toBe('accepted');
    m.inboxEvent('r0', ev(2, 'run.cancelled', { cause: 'c1' }));
    expect(m.commands.get('c1')).toMatchObject({ state: 'done', outcome: 'run.cancelled' });
    m.inboxEvent('r0', ev(3, 'control.rejected', { cause: 'c2', data: { reason: 'refused', detail: 'run over' } }));
    expect(m.commands.get('c2')).toMatchObject({ state: 'nacked', reason: 'refused', detail: 'run over', by: 'target' });
    m.tick(1400);
    expect(m.commands.get('c3')!.state).toBe('sent');
    m.tick(1600);
    expect(m.commands.get('c3')).toMatchObject({ state: 'timeout', detail: 'no acknowledgement within 500 ms' });
    m.sent({ id: 'c4', ...base });
    m.socketError('r0', { type: 'error', code: 'no-route', detail: 'no owner', cause: 'c4' });
    expect(m.commands.get('c4')).toMatchObject({ state: 'nacked', reason: 'no-route', by: 'relay' });
    expect(m.commandFor('r0', 'run1')!.id).toBe('c4');
  });
});
