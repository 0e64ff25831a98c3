/**
 * Audit of the attr-match dialect against AEP-0003 §6.1/§6.2 and AEP-0001 §5.1/§5.4, one
 * normative statement per block. Each test fails if the statement is violated.
 */
import { describe, expect, it } from 'vitest';
import { attrMatch, filterIssues, validateFilter } from './filter.js';

const ev = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  aep: '0.1', id: '01KAUDIT0000000000000000F1', type: 'tool.requested', time: '2026-03-04T05:06:07Z',
  source: 'aep://box-7/agent/lumen/session/q-17', agent: 'lumen', session: 'q-17', seq: 4, ...extra,
});

const valid = (filter: unknown): void => expect(validateFilter(filter), JSON.stringify(filter)).toBeNull();
const refused = (filter: unknown): void => expect(validateFilter(filter), JSON.stringify(filter)).toEqual(expect.any(String));

describe('§6.2 rule 1: allowed keys', () => {
  it.each(['id', 'type', 'subject', 'source', 'agent', 'session', 'run', 'step', 'epoch', 'cause', 'severity', 'capture'])(
    'filterable core attribute %s is accepted',
    (key) => valid({ [key]: key === 'epoch' ? 0 : key === 'severity' ? 'info' : key === 'capture' ? 'metadata' : 'v' }),
  );
  it.each(['time', 'seq', 'aep', 'traceparent', 'data'])('%s is never a filter key, whatever the predicate', (key) => {
    refused({ [key]: 'x' });
    refused({ [key]: 1 });
    refused({ [key]: ['x'] });
    expect(filterIssues({ [key]: 1 })[0]?.rule).toBe('filter.key');
  });
  it('a legal extension name is accepted even when no event carries it (validity is not a matching question)', () => {
    valid({ acmeteam: 'red' });
    valid({ a: 1 });
    valid({ '0': true });
    valid({ abcdefghij0123456789: 'x' }); // exactly 20
  });
  it.each([
    ['21 characters', 'abcdefghij0123456789x'],
    ['uppercase', 'AcmeTeam'],
    ['underscore', 'acme_team'],
    ['hyphen', 'acme-team'],
    ['dot', 'acme.team'],
    ['empty', ''],
    ['non-ASCII', 'équipe'],
    ['prototype name spelled with capitals', 'toString'],
  ])('an illegal extension key (%s) fails closed', (_why, key) => {
    refused({ [key]: 'x' });
    expect(attrMatch({ [key]: 'x' }, ev({ [key]: 'x' }))).toBe(false);
  });
  it('a non-object filter is refused', () => {
    for (const f of [null, [], 'type', 3, true]) refused(f);
  });
});

describe('§6.1 grammar: predicates', () => {
  it('scalars are JSON strings, integers or booleans; anything else is refused', () => {
    valid({ run: 'r1' });
    valid({ epoch: 3 });
    valid({ acmeflag: false });
    for (const p of [null, 1.5, {}, { eq: 'x' }, [['nested']], [null], [1.25]]) refused({ run: p });
  });
  it('inclusion arrays may mix scalar types', () => {
    valid({ acmeprio: ['high', 2, true] });
    expect(attrMatch({ acmeprio: ['high', 2, true] }, ev({ acmeprio: 2 }))).toBe(true);
    expect(attrMatch({ acmeprio: ['high', 2, true] }, ev({ acmeprio: true }))).toBe(true);
    expect(attrMatch({ acmeprio: ['high', 2, true] }, ev({ acmeprio: 'low' }))).toBe(false);
  });
  it('an empty inclusion array is refused', () => refused({ agent: [] }));
  it('a type pattern is refused on any key but type', () => {
    refused({ agent: 'lum*' });
    refused({ session: ['q-*'] });
    refused({ acmeteam: 'x.*' });
  });
  it('severity comparisons: gte, lte or both, with known levels only', () => {
    valid({ severity: { gte: 'notice' } });
    valid({ severity: { lte: 'warning' } });
    valid({ severity: { gte: 'info', lte: 'error' } });
    for (const cmp of [{}, { gt: 'info' }, { gte: 'loud' }, { gte: 'INFO' }, { gte: 2 }, { lte: null }, { gte: 'info', eq: 'info' }]) refused({ severity: cmp });
  });
  it('a comparison object is refused on any key but severity', () => {
    refused({ capture: { gte: 'metadata' } });
    refused({ epoch: { gte: 1 } });
  });
  it('severity and capture equality take level names only (an unknown level can never be meant)', () => {
    for (const p of ['urgent', 'Warning', 3, true, ['info', 'loud'], ['info', 2]]) refused({ severity: p });
    for (const p of ['secret', 'FULL', 0, false, ['none', 1]]) refused({ capture: p });
    valid({ severity: ['error', 'critical'] });
    valid({ capture: ['none', 'metadata'] });
  });
});

