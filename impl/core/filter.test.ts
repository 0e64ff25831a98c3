import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeWhenPresent } from '../test-utils/suites.js';
import { attrMatch, filterIssues, validateFilter } from './filter.js';
import { standardPath } from '../test-utils/standard.js';

interface Corpus {
  match: Array<{ name: string; rule?: string; filter: unknown; event: Record<string, unknown>; match: boolean }>;
  invalid: Array<{ name: string; rule?: string; filter: unknown }>;
}

function runCorpus(corpus: Corpus): void {
  for (const c of corpus.match) {
    it(`match: ${c.name}`, () => {
      expect(validateFilter(c.filter)).toBeNull();
      expect(attrMatch(c.filter, c.event)).toBe(c.match);
    });
  }
  for (const c of corpus.invalid) {
    it(`invalid: ${c.name}`, () => {
      expect(validateFilter(c.filter)).toEqual(expect.any(String));
      expect(attrMatch(c.filter, { type: 'run.started' })).toBe(false);
    });
  }
}

const ours = fileURLToPath(new URL('../../conformance/fixtures/attr-match/cases.json', import.meta.url));
describe('project attr-match corpus', () => {
  const corpus = JSON.parse(readFileSync(ours, 'utf8')) as Corpus;
  it('has at least 14 match and 10 invalid cases, each naming a rule', () => {
    expect(corpus.match.length).toBeGreaterThanOrEqual(14);
    expect(corpus.invalid.length).toBeGreaterThanOrEqual(10);
    for (const c of [...corpus.match, ...corpus.invalid]) expect(c.rule, c.name).toMatch(/^AEP-0003 §6/);
  });
  runCorpus(corpus);
});

const standard = standardPath('conformance', 'fixtures', 'attr-match', 'cases.json');
describeWhenPresent(standard, 'standard attr-match corpus', () => {
  runCorpus(JSON.parse(readFileSync(standard, 'utf8')) as Corpus);
});

describe('filter issues', () => {
  it('names the offending key with a stable rule id', () => {
    expect(filterIssues({ seq: 1, agent: [], severity: { gt: 'info' }, type: 'a*' })).toEqual([
      expect.objectContaining({ rule: 'filter.key', section: 'AEP-0003 §6.1', path: '$.seq' }),
      expect.objectContaining({ rule: 'filter.empty-list', path: '$.agent' }),
      expect.objectContaining({ rule: 'filter.severity-cmp', path: '$.severity.gt' }),
      expect.objectContaining({ rule: 'filter.type-pattern', path: '$.type' }),
    ]);
    expect(validateFilter({ NotAnAttr: 1 })).toMatch(/"NotAnAttr"/);
    expect(validateFilter(null)).toMatch(/got null/);
  });
  it('reports every bad element of a list with its index', () => {
    expect(filterIssues({ severity: ['info', 'loud', { gte: 'info' }] }).map((i) => [i.rule, i.path])).toEqual([
      ['filter.severity', '$.severity[1]'],
      ['filter.predicate', '$.severity[2]'],
    ]);
  });
  it('accepts the grammar exactly', () => {
    for (const f of [{}, { epoch: 0 }, { severity: ['debug', 'info'] }, { severity: { gte: 'info', lte: 'error' } }, { type: 'x.acme.*' }, { kestrel: true }]) {
      expect(validateFilter(f), JSON.stringify(f)).toBeNull();
    }
  });
  it('matches non-string event values only by equality', () => {
    expect(attrMatch({ type: 'tool.*' }, { type: 5 })).toBe(false);
    expect(attrMatch({ severity: { gte: 'info' } }, { type: 't', severity: 'loud' })).toBe(false);
    expect(attrMatch({ severity: { lte: 'info' } }, { type: 't', severity: 'debug' })).toBe(true);
  });
});

describe('FILTER_RULES', () => {
  it('lists exactly the rule ids the checks emit', async () => {
    const { FILTER_RULES } = await import('./filter.js');
    const bad: unknown[] = [7, { seq: 1 }, { agent: [] }, { run: null }, { agent: 'a*' }, { type: 'a*' }, { severity: 'x' }, { capture: 'x' }, { severity: { gt: 'info' } }];
    const emitted = new Set(bad.flatMap((f) => filterIssues(f).map((i) => i.rule)));
    expect([...emitted].sort()).toEqual([...FILTER_RULES].sort());
  });
});

describe('the project corpus catches broken filters', () => {
  const corpus = JSON.parse(readFileSync(ours, 'utf8')) as Corpus;
  it('fails a validator that accepts everything and a matcher that ignores defaults or globs', () => {
    expect(corpus.invalid.filter((c) => validateFilter(c.filter) === null).length).toBe(0);
    expect(corpus.invalid.length).toBeGreaterThan(0); // an accept-all validator fails every invalid case
    const noDefaults = (f: Record<string, unknown>, e: Record<string, unknown>) => Object.keys(f).every((k) => k in e) && attrMatch(f, e);
    const prefixGlob = (f: Record<string, unknown>, e: Record<string, unknown>) =>
      typeof f.type === 'string' && f.type.endsWith('*') ? String(e.type).startsWith(f.type.slice(0, -2)) : attrMatch(f, e);
    const wrong = (m: (f: Record<string, unknown>, e: Record<string, unknown>) => boolean) =>
      corpus.match.filter((c) => m(c.filter as Record<string, unknown>, c.event) !== c.match).length;
    expect(wrong((f, e) => attrMatch(f, e))).toBe(0);
    expect(wrong(noDefaults)).toBeGreaterThan(0);
    expect(wrong(prefixGlob)).toBeGreaterThan(0);
  });
});
