/**
 * AEP-0006 form answers: checking `answer.values` against the `field_spec` list of the
 * `kind:"form"` request it answers, and gating those values by capture level
 * (AEP-0002 §5.3, "gated by exception, type-dependent"). Pure functions over untrusted input:
 * neither ever throws.
 */
import { defineMember } from './json-shape.js';
import { captureRank, isPlainObject, type CaptureLevel } from './event.js';
import { childPath, type Issue } from './issue.js';
import { violation } from './rules.js';

/** A `field_spec` as read from the wire (AEP-0002 §5.2). Only `id` and `type` are relied upon. */
export interface FieldSpec {
  id: string;
  type: 'string' | 'number' | 'boolean' | 'select';
  label?: string;
  required?: boolean;
  multi?: boolean;
  other?: boolean;
  choices?: { id: string; label?: string }[];
  min?: number;
  max?: number;
}

/** Options of {@link validateFormValues}. */
export interface FormValuesOptions {
  /** JSON path of the values object, used as the prefix of every issue path. Default `$.data.answer.values`. */
  path?: string;
  /**
   * Whether a missing `required:true` field is an issue. Default `true`. Pass `false` when the
   * values were gated below `redacted`, where a required string field is legitimately absent.
   */
  checkRequired?: boolean;
}

/** The well-formed field specs of a `fields` array, keyed by id. Malformed items are skipped. */
export function fieldIndex(fields: unknown): Map<string, FieldSpec> {
  const index = new Map<string, FieldSpec>();
  if (!Array.isArray(fields)) return index;
  for (const f of fields) {
    if (isPlainObject(f) && typeof f.id === 'string' && typeof f.type === 'string' && !index.has(f.id)) {
      index.set(f.id, f as unknown as FieldSpec);
    }
  }
  return index;
}

function choiceIds(field: FieldSpec): Set<string> {
  const ids = new Set<string>();
  if (Array.isArray(field.choices)) {
    for (const c of field.choices) if (isPlainObject(c) && typeof c.id === 'string') ids.add(c.id);
  }
  return ids;
}

/**
 * Check `values` (an `answer.values` map) against the request's `fields` (AEP-0006, AEP-0002 §5.3).
 * Rules: every key names a field (`form.values.unknown`); required fields are present
 * (`form.values.required`, see {@link FormValuesOptions.checkRequired}); each value has its field's
 * JSON type (`form.values.type`: string, number, boolean, a choice id, or an array of choice ids
 * when `multi`; a lone choice id is tolerated for `multi`); a select value that is not a choice id is
 * allowed only with `other:true` (`form.values.choice`); a number respects `min`/`max`
 * (`form.values.range`).
 */
export function validateFormValues(fields: unknown, values: unknown, options: FormValuesOptions = {}): Issue[] {
  const base = options.path ?? '$.data.answer.values';
  if (!isPlainObject(values)) {
    return [violation('form.values.type', base, `answer.values must be an object mapping field ids to answers, got ${describe(values)}`)];
  }
  const index = fieldIndex(fields);
  const issues: Issue[] = [];
  for (const [key, value] of Object.entries(values)) {
    const path = childPath(base, key);
    const field = index.get(key);
    if (field === undefined) {
      const known = [...index.keys()].map((k) => JSON.stringify(k)).join(', ') || 'none';
      issues.push(violation('form.values.unknown', path, `"${key}" is not the id of any field of the request (field ids: ${known}); remove it or fix the id`));
      continue;
    }
    issues.push(...checkValue(field, value, path));
  }
  if (options.checkRequired !== false) {
    for (const field of index.values()) {
      if (field.required === true && !Object.hasOwn(values, field.id)) {
        issues.push(violation('form.values.required', childPath(base, field.id), `required field "${field.id}" has no answer; a respond missing it must be nacked invalid`));
      }
    }
  }
  return issues;
}

function checkValue(field: FieldSpec, value: unknown, path: string): Issue[] {
  switch (field.type) {
    case 'string':
      return typeof value === 'string' ? [] : [wrongType(field, 'a string', value, path)];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [wrongType(field, 'a boolean', value, path)];
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return [wrongType(field, 'a number', value, path)];
      const issues: Issue[] = [];
      if (typeof field.min === 'number' && value < field.min) {
        issues.push(violation('form.values.range', path, `${value} is below the field's min ${field.min}`));
      }
      if (typeof field.max === 'number' && value > field.max) {
        issues.push(violation('form.values.range', path, `${value} is above the field's max ${field.max}`));
      }
      return issues;
    }
    case 'select':
      return checkSelect(field, value, path);
    default:
      // An unknown field type is the request's problem (payload schema), not the answer's.
      return [];
  }
}

