/**
 * The console's state as the views read it, in whole (issue 37): lanes, requests, commands,
 * owners, and the version the page re-renders on.
 */
import { describe, expect, it } from 'vitest';
import { ConsoleModel, DEFAULT_ACK_WINDOW_MS, obj } from './model.js';

const ev = (seq: number | undefined, type: string, extra: Record<string, unknown> = {}) => ({ aep: '0.1', id: `e-${seq ?? type}`, type, time: `2026-01-01T00:00:${String(seq ?? 59).padStart(2, '0')}Z`, source: 's', agent: 'a', session: 's1', ...(seq === undefined ? {} : { seq }), ...extra });

const model = (): ConsoleModel => {
  const m = new ConsoleModel();
  m.addRelay('r0', 'http://a');
  return m;
};

describe('relays and links', () => {
  it('a new relay: connecting, roster pending, nothing held; each change moves the version by one', () => {
    const m = new ConsoleModel();
    expect(m.version).toBe(0);
    m.addRelay('r0', 'http://a');
    expect(m.version).toBe(1);
    expect(m.relays.get('r0')).toEqual({ id: 'r0', url: 'http://a', stream: { state: 'connecting' }, socket: { state: 'connecting' }, rosterSupport: 'pending', roster: undefined });
    expect(m.resumeFrom('r0', 'lanes')).toBeUndefined();
    expect(m.resumeFrom('nowhere', 'inbox')).toBeUndefined();
    m.setLink('r0', 'stream', { state: 'live' });
    m.setRosterSupport('r0', 'advertised');
    expect(m.version).toBe(3);
    m.setLink('nowhere', 'stream', { state: 'live' });
    m.setRosterSupport('nowhere', 'absent');
    m.setRoster('nowhere', []);
    m.setRoster('r0', 'not a list');
    expect(m.version).toBe(3);
    expect(m.relays.get('r0')).toMatchObject({ stream: { state: 'live' }, rosterSupport: 'advertised', roster: undefined });
  });

  it('the roster: claims by session, their accepts and ack window; a socket that is not live forgets it', () => {
    const m = model();
    m.setRosterSupport('r0', 'advertised');
    m.setRoster('r0', [{ session: 's1', agent: 'cc', instance: 'i1', control: { accepts: ['control.cancel', 3], ack_window_ms: 750 } }, { agent: 'no session' }, 'junk', { session: 's2', control: { accepts: 'x', ack_window_ms: '9' } }, { session: 's1' }]);
    expect(m.claims('r0', 's1')).toEqual([
      { session: 's1', agent: 'cc', instance: 'i1', accepts: ['control.cancel'], ackWindowMs: 750 },
      { session: 's1', agent: undefined, instance: undefined, accepts: [], ackWindowMs: undefined },
    ]);
    expect(m.claims('r0', 's2')).toEqual([{ session: 's2', agent: undefined, instance: undefined, accepts: [], ackWindowMs: undefined }]);
    expect(m.claims('r0', 'none')).toEqual([]);
    expect(m.claims('nowhere', 's1')).toEqual([]);
    expect([...m.relays.get('r0')!.roster!.keys()]).toEqual(['s1', 's2']);
    m.setLink('r0', 'stream', { state: 'down', detail: 'x' });
    expect(m.relays.get('r0')!.roster).toBeDefined();
    m.setLink('r0', 'socket', { state: 'live' });
    expect(m.relays.get('r0')!.roster).toBeDefined();
    m.setLink('r0', 'socket', { state: 'reconnecting', detail: 'lost' });
    expect(m.relays.get('r0')).toMatchObject({ socket: { state: 'reconnecting', detail: 'lost' }, roster: undefined });
  });

  it('owners: unknown until the roster is known, then yes, gone or ambiguous; no-roster when the relay has none', () => {
    const m = model();
    expect(m.owner('nowhere', 's1')).toBe('unknown');
    expect(m.owner('r0', 's1')).toBe('unknown');
    m.setRoster('r0', [{ session: 's1' }]);
    expect(m.owner('r0', 's1')).toBe('unknown');
    m.setRosterSupport('r0', 'advertised');
    expect(m.owner('r0', 's1')).toBe('yes');
    m.setLink('r0', 'socket', { state: 'down', detail: 'x' });
    expect(m.owner('r0', 's1')).toBe('unknown');
    m.setRosterSupport('r0', 'absent');
    expect(m.owner('r0', 's1')).toBe('no-roster');
  });
});

