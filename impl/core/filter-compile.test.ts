/**
 * `compileFilter` (issue 14 defect 6): compiled once, same answers as `attrMatch` on both corpora
 * and on a grid of generated filters and events; `filterTerms` counts what `MAX_FILTER_TERMS` bounds.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_FILTER_TERMS, attrMatch, compileFilter, filterTerms } from './filter.js';

const ROOT = join(import.meta.dirname, '..', '..');
interface MatchCase { name: string; filter: unknown; event: Record<string, unknown>; match: boolean }
const corpora = [join(ROOT, 'conformance/fixtures/attr-match/cases.json'), join(ROOT, '..', 'shared/aep-standard/conformance/fixtures/attr-match/cases.json')].filter((p) => existsSync(p));

describe('compileFilter', () => {
  for (const file of corpora) {
    const cases = (JSON.parse(readFileSync(file, 'utf8')) as { match: MatchCase[]; invalid: Array<{ filter: unknown }> });
    it(`agrees with every expected answer of ${file.includes('shared') ? "the standard's" : 'our'} attr-match corpus`, () => {
      for (const c of cases.match) expect([c.name, compileFilter(c.filter)(c.event)]).toEqual([c.name, c.match]);
      for (const c of cases.invalid) expect(compileFilter(c.filter)({ type: 'a.b', session: 's' })).toBe(false);
    });
  }
  it('agrees with attrMatch over a grid of filters and events', () => {
    const values: Record<string, unknown[]> = {
      type: ['run.started', 'run.step.started', 'tool.completed', 'x.acme.run.thing', 7],
      session: ['a', 'b', undefined],
      severity: ['debug', 'warning', 'critical', undefined],
      capture: ['none', 'full', undefined],
      epoch: [0, 3, undefined],
      team: ['red', true, 4, undefined],
    };
    const predicates: Array<Record<string, unknown>> = [
      {}, { type: 'run.*' }, { type: ['run.step.*', 'tool.completed'] }, { type: 'run' }, { session: ['a', 'b'] }, { severity: { gte: 'warning' } },
      { severity: { lte: 'info' } }, { severity: 'info' }, { capture: 'metadata' }, { epoch: 0 }, { team: true }, { team: ['red', 4] },
      { type: 'x.*', session: 'a' }, { constructor: 'x' }, { type: '*' },
    ];
    let compared = 0;
    for (const filter of predicates) {
      const match = compileFilter(filter);
      for (const type of values.type!) for (const session of values.session!) for (const severity of values.severity!) for (const capture of values.capture!) for (const epoch of values.epoch!) for (const team of values.team!) {
        const event = Object.fromEntries(Object.entries({ type, session, severity, capture, epoch, team }).filter(([, v]) => v !== undefined));
        expect(match(event), `${JSON.stringify(filter)} on ${JSON.stringify(event)}`).toBe(attrMatch(filter, event));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });
  it('is a snapshot: changing the filter object later changes nothing', () => {
    const filter: Record<string, unknown> = { session: ['a'] };
    const match = compileFilter(filter);
    (filter.session as string[]).push('b');
    filter.type = 'zzz';
    expect([match({ session: 'a', type: 't.x' }), match({ session: 'b', type: 't.x' })]).toEqual([true, false]);
  });
});

describe('filterTerms', () => {
  it('counts members and list entries, and stops counting past the limit', () => {
    expect(filterTerms({})).toBe(0);
    expect(filterTerms({ type: 'a.*', session: ['a', 'b', 'c'], severity: { gte: 'info', lte: 'error' } })).toBe(6);
    const huge = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, 'v']));
    expect(filterTerms(huge)).toBe(MAX_FILTER_TERMS + 1);
    expect(filterTerms('not an object')).toBe(0);
  });
});
