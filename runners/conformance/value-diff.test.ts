import { describe, expect, it } from 'vitest';
import { isFreeTextPath, renderDiffs, showValue, valueDiffs } from './value-diff.js';

describe('valueDiffs', () => {
  it('lists every differing member with its path and both values, "absent" for a missing one', () => {
    const d = valueDiffs({ type: 't', data: { a: 1, b: [1, 2], c: 'x' } }, { type: 't', data: { a: 2, b: [1], d: true } });
    expect(renderDiffs(d)).toBe('$.data.a: expected 1, got 2; $.data.b[1]: expected 2, got absent; $.data.c: expected "x", got absent; $.data.d: expected absent, got true');
    expect(renderDiffs(d)).not.toContain('undefined');
  });
  it('ignores member order, and equal values differ by nothing', () => {
    expect(valueDiffs({ a: 1, b: { c: [1, { d: 2 }] } }, { b: { c: [1, { d: 2 }] }, a: 1 })).toEqual([]);
  });
  it('compares free text by presence, not wording', () => {
    const opts = { freeText: isFreeTextPath };
    expect(valueDiffs({ data: { prompt: 'Allow Bash?' } }, { data: { prompt: 'May I run Bash?' } }, opts)).toEqual([]);
    expect(renderDiffs(valueDiffs({ data: { prompt: 'Allow Bash?' } }, { data: {} }, opts))).toBe('$.data.prompt: expected "Allow Bash?", got absent');
    expect(valueDiffs({ data: { kind: 'permission' } }, { data: { kind: 'form' } }, opts)).toHaveLength(1);
  });
  it('names keys that are not identifiers in brackets, and cuts long values', () => {
    expect(renderDiffs(valueDiffs({ 'gen_ai.request.model': 'a' }, {}))).toBe('$["gen_ai.request.model"]: expected "a", got absent');
    expect(showValue('x'.repeat(200))).toHaveLength(120);
  });
});
