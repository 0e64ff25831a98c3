/**
 * The filter's refusals as a subscriber reads them (rule, path and the whole message: what,
 * where and how to fix), its term count and the matching edges both matchers must share.
 */
import { describe, expect, it } from 'vitest';
import { attrMatch, compileFilter, filterIssues, filterTerms, MAX_FILTER_TERMS, validateFilter } from './filter.js';

const only = (filter: unknown) => filterIssues(filter).map((i) => [i.rule, i.section, i.path, i.message]);

describe('filter refusals, word for word', () => {
  it('a filter that is not an object names what it got', () => {
    const msg = (got: string) => `a filter must be a JSON object, got ${got}; use {} to match every event`;
    expect(only(null)).toEqual([['filter.object', 'AEP-0003 §6.1', '$', msg('null')]]);
    expect(validateFilter([])).toBe(msg('an array'));
    expect(validateFilter('x')).toBe(msg('string "x"'));
    expect(validateFilter(1.5)).toBe(msg('the non-integer 1.5'));
    expect(validateFilter(3)).toBe(msg('number 3'));
    expect(validateFilter({})).toBeNull();
  });

  it('keys: never-filterable core names and data, then illegal extension names', () => {
    expect(only({ time: 'x', data: 1 })).toEqual([
      ['filter.key', 'AEP-0003 §6.1', '$.time', 'filter key "time" is not filterable: time, seq, aep, traceparent and data are never filter keys (AEP-0003 §6.2); remove it'],
      ['filter.key', 'AEP-0003 §6.1', '$.data', 'filter key "data" is not filterable: time, seq, aep, traceparent and data are never filter keys (AEP-0003 §6.2); remove it'],
    ]);
    expect(only({ 'Bad-Key': 'x' })).toEqual([
      ['filter.key', 'AEP-0003 §6.1', '$["Bad-Key"]', 'filter key "Bad-Key" is neither a filterable attribute nor a legal extension name ([a-z0-9]{1,20}); fix the spelling or remove it'],
    ]);
    expect(only({ a23456789012345678901: 'x' })[0]?.[0]).toBe('filter.key');
    expect(only({ a2345678901234567890: 'x', x1: true })).toEqual([]);
  });

  it('predicates: lists, non-scalars and non-integers', () => {
    expect(only({ session: [] })).toEqual([
      ['filter.empty-list', 'AEP-0003 §6.1', '$.session', 'filter key "session" has an empty list, which would match nothing; list at least one value or remove the key'],
    ]);
    expect(only({ session: ['ok', { a: 1 }, null, 2.5] })).toEqual([
      ['filter.predicate', 'AEP-0003 §6.1', '$.session[1]', 'filter key "session" has an object; a predicate is a string, integer or boolean, or a non-empty list of them'],
      ['filter.predicate', 'AEP-0003 §6.1', '$.session[2]', 'filter key "session" has null; a predicate is a string, integer or boolean, or a non-empty list of them'],
      ['filter.predicate', 'AEP-0003 §6.1', '$.session[3]', 'filter key "session" has the non-integer 2.5; a predicate is a string, integer or boolean, or a non-empty list of them'],
    ]);
    expect(only({ step: [[1]] })[0]?.[3]).toBe('filter key "step" has an array; a predicate is a string, integer or boolean, or a non-empty list of them');
    expect(only({ step: 3, x: false, session: ['a', 'b'] })).toEqual([]);
  });

  it('globs only on type, and only as a prefix followed by ".*"', () => {
    expect(only({ session: 's*' })).toEqual([
      ['filter.glob', 'AEP-0003 §6.1', '$.session', 'filter key "session" has the pattern "s*"; patterns are allowed only on "type", use exact values here'],
    ]);
    const malformed = (p: string) => `type pattern "${p}" is malformed; write a prefix followed by ".*" (e.g. "attention.*"), and omit the key to match every type`;
    expect(only({ type: ['a.*', '*', 'a*', '.*', 'a.*.*', 'x.*y', '*x.*'] })).toEqual([
      ['filter.type-pattern', 'AEP-0003 §6.1', '$.type[1]', malformed('*')],
      ['filter.type-pattern', 'AEP-0003 §6.1', '$.type[2]', malformed('a*')],
      ['filter.type-pattern', 'AEP-0003 §6.1', '$.type[3]', malformed('.*')],
      ['filter.type-pattern', 'AEP-0003 §6.1', '$.type[4]', malformed('a.*.*')],
      ['filter.type-pattern', 'AEP-0003 §6.1', '$.type[5]', malformed('x.*y')],
      ['filter.type-pattern', 'AEP-0003 §6.1', '$.type[6]', malformed('*x.*')],
    ]);
  });

  it('severity and capture take level names only', () => {
    const sev = 'is unknown; use one of debug, info, notice, warning, error, critical';
    const cap = 'is unknown; use one of none, metadata, redacted, full';
    expect(only({ severity: ['loud', 3, true], capture: ['all', 1] })).toEqual([
      ['filter.severity', 'AEP-0003 §6.1', '$.severity[0]', `severity "loud" ${sev}`],
      ['filter.severity', 'AEP-0003 §6.1', '$.severity[1]', `severity number 3 ${sev}`],
      ['filter.severity', 'AEP-0003 §6.1', '$.severity[2]', `severity boolean true ${sev}`],
      ['filter.capture', 'AEP-0003 §6.1', '$.capture[0]', `capture "all" ${cap}`],
      ['filter.capture', 'AEP-0003 §6.1', '$.capture[1]', `capture number 1 ${cap}`],
    ]);
    expect(only({ severity: 'error', capture: 'full' })).toEqual([]);
  });

  it('a severity comparison: not empty, gte/lte only, known levels only', () => {
    expect(only({ severity: {} })).toEqual([
      ['filter.severity-cmp', 'AEP-0003 §6.1', '$.severity', 'severity comparison is empty; give "gte", "lte" or both'],
    ]);
    expect(only({ severity: { gt: 'info', gte: 'nope', lte: 4 } })).toEqual([
      ['filter.severity-cmp', 'AEP-0003 §6.1', '$.severity.gt', '"gt" is not a severity operator; use "gte" and/or "lte" (inclusive bounds)'],
      ['filter.severity', 'AEP-0003 §6.1', '$.severity.gte', 'severity bound string "nope" is unknown; use one of debug, info, notice, warning, error, critical'],
      ['filter.severity', 'AEP-0003 §6.1', '$.severity.lte', 'severity bound number 4 is unknown; use one of debug, info, notice, warning, error, critical'],
    ]);
    expect(only({ severity: { gte: 'info', lte: 'error' } })).toEqual([]);
    // A comparison is for severity only; elsewhere an object is a bad predicate.
    expect(only({ session: { gte: 'a' } })[0]?.[0]).toBe('filter.predicate');
  });
});

