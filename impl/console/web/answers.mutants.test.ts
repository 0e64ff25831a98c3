/** What a card makes of the operator's inputs, as whole answers (issue 37). */
import { describe, expect, it } from 'vitest';
import { OTHER, answerableOverControl, fieldsOf, formValues, optionsOf, refusingOption, textMeaning } from './answers.js';

const fields = fieldsOf({
  fields: [
    { id: 'pick', type: 'select', other: true, choices: [{ id: 'eu' }, { id: 'us' }] },
    { id: 'many', type: 'select', multi: true, other: true, choices: [{ id: 'a' }, { id: 'b' }] },
    { id: 'n', type: 'number' },
    { id: 'ok', type: 'boolean' },
    { id: 'note', type: 'text' },
  ],
});

describe('form inputs to answer.values', () => {
  it('empty inputs are no answer: nothing is sent for them', () => {
    expect(formValues(fields, { pick: '', many: [], n: '  ', note: ' ', ok: 'yes' }, {})).toEqual({ values: {}, issues: [] });
    expect(formValues(fields, { pick: OTHER, many: [OTHER] }, { pick: '  ' })).toEqual({ values: {}, issues: [] });
  });
  it('a single select sends its one value, a multi select the list, "other…" its trimmed text', () => {
    expect(formValues(fields, { pick: 'us', many: ['b', OTHER, 'a'] }, { many: ' zz ' })).toEqual({ values: { pick: 'us', many: ['b', 'zz', 'a'] }, issues: expect.any(Array) });
    expect(formValues(fields, { pick: ['eu', 'us'] }, {}).values).toEqual({ pick: 'eu' });
    expect(formValues(fields, { many: 'a' }, {}).values).toEqual({ many: ['a'] });
  });
  it('a number field sends a number (trimmed), and text that is not one as it was typed', () => {
    expect(formValues(fields, { n: ' 2.5 ' }, {})).toEqual({ values: { n: 2.5 }, issues: [] });
    expect(formValues(fields, { n: '1e999' }, {}).values).toEqual({ n: '1e999' });
    expect(formValues(fields, { n: 'two' }, {}).values).toEqual({ n: 'two' });
    expect(formValues(fields, { n: true }, {}).values).toEqual({});
  });
  it('text is sent as typed; a boolean only when it is one', () => {
    expect(formValues(fields, { note: ' hi ', ok: true }, {})).toEqual({ values: { note: ' hi ', ok: true }, issues: [] });
    expect(formValues(fields, { note: ['x'] as unknown as string }, {}).values).toEqual({});
  });
  it('a request without fields has none', () => {
    expect(fieldsOf({})).toEqual([]);
    expect(fieldsOf(null)).toEqual([]);
  });
});

describe('options and free text', () => {
  it('options: those with a string id, labelled by their label or their id', () => {
    expect(optionsOf({ options: [{ id: 'allow', label: 'Allow' }, { id: 'deny' }, { label: 'x' }, 'y', { id: 3 }, { id: 'z', label: 4 }] })).toEqual([
      { id: 'allow', label: 'Allow' },
      { id: 'deny', label: 'deny' },
      { id: 'z', label: 'z' },
    ]);
    expect(optionsOf({ options: 'allow' })).toEqual([]);
    expect(optionsOf({})).toEqual([]);
  });
  it('the refusing option: the first whose id refuses, else the last; none without options', () => {
    const o = (...ids: string[]) => ids.map((id) => ({ id, label: id }));
    expect(refusingOption(o('allow', 'Reject_once', 'deny'))).toBe('Reject_once');
    expect(refusingOption(o('allow', 'DECLINE'))).toBe('DECLINE');
    expect(refusingOption(o('allow', 'refuse'))).toBe('refuse');
    expect(refusingOption(o('yes', 'No'))).toBe('No');
    expect(refusingOption(o('nobody', 'yes'))).toBe('yes');
    expect(refusingOption(o('cancel', 'ok'))).toBe('cancel');
    expect(refusingOption(o('a', 'b'))).toBe('b');
    expect(refusingOption([])).toBeUndefined();
  });
  it('what text means: nothing without options or text', () => {
    expect(textMeaning([], 'allow')).toBe('');
    expect(textMeaning([{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }], '   ')).toBe('');
    expect(textMeaning([{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }], 'b')).toBe('This text picks "B".');
  });
  it('respond_via: absent, not a list, or naming control is answerable here', () => {
    expect(answerableOverControl({ respond_via: 'oob' })).toBe(true);
    expect(answerableOverControl({ respond_via: [] })).toBe(false);
    expect(answerableOverControl(undefined)).toBe(true);
  });
});

it('edges: a text field keeps digits as text; only an id that is exactly "no" refuses by that word', () => {
  const f = fieldsOf({ fields: [{ id: 'note', type: 'text' }] });
  expect(formValues(f, { note: '42' }, {}).values).toEqual({ note: '42' });
  expect(refusingOption([{ id: 'casino', label: 'c' }, { id: 'ok', label: 'ok' }])).toBe('ok');
});
