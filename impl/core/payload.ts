/**
 * Payload validation (AEP-0002 §5, AEP-0004, AEP-0006, AEP-0009): the `data` of a registered
 * type against its JSON Schema 2020-12 from `spec/`, run by ajv. Each ajv error becomes an
 * Issue with a stable `payload.*` rule id, the section that defines the type, a `$.data…` path
 * and a message that says what is wrong and what would be valid. Never throws on bad input.
 */
import AjvModule from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { payloadJsonSchema } from '../../spec/json-schema.js';
import { lookupType } from '../../spec/registry.js';
import { childPath, issue, type Issue } from './issue.js';

// ajv and ajv-formats are CommonJS; under NodeNext their default import is `module.exports`.
type AjvClass = typeof AjvModule.default;
const Ajv2020: AjvClass = (AjvModule as unknown as { default?: AjvClass }).default ?? (AjvModule as unknown as AjvClass);
type AddFormats = typeof formatsModule.default;
const addFormats: AddFormats = (formatsModule as unknown as { default?: AddFormats }).default ?? (formatsModule as unknown as AddFormats);

/** One payload rule of the catalogue (`impl/core/rules.ts` merges these into `RULES`). */
export interface PayloadRule {
  readonly id: string;
  readonly section: string;
  readonly summary: string;
}

/**
 * The payload rules our schemas can raise. The per-issue `section` names the type's own section;
 * the catalogue section is where the mechanism is defined. (`payload.const`, `payload.additional`
 * and `payload.schema` exist in the mapper for schema keywords our schemas do not use today.)
 */
export const PAYLOAD_RULES: readonly PayloadRule[] = Object.freeze([
  { id: 'payload.required', section: 'AEP-0002 §5', summary: 'a payload carries every field its type marks REQ' },
  { id: 'payload.type', section: 'AEP-0002 §5', summary: 'each payload field has its schema\'s JSON type' },
  { id: 'payload.enum', section: 'AEP-0002 §5', summary: 'an enumerated payload field holds one of its registered values' },
  { id: 'payload.format', section: 'AEP-0002 §5', summary: 'a formatted payload field (RFC 3339 date-time) is well-formed' },
  { id: 'payload.range', section: 'AEP-0002 §5', summary: 'numeric payload fields respect their bounds (durations and counts are >= 0)' },
  { id: 'payload.pattern', section: 'AEP-0002 §5.2', summary: 'a patterned payload field matches (cost.currency is an ISO 4217 alpha-3 code)' },
].map((r) => Object.freeze(r)));

const RANGE = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties']);
/** Members of §5.2 common objects, named by their first path segment under `data`. */
const COMMON_OBJECTS = new Set(['tool', 'error', 'cost', 'documents', 'input_documents', 'output_documents', 'citations', 'fields']);

let ajv: InstanceType<AjvClass> | undefined;
const compiled = new Map<string, ValidateFunction>();

/** The generated JSON Schema of a registered type's payload, or `undefined` (no payload, unknown, vendor). */
export function schemaForType(type: string): Record<string, unknown> | undefined {
  return lookupType(type)?.payload === true ? payloadJsonSchema(type) : undefined;
}

function validatorFor(type: string): ValidateFunction | undefined {
  const hit = compiled.get(type);
  if (hit !== undefined) return hit;
  const schema = schemaForType(type);
  if (schema === undefined) return undefined;
  if (ajv === undefined) {
    ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true });
    addFormats(ajv);
  }
  const fn = ajv.compile(schema);
  compiled.set(type, fn);
  return fn;
}

/**
 * Validate `data` against the payload schema of `type`. Unknown, reserved and vendor types
 * return `[]`: registry membership is the envelope validator's call. May be called any time;
 * the schemas compile lazily on first use of each type.
 */
export function validatePayload(type: string, data: unknown): Issue[] {
  const validate = validatorFor(type);
  if (validate === undefined || validate(data)) return [];
  const errors = validate.errors ?? [];
  const section = lookupType(type)!.section;
  const out: Issue[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (e.keyword === 'if') continue; // the `then` branch's own error carries the finding
    const found = toIssue(type, section, e);
    const key = `${found.rule} ${found.path} ${found.message}`;
    if (!seen.has(key)) out.push(found), seen.add(key);
  }
  return out;
}

function toIssue(type: string, typeSection: string, e: ErrorObject): Issue {
  const segments = e.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let path = '$.data';
  for (const s of segments) path = childPath(path, /^(0|[1-9]\d*)$/.test(s) ? Number(s) : s);
  const at = `\`${path}\``;
  const got = `got ${show(e.data)}`;
  const p = e.params as Record<string, unknown>;
  const section = sectionFor(typeSection, segments);
  const make = (rule: string, where: string, message: string) => issue(rule, section, where, `${type}: ${message}`);
  switch (e.keyword) {
    case 'required': {
      const name = String(p.missingProperty);
      const where = childPath(path, name);
      const sub = (e.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties?.[name];
      const why = e.schemaPath.endsWith('/then/required') ? ' because `type` is "select" (AEP-0006: a select field lists its choices)' : '';
      return make('payload.required', where, `\`${where}\` is required${why}; add ${describe(sub)}`);
    }
    case 'type':
      return make('payload.type', path, `${at} must be ${String(p.type).split(',').map(article).join(' or ')}, ${got}`);
    case 'enum':
      return make('payload.enum', path, `${at} must be one of ${(p.allowedValues as unknown[]).map(show).join(', ')}, ${got}`);
    case 'const':
      return make('payload.const', path, `${at} must be ${show(p.allowedValue)}, ${got}`);
    case 'format':
      return make('payload.format', path, `${at} must be ${formatText(String(p.format))}, ${got}`);
    case 'pattern':
      return make('payload.pattern', path, `${at} must match ${patternText(String(p.pattern))}, ${got}`);
    case 'additionalProperties':
      return make('payload.additional', childPath(path, String(p.additionalProperty)), `${at} does not allow member ${show(p.additionalProperty)}; remove it`);
    default:
      if (RANGE.has(e.keyword)) return make('payload.range', path, `${at} ${e.message ?? 'is out of range'}, ${got}`);
      return make('payload.schema', path, `${at} ${e.message ?? 'does not match the schema'}`);
  }
}

/** The type's section, or §5.2 for members of the common payload objects of AEP-0002. */
function sectionFor(typeSection: string, segments: readonly string[]): string {
  const first = segments[0];
  if (typeSection.startsWith('AEP-0002') && first !== undefined && COMMON_OBJECTS.has(first)) return 'AEP-0002 §5.2';
  return typeSection;
}

function describe(schema: unknown): string {
  if (typeof schema !== 'object' || schema === null) return 'it';
  const s = schema as { type?: unknown; enum?: unknown[]; required?: string[] };
  if (Array.isArray(s.enum)) return `one of ${s.enum.map(show).join(', ')}`;
  if (s.type === 'object' && Array.isArray(s.required) && s.required.length > 0) return `an object with ${s.required.map((r) => `\`${r}\``).join(', ')}`;
  if (typeof s.type === 'string') return article(s.type);
  if (Array.isArray(s.type)) return s.type.map((t) => article(String(t))).join(' or ');
  return 'it';
}

function article(t: string): string {
  return /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`;
}

function formatText(format: string): string {
  return format === 'date-time' ? 'an RFC 3339 date-time with a timezone, e.g. "2026-05-01T09:30:00Z"' : `a valid ${format}`;
}

function patternText(pattern: string): string {
  return pattern === '^[A-Z]{3}$' ? 'an ISO 4217 alpha-3 currency code such as "EUR"' : `/${pattern}/`;
}

function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