describe('lanes', () => {
  it('a lane follows its runs: started, paused, resumed, ended, another run ending, the session ending', () => {
    const m = model();
    const lane = () => {
      const l = m.lanes.get('r0\u0000s1')!;
      return { agent: l.agent, openRun: l.openRun, lastRunEnd: l.lastRunEnd, paused: l.paused, ended: l.ended, n: l.items.length };
    };
    expect(m.laneEvent('r0', ev(0, 'session.started', { agent: undefined }))).toBe(true);
    expect(lane()).toEqual({ agent: '-', openRun: undefined, lastRunEnd: undefined, paused: false, ended: false, n: 1 });
    m.laneEvent('r0', ev(1, 'run.started', { run: 'A' }));
    expect(lane()).toMatchObject({ agent: 'a', openRun: 'A' });
    m.laneEvent('r0', ev(2, 'run.started'));
    expect(lane()).toMatchObject({ openRun: 'A' });
    m.laneEvent('r0', ev(3, 'run.paused', { run: 'A' }));
    expect(lane()).toMatchObject({ paused: true });
    m.laneEvent('r0', ev(4, 'run.resumed', { run: 'A' }));
    expect(lane()).toMatchObject({ paused: false });
    m.laneEvent('r0', ev(5, 'run.paused', { run: 'A' }));
    m.laneEvent('r0', ev(6, 'run.failed', { run: 'B' }));
    expect(lane()).toEqual({ agent: 'a', openRun: 'A', lastRunEnd: { run: 'B', type: 'run.failed' }, paused: true, ended: false, n: 7 });
    m.laneEvent('r0', ev(7, 'run.completed'));
    expect(lane()).toMatchObject({ openRun: 'A', lastRunEnd: { run: 'B', type: 'run.failed' } });
    m.laneEvent('r0', ev(8, 'run.cancelled', { run: 'A' }));
    expect(lane()).toEqual({ agent: 'a', openRun: undefined, lastRunEnd: { run: 'A', type: 'run.cancelled' }, paused: false, ended: false, n: 9 });
    m.laneEvent('r0', ev(9, 'run.started', { run: 'C' }));
    m.laneEvent('r0', ev(10, 'run.paused', { run: 'C' }));
    m.laneEvent('r0', ev(11, 'run.finished.not', { run: 'C' }));
    expect(lane()).toMatchObject({ openRun: 'C', paused: true });
    m.laneEvent('r0', ev(12, 'session.ended'));
    expect(lane()).toEqual({ agent: 'a', openRun: undefined, lastRunEnd: { run: 'A', type: 'run.cancelled' }, paused: false, ended: true, n: 13 });
    m.laneEvent('r0', ev(13, 'run.started', { run: 'D', agent: 'b' }));
    expect(lane()).toMatchObject({ agent: 'a', openRun: 'D', ended: false });
  });

  it('duplicates are dropped and counted; an event without a session or on an unknown relay is not shown', () => {
    const m = model();
    const v = m.version;
    expect(m.laneEvent('r0', { ...ev(1, 'x'), session: undefined })).toBe(false);
    expect(m.version).toBe(v);
    expect(m.laneEvent('r0', ev(1, 'x'))).toBe(true);
    expect(m.laneEvent('r0', ev(1, 'x'))).toBe(false);
    expect(m.duplicates).toBe(1);
    expect(m.version).toBe(v + 2);
    expect(m.laneEvent('nowhere', ev(1, 'x'))).toBe(false);
    expect(m.lanes.has('nowhere\u0000s1')).toBe(false);
    expect(m.laneEvent('r0', { ...ev(undefined, 'x'), id: undefined })).toBe(true);
    expect(m.laneEvent('r0', { ...ev(undefined, 'x'), id: undefined })).toBe(true);
  });

  it('a new filter restarts this relay\'s lanes (positions and ids), and no other relay\'s', () => {
    const m = model();
    m.addRelay('r1', 'http://b');
    m.laneEvent('r0', ev(1, 'x'));
    m.laneEvent('r0', ev(undefined, 'control.cancel'));
    m.laneEvent('r1', ev(1, 'x'));
    const v = m.version;
    m.resetLanes('r0');
    expect(m.version).toBe(v + 1);
    expect([...m.lanes.keys()]).toEqual(['r1\u0000s1']);
    expect(m.resumeFrom('r0', 'lanes')).toBeUndefined();
    expect(m.resumeFrom('r1', 'lanes')).toEqual([{ session: 's1', epoch: 0, seq: 1 }]);
    expect(m.laneEvent('r0', ev(1, 'x'))).toBe(true);
    expect(m.laneEvent('r0', ev(undefined, 'control.cancel'))).toBe(true);
    expect(m.laneEvent('r1', ev(1, 'x'))).toBe(false);
  });

  it('a gap in a lane not seen yet opens the lane', () => {
    const m = model();
    const v = m.version;
    m.laneGap('r0', 's9', { epoch: 2, seq: 7 });
    expect(m.version).toBe(v + 1);
    expect(m.lanes.get('r0\u0000s9')).toEqual({ key: 'r0\u0000s9', relay: 'r0', session: 's9', agent: '-', items: [{ kind: 'gap', epoch: 2, seq: 7 }], openRun: undefined, lastRunEnd: undefined, paused: false, ended: false });
  });
});

