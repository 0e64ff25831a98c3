import { describe, expect, it } from 'vitest';
import { openRequests, renderInbox, shellWord } from './attention.js';
import { buildFilter } from './filter-flags.js';
import { formatEvent, oneLine } from './format.js';
import { advance, parseState, renderState, SeenIds, toFrom, type Positions } from './positions.js';

const base = { aep: '0.1', source: 'aep://h/a', agent: 'claude-code', session: 's1', time: '2026-01-01T10:20:30.456Z' };

describe('the readable line', () => {
  it('renders time, agent, session, position, type and a type-aware summary', () => {
    expect(formatEvent({ ...base, id: 'a', type: 'tool.failed', epoch: 3, seq: 7, run: 'r1', severity: 'warning', data: { tool: { name: 'Bash' }, error: { message: 'exit 1' } } })).toBe(
      '10:20:30.456  claude-code  s1  3:7  tool.failed  Bash error: exit 1 run r1 (warning)',
    );
    expect(formatEvent({ ...base, id: 'q1', type: 'attention.requested', seq: 2, data: { kind: 'permission', prompt: 'run\nrm -rf?', options: [{ id: 'allow' }, { id: 'deny' }] } })).toBe(
      '10:20:30.456  claude-code  s1  0:2  attention.requested  [permission] "run rm -rf?" options: allow/deny request q1',
    );
    expect(formatEvent({ id: 'x', type: 'control.cancel', session: 's', data: { scope: 'session' } })).toBe('--:--:--.---  -  s  -  control.cancel  scope session');
  });
  it('never spans lines and cuts long text', () => {
    expect(oneLine('a\r\nb\tc')).toBe('a b c');
    expect(oneLine('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(formatEvent({ type: 'x', data: null, session: 'a\nb' })).not.toContain('\n');
  });
});

describe('positions', () => {
  it('advances per session on (epoch, seq) only, never backwards, and round-trips the state file', () => {
    const m: Positions = Object.create(null);
    expect(advance(m, { session: 'a', epoch: 1, seq: 5 })).toBe(true);
    expect(advance(m, { session: 'a', epoch: 1, seq: 4 })).toBe(false);
    expect(advance(m, { session: 'a', epoch: 2, seq: 0 })).toBe(true);
    expect(advance(m, { session: '__proto__', seq: 1 })).toBe(true);
    expect(advance(m, { session: 'b' })).toBe(false);
    expect(toFrom(m)).toEqual([{ session: 'a', epoch: 2, seq: 0 }, { session: '__proto__', epoch: 0, seq: 1 }]);
    const back = parseState(renderState(m));
    expect(back.ok && toFrom(back.positions)).toEqual(toFrom(m));
    expect(parseState('nope')).toEqual({ ok: false, error: 'it is not JSON' });
    expect(parseState('{"positions":{"a":{"epoch":"1","seq":2}}}').ok).toBe(false);
  });
  it('drops redeliveries on (source, id)', () => {
    const s = new SeenIds(2);
    expect(s.first({ source: 'x', id: '1' })).toBe(true);
    expect(s.first({ source: 'x', id: '1' })).toBe(false);
    expect(s.first({ source: 'y', id: '1' })).toBe(true);
  });
});

describe('filter flags', () => {
  it('builds an attr-match filter, or takes a raw one, never both', () => {
    expect(buildFilter({ type: ['tool.*'], session: ['a', 'b'], severity: 'warning' })).toEqual({ ok: true, filter: { type: 'tool.*', session: ['a', 'b'], severity: { gte: 'warning' } } });
    expect(buildFilter({})).toEqual({ ok: true, filter: undefined });
    expect(buildFilter({ filter: '{"agent":"x"}' })).toEqual({ ok: true, filter: { agent: 'x' } });
    expect(buildFilter({ filter: '{"data":1}' }).ok).toBe(false);
    expect(buildFilter({ filter: '{', type: ['x'] })).toMatchObject({ ok: false, error: expect.stringContaining('give one or the other') });
    expect(buildFilter({ severity: 'loud' }).ok).toBe(false);
  });
});

describe('the inbox', () => {
  const req = (session: string, id: string, data: Record<string, unknown>) => ({ ...base, session, id, type: 'attention.requested', data });
  it('keeps requests not yet answered, resolved, timed out or ended, with the exact respond command', () => {
    const events = [
      req('s1', 'q1', { kind: 'permission', prompt: 'Bash: ls', options: [{ id: 'allow' }, { id: 'deny' }], respond_via: ['control'] }),
      req('s1', 'q2', { kind: 'input', prompt: 'name?' }),
      req('s2', 'q3', { kind: 'form', prompt: 'f', fields: [{ id: 'env' }] }),
      req('s3', 'q4', { kind: 'permission', prompt: 'p', respond_via: ['oob'] }),
      req('s4', 'q5', { kind: 'permission', prompt: 'p' }),
      { ...base, session: 's1', id: 'z', type: 'attention.resolved', subject: 'q2', data: { resolution: 'answered' } },
      { ...base, session: 's4', id: 'y', type: 'session.ended', data: {} },
    ];
    const open = openRequests(events, 'http://127.0.0.1:9999');
    expect(open.map((r) => r.id)).toEqual(['q1', 'q3', 'q4']);
    expect(open[0]!.commands).toEqual(['aep respond s1 q1 --option allow --relay http://127.0.0.1:9999', 'aep respond s1 q1 --option deny --relay http://127.0.0.1:9999']);
    expect(open[1]!.commands).toEqual([`aep respond s2 q3 --values '{"env":"…"}' --relay http://127.0.0.1:9999`]);
    expect(open[2]!.controllable).toBe(false);
    const text = renderInbox(openRequests(events));
    expect(text).toContain('3 open attention requests:');
    expect(text).toContain('  aep respond s1 q1 --option allow\n');
    expect(text).toContain('not answerable over control');
    expect(renderInbox([])).toBe('no open attention requests\n');
  });
  it('quotes shell words that need it', () => {
    expect(shellWord('abc-1:2')).toBe('abc-1:2');
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
  });
});