describe('§6.2 rule 2: exact JSON equality, no coercion', () => {
  it('"1" and 1 differ, in both directions', () => {
    expect(attrMatch({ epoch: '1' }, ev({ epoch: 1 }))).toBe(false);
    expect(attrMatch({ epoch: 1 }, ev({ epoch: 1 }))).toBe(true);
    expect(attrMatch({ acmeshard: 1 }, ev({ acmeshard: '1' }))).toBe(false);
    expect(attrMatch({ acmeshard: '1' }, ev({ acmeshard: '1' }))).toBe(true);
  });
  it('true and 1 differ; false and 0 differ', () => {
    expect(attrMatch({ acmeflag: true }, ev({ acmeflag: 1 }))).toBe(false);
    expect(attrMatch({ acmeflag: 0 }, ev({ acmeflag: false }))).toBe(false);
    expect(attrMatch({ acmeflag: false }, ev({ acmeflag: false }))).toBe(true);
  });
  it('"0" does not match the epoch default 0', () => {
    valid({ epoch: '0' });
    expect(attrMatch({ epoch: '0' }, ev())).toBe(false);
  });
  it('string comparison is case-sensitive', () => {
    expect(attrMatch({ agent: 'Lumen' }, ev())).toBe(false);
  });
  it('an inclusion array matches when any element matches, and only then', () => {
    expect(attrMatch({ agent: ['nova', 'lumen'] }, ev())).toBe(true);
    expect(attrMatch({ agent: ['nova', 'orbit'] }, ev())).toBe(false);
  });
});

describe('§6.2 rule 3: type patterns', () => {
  it('p.* matches types strictly beginning with "p."', () => {
    expect(attrMatch({ type: 'tool.*' }, ev())).toBe(true);
    expect(attrMatch({ type: 'tool.*' }, ev({ type: 'tool' }))).toBe(false);
    expect(attrMatch({ type: 'tool.*' }, ev({ type: 'toolbox.opened' }))).toBe(false);
    expect(attrMatch({ type: 'tool.*' }, ev({ type: 'x.tool.requested' }))).toBe(false);
  });
  it('patterns are multi-level and apply to vendor types', () => {
    expect(attrMatch({ type: 'run.step.*' }, ev({ type: 'run.step.started' }))).toBe(true);
    expect(attrMatch({ type: 'run.step.*' }, ev({ type: 'run.started' }))).toBe(false);
    expect(attrMatch({ type: 'x.acme.*' }, ev({ type: 'x.acme.tool.ran' }))).toBe(true);
    expect(attrMatch({ type: 'x.*' }, ev({ type: 'x.acme.tool.ran' }))).toBe(true);
  });
  it('"prefix" without .* is an exact type, not a prefix', () => {
    expect(attrMatch({ type: 'tool' }, ev())).toBe(false);
    expect(attrMatch({ type: 'tool.requested' }, ev())).toBe(true);
  });
  it('patterns compose with inclusion arrays, mixed with exact types', () => {
    const f = { type: ['attention.*', 'tool.requested'] };
    valid(f);
    expect(attrMatch(f, ev())).toBe(true);
    expect(attrMatch(f, ev({ type: 'attention.timeout' }))).toBe(true);
    expect(attrMatch(f, ev({ type: 'tool.completed' }))).toBe(false);
  });
  it.each(['*', ['*'], '.*', 'tool*', 'tool.*.started', '*.requested', ['tool.*', '*']])('%j is not a pattern and is refused', (p) => {
    refused({ type: p });
    expect(attrMatch({ type: p }, ev())).toBe(false);
  });
});