describe('the inbox', () => {
  const req = (seq: number, id: string, extra: Record<string, unknown> = {}) => ev(seq, 'attention.requested', { id, ...extra });
  const status = (m: ConsoleModel) => [...m.requests.values()].map((r) => [r.event.id, r.status, r.closedBy?.type, r.answered?.type]);

  it('a request opens once; settling events close it, each its way', () => {
    const m = model();
    expect(m.inboxEvent('r0', { ...req(1, 'q1'), session: undefined })).toBe(false);
    expect(m.inboxEvent('r0', req(1, 'q1'))).toBe(true);
    expect(m.inboxEvent('r0', req(1, 'q1'))).toBe(false);
    m.inboxEvent('r0', { ...req(2, 'q1'), data: { again: true } });
    expect(m.requests.get('r0\u0000s1\u0000q1')!.event.data).toBeUndefined();
    m.inboxEvent('r0', req(3, 'q2'));
    m.inboxEvent('r0', req(4, 'q3'));
    m.inboxEvent('r0', req(5, 'q4'));
    m.inboxEvent('r0', { ...ev(6, 'attention.requested'), id: undefined });
    m.inboxEvent('r0', ev(7, 'attention.answered', { subject: 'q1' }));
    m.inboxEvent('r0', ev(8, 'attention.timeout', { subject: 'q2' }));
    m.inboxEvent('r0', ev(9, 'attention.resolved', { subject: 'q3' }));
    m.inboxEvent('r0', ev(10, 'attention.resolved'));
    m.inboxEvent('r0', ev(11, 'attention.answered', { subject: 'q9-unknown' }));
    expect(status(m)).toEqual([
      ['q1', 'answered', undefined, 'attention.answered'],
      ['q2', 'timeout', 'attention.timeout', undefined],
      ['q3', 'resolved', 'attention.resolved', undefined],
      ['q4', 'open', undefined, undefined],
    ]);
    m.inboxEvent('r0', ev(12, 'attention.resolved', { subject: 'q2' }));
    m.inboxEvent('r0', ev(13, 'attention.timeout', { subject: 'q3' }));
    m.inboxEvent('r0', ev(14, 'attention.timeout', { subject: 'q1' }));
    m.inboxEvent('r0', ev(15, 'attention.answered', { subject: 'q3' }));
    expect(status(m)).toEqual([
      ['q1', 'timeout', 'attention.timeout', 'attention.answered'],
      ['q2', 'resolved', 'attention.resolved', undefined],
      ['q3', 'resolved', 'attention.resolved', 'attention.answered'],
      ['q4', 'open', undefined, undefined],
    ]);
  });

  it('an answer or a closing that came first settles the request when it arrives', () => {
    const m = model();
    m.inboxEvent('r0', ev(1, 'attention.answered', { subject: 'qa' }));
    m.inboxEvent('r0', ev(2, 'attention.timeout', { subject: 'qt' }));
    m.inboxEvent('r0', ev(3, 'attention.answered', { subject: 'qb' }));
    m.inboxEvent('r0', ev(4, 'attention.timeout', { subject: 'qb' }));
    m.inboxEvent('r0', req(5, 'qa'));
    m.inboxEvent('r0', req(6, 'qt'));
    m.inboxEvent('r0', req(7, 'qb'));
    m.inboxEvent('r0', { ...req(8, 'qa'), session: 's2' });
    expect(status(m)).toEqual([
      ['qa', 'answered', undefined, 'attention.answered'],
      ['qt', 'timeout', 'attention.timeout', undefined],
      ['qb', 'timeout', 'attention.timeout', 'attention.answered'],
      ['qa', 'open', undefined, undefined],
    ]);
  });

  it('a session that ends closes its open requests on that relay only', () => {
    const m = model();
    m.addRelay('r1', 'http://b');
    m.inboxEvent('r0', req(1, 'q1'));
    m.inboxEvent('r0', req(2, 'q2'));
    m.inboxEvent('r0', { ...req(3, 'q3'), session: 's2' });
    m.inboxEvent('r1', req(1, 'q1'));
    m.inboxEvent('r0', ev(4, 'attention.resolved', { subject: 'q2' }));
    m.inboxEvent('r0', ev(5, 'session.ended'));
    expect([...m.requests.values()].map((r) => [r.relay, r.event.id, r.status, r.closedBy?.type])).toEqual([
      ['r0', 'q1', 'ended', 'session.ended'],
      ['r0', 'q2', 'resolved', 'attention.resolved'],
      ['r0', 'q3', 'open', undefined],
      ['r1', 'q1', 'open', undefined],
    ]);
  });

  it('open oldest first, closed newest first, answerable unless oob or its owner is gone', () => {
    const m = model();
    m.inboxEvent('r0', { ...req(1, 'late'), time: '2026-01-01T00:00:09Z' });
    m.inboxEvent('r0', { ...req(2, 'early'), time: '2026-01-01T00:00:01Z' });
    m.inboxEvent('r0', { ...req(3, 'none'), time: undefined });
    m.inboxEvent('r0', { ...req(4, 'oob'), time: '2026-01-01T00:00:05Z', data: { respond_via: ['oob'] } });
    expect(m.inbox().map((r) => r.event.id)).toEqual(['none', 'early', 'oob', 'late']);
    expect(m.triage()).toEqual({ answerable: m.inbox().filter((r) => r.event.id !== 'oob'), elsewhere: [m.requests.get('r0\u0000s1\u0000oob')] });
    m.setRosterSupport('r0', 'advertised');
    m.setRoster('r0', [{ session: 's1' }]);
    expect(m.triage().elsewhere.map((r) => r.event.id)).toEqual(['oob']);
    m.setRoster('r0', []);
    expect(m.triage()).toMatchObject({ answerable: [] });
    for (const [i, id] of ['late', 'early', 'none'].entries()) m.inboxEvent('r0', ev(10 + i, 'attention.resolved', { subject: id, id: `x-${id}` }));
    expect(m.closed().map((r) => r.event.id)).toEqual(['late', 'early', 'none']);
  });
});