function checkSelect(field: FieldSpec, value: unknown, path: string): Issue[] {
  const ids = choiceIds(field);
  const oneChoice = (v: unknown, p: string): Issue[] => {
    if (typeof v !== 'string') return [wrongType(field, 'a choice id string', v, p)];
    if (ids.has(v) || field.other === true) return [];
    const list = [...ids].map((i) => JSON.stringify(i)).join(', ');
    return [violation('form.values.choice', p, `${JSON.stringify(v)} is not a choice id of field "${field.id}" (choices: ${list}) and the field does not allow other:true free text`)];
  };
  if (Array.isArray(value)) {
    if (field.multi !== true) return [wrongType(field, 'a single choice id (the field is not multi)', value, path)];
    return value.flatMap((v, i) => oneChoice(v, childPath(path, i)));
  }
  return oneChoice(value, path);
}

function wrongType(field: FieldSpec, expected: string, value: unknown, path: string): Issue {
  return violation('form.values.type', path, `field "${field.id}" is type ${field.type} and needs ${expected}, got ${describe(value)}`);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}

/** Whether `value` is structural for `field` (AEP-0002 §5.3): a primitive of its type or closed choice ids. */
function isStructural(field: FieldSpec, value: unknown): boolean {
  switch (field.type) {
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'select': {
      const ids = choiceIds(field);
      if (typeof value === 'string') return ids.has(value);
      return Array.isArray(value) && value.every((v) => typeof v === 'string' && ids.has(v));
    }
    default:
      return false;
  }
}

/** Apply `redact` to every string of a free-text value that is not a choice id of the field. */
function redactFreeText(field: FieldSpec, value: unknown, redact: (text: string) => string): unknown {
  const ids = field.type === 'select' ? choiceIds(field) : new Set<string>();
  const one = (v: unknown): unknown => (typeof v === 'string' && !ids.has(v) ? redact(v) : v);
  return Array.isArray(value) ? value.map(one) : one(value);
}

/**
 * Gate form values for an Event emitted at `ceiling` (AEP-0002 §5.3, AEP-0006): the emitter-side
 * rule, applied by a party that knows the request's `fields`.
 *
 * - A key with no matching field spec is dropped at every ceiling (the contract names no such key).
 * - Structural values (a number for a number field, a boolean for a boolean field, a choice id or an
 *   array of choice ids for a select) are kept at every ceiling, `none` included: dropping `data`
 *   wholesale at `none` is the caller's job (AEP-0001 §8.2), not this function's.
 * - Everything else is user-authored text (a string field's value, `other` free text on a select, or
 *   any value not of its field's type) and is kept only at `redacted` and `full`. At `redacted` each
 *   free-text string (choice ids excepted) goes through `redact` when one is given; at `full` it is
 *   kept verbatim.
 *
 * Returns a new object; `values` is not modified. A non-object `values` gives `{}`.
 */
export function gateFormValues(
  fields: unknown,
  values: unknown,
  ceiling: CaptureLevel,
  redact?: (text: string) => string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isPlainObject(values)) return out;
  const index = fieldIndex(fields);
  const textAllowed = captureRank(ceiling) >= captureRank('redacted');
  for (const [key, value] of Object.entries(values)) {
    const field = index.get(key);
    if (field === undefined) continue;
    if (isStructural(field, value)) defineMember(out, key, value);
    else if (textAllowed) defineMember(out, key, ceiling === 'redacted' && redact ? redactFreeText(field, value, redact) : value);
  }
  return out;
}

/** The keys of `values` whose content is free text under `fields` (used by the capture-honesty check). */
export function freeTextKeys(fields: unknown, values: unknown): string[] {
  if (!isPlainObject(values)) return [];
  const index = fieldIndex(fields);
  return Object.entries(values)
    .filter(([key, value]) => {
      const field = index.get(key);
      return field !== undefined && !isStructural(field, value);
    })
    .map(([key]) => key);
}
