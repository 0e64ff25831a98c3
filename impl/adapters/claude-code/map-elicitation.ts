/**
 * Claude Code `Elicitation` (an MCP server's `elicitation/create`) → one AEP-0006 form.
 * Pure. Field ids are the requested schema's property keys and choice ids the enum values, so an
 * accepted `answer.values` maps back to the elicitation `content` verbatim. MCP enums are closed:
 * no `other`. Titles and enum names are display content: present (redacted) when `contentOk`,
 * degraded to the structural key/value otherwise.
 */
import { redactText } from '../../core/redact.js';
import { isPlainObject } from '../../core/event.js';
import type { FieldSpec } from '../../adapter-kit/types.js';
import type { FormMappingOptions } from './map-ask-user-question.js';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Closed choices of one property: `enum` (+ `enumNames`), or `oneOf`/`anyOf` of `{const, title}`. */
function choicesOf(prop: Record<string, unknown>): { id: string; title?: string }[] | null {
  const source = prop.type === 'array' && isPlainObject(prop.items) ? prop.items : prop;
  if (Array.isArray(source.enum)) {
    const names = Array.isArray(source.enumNames) ? source.enumNames : [];
    return source.enum.map((v, i) => ({ id: String(v), ...(typeof names[i] === 'string' ? { title: names[i] as string } : {}) }));
  }
  const alternatives = Array.isArray(source.oneOf) ? source.oneOf : Array.isArray(source.anyOf) ? source.anyOf : null;
  if (alternatives && alternatives.every((a) => isPlainObject(a) && 'const' in a)) {
    return alternatives.map((a) => {
      const alt = a as Record<string, unknown>;
      return { id: String(alt.const), ...(typeof alt.title === 'string' ? { title: alt.title } : {}) };
    });
  }
  return null;
}

/** One schema property → a field_spec, or null for shapes outside MCP's flat primitive subset. */
function fieldOf(key: string, prop: Record<string, unknown>, required: boolean, contentOk: boolean): FieldSpec | null {
  const show = (title: unknown, fallback: string): string =>
    contentOk && typeof title === 'string' && title ? redactText(title, { pii: true }) : fallback;
  const label = show(prop.title, key);
  const choices = choicesOf(prop);
  if (choices) {
    const field: FieldSpec = { id: key, type: 'select', label, required, choices: choices.map((c) => ({ id: c.id, label: show(c.title, c.id) })) };
    if (prop.type === 'array') field.multi = true;
    return field;
  }
  switch (prop.type) {
    case 'string':
      return { id: key, type: 'string', label, required };
    case 'boolean':
      return { id: key, type: 'boolean', label, required };
    case 'number':
    case 'integer': {
      const field: FieldSpec = { id: key, type: 'number', label, required };
      if (typeof prop.minimum === 'number') field.min = prop.minimum;
      if (typeof prop.maximum === 'number') field.max = prop.maximum;
      return field;
    }
    default:
      return null;
  }
}

/** `{prompt, fields}` for the form; the adapter assembles `{kind:'form', prompt, fields, respond_via}`. */
export function mapElicitation(message: unknown, requestedSchema: unknown, opts: FormMappingOptions): { prompt: string; fields: FieldSpec[] } {
  const schema = isPlainObject(requestedSchema) ? requestedSchema : {};
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
  const fields: FieldSpec[] = [];
  for (const [key, prop] of Object.entries(properties)) {
    if (!isPlainObject(prop)) continue;
    const field = fieldOf(key, prop, required.has(key), opts.contentOk);
    if (field) fields.push(field);
  }
  const prompt = opts.contentOk && typeof message === 'string' && message.trim()
    ? redactText(message, { pii: true })
    : `${opts.agent} requests input (${plural(fields.length, 'field')})`;
  return { prompt, fields };
}