describe('commands', () => {
  const base = { relay: 'r0', session: 's1', type: 'control.cancel', target: 'run1', sentAt: 1000, ackWindowMs: 500 };

  it('a command sent: recorded whole, with nothing settled', () => {
    const m = model();
    const v = m.version;
    m.sent({ id: 'c1', ...base });
    expect(m.version).toBe(v + 1);
    expect(m.commands.get('c1')).toEqual({ id: 'c1', ...base, state: 'sent', reason: undefined, detail: undefined, by: undefined, outcome: undefined });
    expect(DEFAULT_ACK_WINDOW_MS).toBe(10_000);
  });

  it('acks, nacks and outcomes from the target settle it; a relay\'s error only while it is in flight', () => {
    const m = model();
    m.addRelay('r1', 'http://b');
    for (const id of ['c1', 'c2', 'c3', 'c4', 'c5']) m.sent({ id, ...base });
    m.inboxEvent('r0', ev(1, 'run.cancelled', { cause: 'c1' }));
    m.inboxEvent('r0', ev(2, 'control.accepted', { cause: 'c1' }));
    m.inboxEvent('r0', ev(3, 'control.rejected', { cause: 'c2' }));
    m.inboxEvent('r0', ev(4, 'run.cancelled', { cause: 'c2' }));
    m.inboxEvent('r1', ev(1, 'control.accepted', { cause: 'c3' }));
    m.inboxEvent('r0', ev(5, 'control.other', { cause: 'c3' }));
    m.inboxEvent('r0', ev(6, 'run.paused'));
    const view = (id: string) => {
      const c = m.commands.get(id)!;
      return [c.state, c.reason, c.detail, c.by, c.outcome];
    };
    expect(view('c1')).toEqual(['done', undefined, undefined, undefined, 'run.cancelled']);
    expect(view('c2')).toEqual(['nacked', 'unknown', undefined, 'target', undefined]);
    expect(view('c3')).toEqual(['sent', undefined, undefined, undefined, undefined]);
    m.socketError('r1', { cause: 'c3', code: 'no-route' });
    m.socketError('r0', { cause: 'c1', code: 'no-route' });
    m.socketError('r0', { code: 'no-route' });
    expect(view('c3')).toEqual(['sent', undefined, undefined, undefined, undefined]);
    expect(view('c1')[0]).toBe('done');
    const v = m.version;
    m.socketError('r0', { cause: 'c3' });
    expect(m.version).toBe(v + 1);
    expect(view('c3')).toEqual(['nacked', 'error', undefined, 'relay', undefined]);
    m.socketError('r0', { cause: 'c4', code: 'ambiguous', detail: 'two owners' });
    expect(view('c4')).toEqual(['nacked', 'ambiguous', 'two owners', 'relay', undefined]);
  });

  it('a command unacknowledged past its window times out, not at the window itself', () => {
    const m = model();
    m.sent({ id: 'c1', ...base });
    m.sent({ id: 'c2', ...base, sentAt: 2000 });
    m.sent({ id: 'c3', ...base });
    m.inboxEvent('r0', ev(1, 'control.accepted', { cause: 'c3' }));
    const v = m.version;
    m.tick(1500);
    expect(m.version).toBe(v);
    expect(m.commands.get('c1')!.state).toBe('sent');
    m.tick(1501);
    expect(m.version).toBe(v + 1);
    expect(m.commands.get('c1')).toMatchObject({ state: 'timeout', reason: 'timeout', detail: 'no acknowledgement within 500 ms' });
    expect(m.commands.get('c2')!.state).toBe('sent');
    expect(m.commands.get('c3')!.state).toBe('accepted');
  });

  it('the latest command of a lane (steering, never an answer) and of a target', () => {
    const m = model();
    m.addRelay('r1', 'http://b');
    m.sent({ id: 'c1', ...base });
    m.sent({ id: 'c2', ...base, type: 'control.pause' });
    m.sent({ id: 'c3', ...base, type: 'control.attention.respond', target: 'q1' });
    m.sent({ id: 'c4', ...base, relay: 'r1' });
    m.sent({ id: 'c5', ...base, session: 's2' });
    expect(m.laneCommand('r0', 's1')?.id).toBe('c2');
    expect(m.laneCommand('r0', 's3')).toBeUndefined();
    expect(m.commandFor('r0', 'run1')?.id).toBe('c5');
    expect(m.commandFor('r0', 'q1')?.id).toBe('c3');
    expect(m.commandFor('r1', 'q1')).toBeUndefined();
  });
});

