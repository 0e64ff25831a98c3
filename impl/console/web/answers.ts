/**
 * What a card sends, pure: the form's inputs as `answer.values` (checked against the request's
 * fields with impl/core/forms.ts, the rules the target applies), and what free text on a
 * permission request will mean under the AEP-0008 receiver rule (impl/adapter-kit/text-rule.ts).
 */
import { fieldIndex, validateFormValues, type FieldSpec } from '../../core/forms.js';
import type { Issue } from '../../core/issue.js';
import { applyTextRule } from '../../adapter-kit/text-rule.js';
import { obj } from './model.js';

export type FieldInput = string | boolean | string[];

export interface FormAnswer {
  readonly values: Record<string, unknown>;
  readonly issues: Issue[];
}

export const OTHER = '\u0000other';

export function fieldsOf(data: unknown): FieldSpec[] {
  return [...fieldIndex(obj(data).fields).values()];
}

/**
 * Inputs to values: an empty input is no answer; a number field's text becomes a number (text
 * that is not one stays text, so the validator names it); a select's "other…" choice takes the
 * other input's text.
 */
export function formValues(fields: readonly FieldSpec[], inputs: Readonly<Record<string, FieldInput>>, others: Readonly<Record<string, string>>): FormAnswer {
  const values: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = inputs[f.id];
    if (f.type === 'boolean') {
      if (typeof raw === 'boolean') values[f.id] = raw;
      continue;
    }
    if (f.type === 'select') {
      const picked = Array.isArray(raw) ? raw : typeof raw === 'string' && raw !== '' ? [raw] : [];
      const resolved = picked.map((p) => (p === OTHER ? (others[f.id] ?? '').trim() : p)).filter((p) => p !== '');
      if (resolved.length > 0) values[f.id] = f.multi ? resolved : resolved[0];
      continue;
    }
    if (typeof raw !== 'string' || raw.trim() === '') continue;
    if (f.type === 'number') {
      const n = Number(raw.trim());
      values[f.id] = Number.isFinite(n) ? n : raw;
    } else values[f.id] = raw;
  }
  return { values, issues: validateFormValues(fields, values) };
}

export interface OptionView {
  readonly id: string;
  readonly label: string;
}

export function optionsOf(data: unknown): OptionView[] {
  const list = obj(data).options;
  if (!Array.isArray(list)) return [];
  return list.map(obj).filter((o) => typeof o.id === 'string').map((o) => ({ id: o.id as string, label: typeof o.label === 'string' ? o.label : (o.id as string) }));
}

/** The option the receiver applies to text that names none: the refusing one (deny, reject, no...), else the last. */
export function refusingOption(options: readonly OptionView[]): string | undefined {
  return (options.find((o) => /deny|reject|decline|refuse|^no$|cancel/i.test(o.id)) ?? options[options.length - 1])?.id;
}

/** What free text will mean: the option it picks, and whether the text rides along as guidance. */
export function textMeaning(options: readonly OptionView[], text: string): string {
  const refusing = refusingOption(options);
  if (refusing === undefined || text.trim() === '') return '';
  const d = applyTextRule(options, text, refusing);
  const label = options.find((o) => o.id === d.option)?.label ?? d.option;
  return d.text === undefined ? `This text picks "${label}".` : `This text applies "${label}", with your words as the reason (text never grants).`;
}

/** Whether the request can be answered over control: `respond_via` absent or naming `control`. */
export function answerableOverControl(data: unknown): boolean {
  const via = obj(data).respond_via;
  return !Array.isArray(via) || via.includes('control');
}
