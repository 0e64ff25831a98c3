/**
 * The standard's own Annex A pin for Claude Code (../shared, read at test time, never copied):
 * every entry through our pure mappers, compared as canonical JSON. Skips when ../shared is absent
 * (`AEP_STANDARD_DIR` names the standard's checkout when it is elsewhere).
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../core/canonical.js';
import { mapAskUserQuestion } from './map-ask-user-question.js';
import { mapElicitation } from './map-elicitation.js';
import { standardPath } from '../../test-utils/standard.js';
import { skipped, WHY } from '../../test-utils/skip.js';

const file = standardPath('conformance', 'fixtures', 'mappings', 'claude-code.json');

describe.skipIf(!existsSync(file))(`standard mappings/claude-code.json${skipped(!existsSync(file), WHY.standard)}`, () => {
  const fixture = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>) : {};
  const form = (mapping: { prompt: string; fields: unknown[] }) => ({ kind: 'form', ...mapping, respond_via: ['control'] });

  it('ask_user_question at redacted+ and at metadata', () => {
    const entry = fixture.ask_user_question;
    expect(canonicalJson(form(mapAskUserQuestion(entry.input.questions, { agent: 'claude-code', contentOk: true })))).toBe(canonicalJson(entry.expected_data));
    expect(canonicalJson(form(mapAskUserQuestion(entry.input.questions, { agent: 'claude-code', contentOk: false })))).toBe(canonicalJson(entry.expected_data_metadata));
  });

  it('elicitation at redacted+ and at metadata', () => {
    const entry = fixture.elicitation;
    const { message, requestedSchema } = entry.input;
    expect(canonicalJson(form(mapElicitation(message, requestedSchema, { agent: 'claude-code', contentOk: true })))).toBe(canonicalJson(entry.expected_data));
    expect(canonicalJson(form(mapElicitation(message, requestedSchema, { agent: 'claude-code', contentOk: false })))).toBe(canonicalJson(entry.expected_data_metadata));
  });
});
