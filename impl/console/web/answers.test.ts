import { describe, expect, it } from 'vitest';
import { OTHER, fieldsOf, formValues, textMeaning, answerableOverControl } from './answers.js';
import { buildFilter } from './filters.js';

const fields = fieldsOf({
  fields: [
    { id: 'region', type: 'select', required: true, other: true, choices: [{ id: 'eu' }, { id: 'us' }] },
    { id: 'n', type: 'number', min: 1, max: 3 },
    { id: 'ok', type: 'boolean' },
    { id: 'tags', type: 'select', multi: true, choices: [{ id: 'a' }, { id: 'b' }] },
  ],
});

describe('card answers', () => {
  it('builds answer.values from inputs, the "other…" text included, and checks them with the form rules', () => {
    expect(formValues(fields, { region: OTHER, n: '2', ok: false, tags: ['a', 'b'] }, { region: ' apac ' })).toEqual({ values: { region: 'apac', n: 2, ok: false, tags: ['a', 'b'] }, issues: [] });
    const bad = formValues(fields, { n: '7' }, {});
    expect(bad.issues.map((i) => i.rule).sort()).toEqual(['form.values.range', 'form.values.required']);
    expect(formValues(fields, { region: 'eu', n: 'two' }, {}).issues.map((i) => i.rule)).toEqual(['form.values.type']);
  });

  it('says what free text means under the AEP-0008 receiver rule', () => {
    const options = [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }];
    expect(textMeaning(options, ' ALLOW ')).toBe('This text picks "Allow".');
    expect(textMeaning(options, 'sure, go ahead')).toBe('This text applies "Deny", with your words as the reason (text never grants).');
    expect(textMeaning(options, '')).toBe('');
  });

  it('honours respond_via', () => {
    expect(answerableOverControl({})).toBe(true);
    expect(answerableOverControl({ respond_via: ['oob'] })).toBe(false);
    expect(answerableOverControl({ respond_via: ['oob', 'control'] })).toBe(true);
  });

  it('turns the filter form into an attr-match filter the relay accepts, or says why not', () => {
    expect(buildFilter({ agent: 'claude-code, codex', type: 'run.*', severity: 'warning' })).toEqual({ ok: true, filter: { agent: ['claude-code', 'codex'], type: 'run.*', severity: { gte: 'warning' } } });
    expect(buildFilter({ agent: '', type: '', severity: '' })).toEqual({ ok: true, filter: {} });
    expect(buildFilter({ agent: '', type: 'run*', severity: '' })).toMatchObject({ ok: false });
  });
});
