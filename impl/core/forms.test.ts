import { describe, expect, it } from 'vitest';
import { fieldIndex, freeTextKeys, gateFormValues, validateFormValues } from './forms.js';

const FIELDS = [
  { id: 'title', type: 'string', label: 'Title', required: true },
  { id: 'hours', type: 'number', label: 'Hours', min: 1, max: 8 },
  { id: 'paid', type: 'boolean', label: 'Paid?' },
  { id: 'crew', type: 'select', label: 'Crew', multi: true, choices: [{ id: 'c1', label: 'Ada' }, { id: 'c2', label: 'Bo' }] },
  { id: 'site', type: 'select', label: 'Site', choices: [{ id: 's1', label: 'North' }, { id: 's2', label: 'South' }] },
  { id: 'tool', type: 'select', label: 'Tool', other: true, choices: [{ id: 't1', label: 'Saw' }] },
];
const check = (values: unknown, opts = {}) => validateFormValues(FIELDS, values, opts).map((i) => `${i.rule} ${i.path}`);

describe('validateFormValues', () => {
  it('accepts a complete, well-typed answer', () => {
    expect(check({ title: 'fence', hours: 8, paid: false, crew: ['c1', 'c2'], site: 's2', tool: 'chisel' })).toEqual([]);
    expect(check({ title: 'fence', crew: [], tool: 't1' })).toEqual([]);
  });

  it('tolerates a lone choice id for a multi select, and free text array items with other:true', () => {
    const multiOther = [{ id: 'm', type: 'select', label: 'm', multi: true, other: true, choices: [{ id: 'a', label: 'a' }] }];
    expect(check({ title: 't', crew: 'c2' })).toEqual([]);
    expect(validateFormValues(multiOther, { m: ['a', 'free'] })).toEqual([]);
  });

  it('reports unknown keys and missing required fields', () => {
    expect(check({ hours: 2, colour: 'red' })).toEqual(['form.values.unknown $.data.answer.values.colour', 'form.values.required $.data.answer.values.title']);
    expect(check({ hours: 2 }, { checkRequired: false })).toEqual([]);
  });

  it('reports values of the wrong JSON type for their field', () => {
    expect(check({ title: 3, hours: '2', paid: 'yes', site: ['s1'], crew: [1], tool: null })).toEqual([
      'form.values.type $.data.answer.values.title',
      'form.values.type $.data.answer.values.hours',
      'form.values.type $.data.answer.values.paid',
      'form.values.type $.data.answer.values.site',
      'form.values.type $.data.answer.values.crew[0]',
      'form.values.type $.data.answer.values.tool',
    ]);
    expect(check({ title: 't', hours: Number.NaN })).toEqual(['form.values.type $.data.answer.values.hours']);
  });

  it('reports non-choice strings on closed selects, with the valid choices in the message', () => {
    const found = validateFormValues(FIELDS, { title: 't', site: 'East', crew: ['c1', 'c9'] });
    expect(found.map((i) => `${i.rule} ${i.path}`)).toEqual(['form.values.choice $.data.answer.values.site', 'form.values.choice $.data.answer.values.crew[1]']);
    expect(found[0]!.message).toContain('"s1", "s2"');
    expect(found[0]!.section).toBe('AEP-0006');
  });

  it('reports numbers outside min and max', () => {
    expect(check({ title: 't', hours: 0 })).toEqual(['form.values.range $.data.answer.values.hours']);
    expect(check({ title: 't', hours: 9 })).toEqual(['form.values.range $.data.answer.values.hours']);
  });

  it('uses the given path prefix and bracket-quotes odd keys', () => {
    const found = validateFormValues([{ id: 'a b', type: 'boolean', label: 'x' }], { 'a b': 1 }, { path: '$.values' });
    expect(found.map((i) => i.path)).toEqual(['$.values["a b"]']);
  });

  it('reports a non-object values map once and never throws on junk fields', () => {
    for (const v of [null, [], 'x', 4]) expect(check(v)).toEqual(['form.values.type $.data.answer.values']);
    expect(validateFormValues(null, { a: 1 }).map((i) => i.rule)).toEqual(['form.values.unknown']);
    expect(validateFormValues([null, 3, { id: 1 }, { id: 'z', type: 'color' }], { z: 'red' })).toEqual([]);
    expect(validateFormValues([{ id: 's', type: 'select', choices: 'nope' }], { s: 'x' }).map((i) => i.rule)).toEqual(['form.values.choice']);
  });
});

describe('fieldIndex', () => {
  it('keeps the first well-formed spec per id', () => {
    const index = fieldIndex([{ id: 'a', type: 'number' }, { id: 'a', type: 'string' }, { type: 'boolean' }]);
    expect([...index.entries()]).toEqual([['a', { id: 'a', type: 'number' }]]);
  });
});

describe('gateFormValues', () => {
  const values = { title: 'fence', hours: 3, paid: true, crew: ['c1'], site: 's1', tool: 'chisel' };

  it('keeps only structural values at metadata and none', () => {
    const structural = { hours: 3, paid: true, crew: ['c1'], site: 's1' };
    expect(gateFormValues(FIELDS, values, 'metadata')).toEqual(structural);
    expect(gateFormValues(FIELDS, values, 'none')).toEqual(structural);
  });

  it('keeps everything at redacted, passing free text (not choice ids) through redact', () => {
    const seen: string[] = [];
    const redact = (t: string) => (seen.push(t), `<${t}>`);
    expect(gateFormValues(FIELDS, values, 'redacted', redact)).toEqual({ ...values, title: '<fence>', tool: '<chisel>' });
    expect(seen).toEqual(['fence', 'chisel']);
    const multiOther = [{ id: 'm', type: 'select', multi: true, other: true, choices: [{ id: 'a' }] }];
    expect(gateFormValues(multiOther, { m: ['a', 'free'] }, 'redacted', (t) => t.toUpperCase())).toEqual({ m: ['a', 'FREE'] });
    expect(gateFormValues(multiOther, { m: ['a', 'free'] }, 'metadata')).toEqual({});
  });

  it('keeps free text verbatim at full and at redacted without a redact function', () => {
    expect(gateFormValues(FIELDS, values, 'full', () => 'X')).toEqual(values);
    expect(gateFormValues(FIELDS, values, 'redacted')).toEqual(values);
  });

  it('drops keys without a field spec at every ceiling, and mistyped values below redacted', () => {
    expect(gateFormValues(FIELDS, { hours: 'three', extra: 1 }, 'metadata')).toEqual({});
    expect(gateFormValues(FIELDS, { hours: 'three', extra: 1 }, 'full')).toEqual({ hours: 'three' });
  });

  it('does not modify its input and returns {} for a non-object', () => {
    const input = { title: 'x', hours: 2 };
    const out = gateFormValues(FIELDS, input, 'metadata');
    expect(input).toEqual({ title: 'x', hours: 2 });
    expect(out).not.toBe(input);
    expect(gateFormValues(FIELDS, ['x'], 'full')).toEqual({});
  });
});

describe('freeTextKeys', () => {
  it('names the keys whose values are user-authored text', () => {
    expect(freeTextKeys(FIELDS, { title: 'a', hours: 1, tool: 'saw', site: 's1', nope: 'x' })).toEqual(['title', 'tool']);
    expect(freeTextKeys(FIELDS, 'x')).toEqual([]);
  });
});