it('obj: a plain object, else an empty one', () => {
  expect([obj({ a: 1 }), obj([1]), obj(null), obj('x')]).toEqual([{ a: 1 }, {}, {}, {}]);
});

describe('edges of the model (survivors of the first run)', () => {
  it('a session or type that is not a string is no session or type', () => {
    const m = model();
    expect(m.laneEvent('r0', { ...ev(1, 'x'), session: 5 })).toBe(false);
    expect(m.inboxEvent('r0', { ...ev(1, 'attention.requested'), session: 5 })).toBe(false);
    expect(m.lanes.size + m.requests.size).toBe(0);
    expect(m.laneEvent('r0', ev(2, 'x'))).toBe(true);
    expect(m.lanes.get('r0\u0000s1')!.items).toEqual([{ kind: 'event', event: ev(2, 'x') }]);
  });

  it('only the exact run and attention types count', () => {
    const m = model();
    m.laneEvent('r0', ev(1, 'run.started', { run: 'A' }));
    m.laneEvent('r0', ev(2, 'xrun.completed', { run: 'A' }));
    expect(m.lanes.get('r0\u0000s1')!.openRun).toBe('A');
    m.inboxEvent('r0', ev(1, 'attention.requested', { id: 'q1' }));
    m.inboxEvent('r0', ev(2, 'x.attention.resolved', { subject: 'q1' }));
    m.inboxEvent('r0', ev(3, 'attention.resolved.later', { subject: 'q1' }));
    m.inboxEvent('r0', ev(4, 'control.accepted', { subject: 'q1' }));
    expect(m.requests.get('r0\u0000s1\u0000q1')!.status).toBe('open');
  });

  it('a new run is not paused; a lane and the inbox keep separate memories of unsequenced ids', () => {
    const m = model();
    m.laneEvent('r0', ev(1, 'run.started', { run: 'A' }));
    m.laneEvent('r0', ev(2, 'run.paused', { run: 'A' }));
    m.laneEvent('r0', ev(3, 'run.started', { run: 'B' }));
    expect(m.lanes.get('r0\u0000s1')).toMatchObject({ openRun: 'B', paused: false });
    expect(m.laneEvent('r0', ev(undefined, 'control.cancel'))).toBe(true);
    expect(m.inboxEvent('r0', ev(undefined, 'control.cancel'))).toBe(true);
    expect(m.inboxEvent('r0', ev(undefined, 'control.cancel'))).toBe(false);
  });

  it('a roster and an inbox event each move the version by one', () => {
    const m = model();
    let v = m.version;
    m.setRoster('r0', []);
    expect(m.version).toBe(++v);
    m.inboxEvent('r0', ev(1, 'x'));
    expect(m.version).toBe(++v);
  });

  it('respond_via naming control among others is answerable; an ended request stays ended', () => {
    const m = model();
    m.inboxEvent('r0', ev(1, 'attention.requested', { id: 'q1', data: { respond_via: ['oob', 'control'] } }));
    expect(m.triage().answerable.map((r) => r.event.id)).toEqual(['q1']);
    m.inboxEvent('r0', ev(2, 'session.ended'));
    m.inboxEvent('r0', ev(3, 'attention.timeout', { subject: 'q1' }));
    expect(m.requests.get('r0\u0000s1\u0000q1')).toMatchObject({ status: 'ended', closedBy: { type: 'session.ended' } });
  });

  it('closed requests without a time come last, wherever the sort meets them', () => {
    const m = model();
    const ids = ['n1', 't1', 'n2', 't2', 'n3'];
    for (const [i, id] of ids.entries()) m.inboxEvent('r0', ev(i, 'attention.requested', { id, time: id.startsWith('t') ? `2026-01-01T00:00:0${i}Z` : undefined }));
    for (const [i, id] of ids.entries()) m.inboxEvent('r0', ev(10 + i, 'attention.resolved', { subject: id }));
    expect(m.closed().map((r) => r.event.id).slice(0, 2)).toEqual(['t2', 't1']);
    m.inboxEvent('r0', ev(20, 'attention.requested', { id: 'o1', time: undefined }));
    m.inboxEvent('r0', ev(21, 'attention.requested', { id: 'o2', time: '2026-01-01T00:00:00Z' }));
    m.inboxEvent('r0', ev(22, 'attention.requested', { id: 'o3', time: undefined }));
    expect(m.inbox().map((r) => r.event.id).at(-1)).toBe('o2');
  });
});

it('the inbox remembers unsequenced ids per relay and session', () => {
  const m = model();
  m.addRelay('r1', 'http://b');
  const ack = { ...ev(undefined, 'control.accepted'), id: 'same' };
  expect(m.inboxEvent('r0', ack)).toBe(true);
  expect(m.inboxEvent('r0', { ...ack, session: 's2' })).toBe(true);
  expect(m.inboxEvent('r1', ack)).toBe(true);
  expect(m.inboxEvent('r0', ack)).toBe(false);
});
