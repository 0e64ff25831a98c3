/** Form answers as a responder reads the refusals: whole messages, range bounds, gating edges. */
import { describe, expect, it } from 'vitest';
import { fieldIndex, freeTextKeys, gateFormValues, validateFormValues } from './forms.js';

const FIELDS = [
  { id: 'title', type: 'string', required: true },
  { id: 'hours', type: 'number', min: 1, max: 8 },
  { id: 'paid', type: 'boolean' },
  { id: 'site', type: 'select', choices: [{ id: 's1' }, { id: 's2' }, { label: 'no id' }, 'bad'] },
  { id: 'crew', type: 'select', multi: true, choices: [{ id: 'c1' }] },
];
const messages = (values: unknown, fields: unknown = FIELDS) => validateFormValues(fields, values).map((i) => [i.rule, i.path, i.message]);

describe('form answer refusals, word for word', () => {
  it('values that are not an object', () => {
    const m = (got: string) => [['form.values.type', '$.data.answer.values', `answer.values must be an object mapping field ids to answers, got ${got}`]];
    expect(messages(null)).toEqual(m('null'));
    expect(messages([1])).toEqual(m('an array'));
    expect(messages('x')).toEqual(m('the string "x"'));
    expect(messages(7)).toEqual(m('number 7'));
  });

  it('an unknown key lists the field ids, or none', () => {
    expect(messages({ title: 't', nope: 1 })).toEqual([
      ['form.values.unknown', '$.data.answer.values.nope', '"nope" is not the id of any field of the request (field ids: "title", "hours", "paid", "site", "crew"); remove it or fix the id'],
    ]);
    expect(messages({ nope: 1 }, [])).toEqual([
      ['form.values.unknown', '$.data.answer.values.nope', '"nope" is not the id of any field of the request (field ids: none); remove it or fix the id'],
    ]);
  });

  it('a missing required field, unless required is off', () => {
    expect(messages({})).toEqual([
      ['form.values.required', '$.data.answer.values.title', 'required field "title" has no answer; a respond missing it must be nacked invalid'],
    ]);
    expect(validateFormValues(FIELDS, {}, { checkRequired: true })).toHaveLength(1);
    expect(validateFormValues([{ id: 'a', type: 'string', required: 'yes' }], {})).toEqual([]);
  });

  it('wrong types name the field, its type, what it needs and what came', () => {
    const long = 'x'.repeat(41);
    expect(messages({ title: { a: 1 }, hours: Infinity, paid: 'no', site: ['s1'], crew: [true] })).toEqual([
      ['form.values.type', '$.data.answer.values.title', 'field "title" is type string and needs a string, got an object'],
      ['form.values.type', '$.data.answer.values.hours', 'field "hours" is type number and needs a number, got number Infinity'],
      ['form.values.type', '$.data.answer.values.paid', 'field "paid" is type boolean and needs a boolean, got the string "no"'],
      ['form.values.type', '$.data.answer.values.site', 'field "site" is type select and needs a single choice id (the field is not multi), got an array'],
      ['form.values.type', '$.data.answer.values.crew[0]', 'field "crew" is type select and needs a choice id string, got boolean true'],
    ]);
    expect(messages({ title: long })).toEqual([]);
    expect(messages({ title: 't', paid: long })[0]?.[2]).toBe(`field "paid" is type boolean and needs a boolean, got the string "${'x'.repeat(40)}…"`);
    expect(messages({ title: 't', paid: 'x'.repeat(40) })[0]?.[2]).toBe(`field "paid" is type boolean and needs a boolean, got the string "${'x'.repeat(40)}"`);
    expect(messages({ title: 't', paid: null })[0]?.[2]).toBe('field "paid" is type boolean and needs a boolean, got null');
  });

  it('ranges are inclusive; outside says which bound', () => {
    expect(messages({ title: 't', hours: 1 })).toEqual([]);
    expect(messages({ title: 't', hours: 8 })).toEqual([]);
    expect(messages({ title: 't', hours: 0.5 })).toEqual([['form.values.range', '$.data.answer.values.hours', "0.5 is below the field's min 1"]]);
    expect(messages({ title: 't', hours: 8.5 })).toEqual([['form.values.range', '$.data.answer.values.hours', "8.5 is above the field's max 8"]]);
    expect(messages({ n: 5 }, [{ id: 'n', type: 'number', min: '9', max: '1' }])).toEqual([]);
  });

  it('a closed select lists only the well-formed choice ids', () => {
    expect(messages({ title: 't', site: 'east' })).toEqual([
      ['form.values.choice', '$.data.answer.values.site', '"east" is not a choice id of field "site" (choices: "s1", "s2") and the field does not allow other:true free text'],
    ]);
    expect(messages({ title: 't', site: 's2', crew: ['c1'] })).toEqual([]);
    expect(messages({ s: 'free' }, [{ id: 's', type: 'select', other: 'true', choices: [] }])[0]?.[0]).toBe('form.values.choice');
    expect(messages({ s: ['a'] }, [{ id: 's', type: 'select', multi: 'true', choices: [{ id: 'a' }] }])[0]?.[0]).toBe('form.values.type');
  });
});

describe('gating form answers by capture level', () => {
  it('structural values: numbers, booleans and choice ids only; an array with any non-choice is text', () => {
    const values = { hours: 3, paid: false, site: 's1', crew: ['c1', 'zz'], title: 'x' };
    expect(gateFormValues(FIELDS, values, 'metadata')).toEqual({ hours: 3, paid: false, site: 's1' });
    expect(gateFormValues(FIELDS, { crew: ['c1', 5] }, 'metadata')).toEqual({});
    expect(gateFormValues(FIELDS, { crew: 'c1' }, 'metadata')).toEqual({ crew: 'c1' });
    expect(gateFormValues(FIELDS, { paid: 'true', site: 3 }, 'metadata')).toEqual({});
    expect(freeTextKeys(FIELDS, values)).toEqual(['crew', 'title']);
    expect(freeTextKeys(FIELDS, { hours: 'x', paid: 1, site: 's2' })).toEqual(['hours', 'paid']);
  });

  it('at redacted only free-text strings pass through redact; a non-select string field redacts whatever it says', () => {
    const redact = (t: string) => `[${t}]`;
    expect(gateFormValues(FIELDS, { title: 's1', crew: ['c1', 'zz', 3] }, 'redacted', redact)).toEqual({ title: '[s1]', crew: ['c1', '[zz]', 3] });
    expect(gateFormValues(FIELDS, { title: 'a' }, 'full', redact)).toEqual({ title: 'a' });
    expect(gateFormValues(FIELDS, { title: 'a' }, 'none', redact)).toEqual({});
  });

  it('an own member named like a prototype key is kept as data', () => {
    const out = gateFormValues([{ id: '__proto__', type: 'number' }], JSON.parse('{"__proto__": 5}'), 'metadata');
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});

describe('field specs and choices', () => {
  it('indexes only fields with a string id and a string type', () => {
    expect(fieldIndex([{ id: 'a' }, { id: 'b', type: 'string' }]).size).toBe(1);
    expect(validateFormValues([{ id: 'a' }], { a: 1 }).map((i) => i.rule)).toStrictEqual(['form.values.unknown']);
  });
  it('spares only a select field\'s choice ids from redaction', () => {
    expect(gateFormValues([{ id: 'a', type: 'string', choices: [{ id: 'yes' }] }], { a: 'yes' }, 'redacted', () => '[R]')).toStrictEqual({ a: '[R]' });
  });
});