describe('§6.2 rule 4: severity comparison (inclusive, AEP-0001 §8.1 order)', () => {
  const at = (severity: string): Record<string, unknown> => ev({ severity });
  it('bounds are inclusive', () => {
    expect(attrMatch({ severity: { gte: 'warning' } }, at('warning'))).toBe(true);
    expect(attrMatch({ severity: { lte: 'warning' } }, at('warning'))).toBe(true);
    expect(attrMatch({ severity: { gte: 'warning', lte: 'warning' } }, at('warning'))).toBe(true);
  });
  it('the order is debug < info < notice < warning < error < critical', () => {
    const order = ['debug', 'info', 'notice', 'warning', 'error', 'critical'];
    for (const [i, level] of order.entries()) {
      for (const [j, bound] of order.entries()) {
        expect(attrMatch({ severity: { gte: bound } }, at(level)), `${level} gte ${bound}`).toBe(i >= j);
        expect(attrMatch({ severity: { lte: bound } }, at(level)), `${level} lte ${bound}`).toBe(i <= j);
      }
    }
  });
  it('an inverted band matches nothing', () => {
    expect(attrMatch({ severity: { gte: 'error', lte: 'notice' } }, at('warning'))).toBe(false);
  });
});

describe('§6.2 rule 5: absent attributes, defaults for severity, capture and epoch', () => {
  it('severity defaults to info before matching', () => {
    expect(attrMatch({ severity: 'info' }, ev())).toBe(true);
    expect(attrMatch({ severity: { gte: 'notice' } }, ev())).toBe(false);
    expect(attrMatch({ severity: { lte: 'info' } }, ev())).toBe(true);
    expect(attrMatch({ severity: ['debug', 'info'] }, ev())).toBe(true);
  });
  it('capture defaults to metadata before matching', () => {
    expect(attrMatch({ capture: 'metadata' }, ev())).toBe(true);
    expect(attrMatch({ capture: 'none' }, ev())).toBe(false);
    expect(attrMatch({ capture: ['redacted', 'metadata'] }, ev())).toBe(true);
  });
  it('epoch defaults to 0 before matching', () => {
    expect(attrMatch({ epoch: 0 }, ev())).toBe(true);
    expect(attrMatch({ epoch: 1 }, ev())).toBe(false);
    expect(attrMatch({ epoch: [2, 0] }, ev())).toBe(true);
  });
  it('a declared value wins over the default', () => {
    expect(attrMatch({ epoch: 0 }, ev({ epoch: 2 }))).toBe(false);
    expect(attrMatch({ capture: 'metadata' }, ev({ capture: 'full' }))).toBe(false);
    expect(attrMatch({ severity: 'info' }, ev({ severity: 'debug' }))).toBe(false);
  });
  it('any other absent attribute never matches, core or extension', () => {
    for (const key of ['subject', 'run', 'step', 'cause']) expect(attrMatch({ [key]: 'x' }, ev()), key).toBe(false);
    expect(attrMatch({ session: 'q-17' }, ev({ session: undefined }))).toBe(false);
    expect(attrMatch({ acmeteam: 'red' }, ev())).toBe(false);
  });
  it('an inherited object member is not an attribute the event carries', () => {
    valid({ constructor: 'x' });
    expect(attrMatch({ constructor: 'x' }, ev())).toBe(false);
    expect(attrMatch({ constructor: 'x' }, ev({ constructor: 'x' }))).toBe(true);
  });
});

describe('§6.1 conjunction and extension attributes', () => {
  it('{} matches every event, including agent-scoped ones', () => {
    expect(attrMatch({}, ev())).toBe(true);
    expect(attrMatch({}, { aep: '0.1', id: 'a1', type: 'agent.heartbeat', time: '2026-03-04T05:06:07Z', source: 'urn:x', agent: 'lumen' })).toBe(true);
  });
  it('every member must match', () => {
    const f = { agent: 'lumen', type: 'tool.*', acmeteam: 'red' };
    expect(attrMatch(f, ev({ acmeteam: 'red' }))).toBe(true);
    expect(attrMatch(f, ev({ acmeteam: 'blue' }))).toBe(false);
    expect(attrMatch(f, ev({ acmeteam: 'red', agent: 'nova' }))).toBe(false);
  });
  it('extension attributes match by exact value, integer and boolean included', () => {
    expect(attrMatch({ acmeteam: 'red', acmetier: 3, acmebeta: true }, ev({ acmeteam: 'red', acmetier: 3, acmebeta: true }))).toBe(true);
    expect(attrMatch({ acmetier: [1, 2] }, ev({ acmetier: 3 }))).toBe(false);
  });
  it('one bad member refuses the whole filter (fail closed, never match-all)', () => {
    refused({ agent: 'lumen', seq: 4 });
    expect(attrMatch({ agent: 'lumen', seq: 4 }, ev())).toBe(false);
  });
});