describe('filter terms (the subscription size limit)', () => {
  it('counts members, list entries and comparison operators; an empty list or comparison counts one', () => {
    expect(filterTerms(null)).toBe(0);
    expect(filterTerms([1, 2])).toBe(0);
    expect(filterTerms({})).toBe(0);
    expect(filterTerms({ a: 'x', b: ['1', '2', '3'], severity: { gte: 'info', lte: 'error' } })).toBe(6);
    expect(filterTerms({ a: [], severity: {} })).toBe(2);
  });

  it('stops counting once past the limit', () => {
    const big = { a: Array.from({ length: MAX_FILTER_TERMS + 5 }, (_, i) => `v${i}`), b: Array.from({ length: 50 }, (_, i) => `w${i}`) };
    expect(filterTerms(big)).toBe(MAX_FILTER_TERMS + 5);
    expect(filterTerms({ a: Array.from({ length: MAX_FILTER_TERMS }, (_, i) => `v${i}`) })).toBe(MAX_FILTER_TERMS);
  });
});

describe('matching edges, the same for attrMatch and compileFilter', () => {
  const both = (filter: unknown, event: Record<string, unknown>) => {
    const a = attrMatch(filter, event);
    expect(compileFilter(filter)(event)).toBe(a);
    return a;
  };

  it('a type pattern needs at least one character after the prefix', () => {
    expect(both({ type: 'tool.*' }, { type: 'tool.call' })).toBe(true);
    expect(both({ type: 'tool.*' }, { type: 'tool.' })).toBe(false);
    expect(both({ type: 'tool.*' }, { type: 'toolx' })).toBe(false);
    expect(both({ type: 'tool.*' }, { type: 'tool.*' })).toBe(true);
    expect(both({ type: ['a.b', 'tool.*'] }, { type: 'a.b' })).toBe(true);
    expect(both({ type: 'tool.*' }, { type: 5 })).toBe(false);
  });

  it('defaults apply only to severity, capture and epoch; an absent attribute never matches', () => {
    expect(both({ severity: 'info', capture: 'metadata', epoch: 0 }, {})).toBe(true);
    expect(both({ severity: { lte: 'info' } }, {})).toBe(true);
    expect(both({ severity: { gte: 'notice' } }, {})).toBe(false);
    expect(both({ session: 's' }, {})).toBe(false);
    expect(both({ constructor: 'x' }, {})).toBe(false);
    expect(both({ epoch: 0 }, { epoch: 1 })).toBe(false);
  });

  it('a severity band is inclusive at both ends; an unknown event severity is outside every band', () => {
    const band = { severity: { gte: 'notice', lte: 'error' } };
    expect(['debug', 'info', 'notice', 'warning', 'error', 'critical'].map((s) => both(band, { severity: s }))).toEqual([false, false, true, true, true, false]);
    expect(both({ severity: { gte: 'debug' } }, { severity: 'critical' })).toBe(true);
    expect(both({ severity: { lte: 'critical' } }, { severity: 'debug' })).toBe(true);
    expect(both({ severity: { gte: 'debug' } }, { severity: 'loud' })).toBe(false);
  });

  it('an invalid filter matches nothing; an empty filter matches everything', () => {
    expect(both({ time: 'x' }, { time: 'x' })).toBe(false);
    expect(both({}, { type: 'a' })).toBe(true);
    expect(both({ session: 's', run: 'r' }, { session: 's', run: 'q' })).toBe(false);
    expect(both({ session: 's', run: 'r' }, { session: 's', run: 'r' })).toBe(true);
  });

  it('a compiled filter keeps the filter as it was when compiled', () => {
    const filter: Record<string, unknown> = { severity: { gte: 'error' } };
    const match = compileFilter(filter);
    (filter.severity as Record<string, unknown>).gte = 'debug';
    expect(match({ severity: 'info' })).toBe(false);
  });
});
