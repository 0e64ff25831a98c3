/**
 * The machine-readable protocol rendered as JSON Schema 2020-12 documents, purely: the payload
 * schema of every registered type (from the zod schemas in `payloads/`), the envelope and the
 * registry. `generate.ts` writes these to `spec/schemas/`; validators import them from here.
 */
import { z } from 'zod';
import { envelopeSchema } from './envelope-schema.js';
import { PAYLOAD_SCHEMAS } from './payloads/index.js';
import {
  CAPTURE_DEFAULT, CAPTURE_ORDER, CATEGORIES, NACK_REASONS, SEVERITY_DEFAULT, SEVERITY_OCSF, SEVERITY_ORDER, SEVERITY_OTLP, TYPES,
} from './registry.js';

/** Base of every `$id` we mint. Ours, not the standard's. */
export const SCHEMA_ID_BASE = 'https://aep-reference.invalid/schemas/0.1/';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** File name of a type's payload schema, relative to `spec/schemas/types/`. */
export function typeSchemaFile(type: string): string {
  return `${type}.schema.json`;
}

/**
 * Remove what zod emits but the protocol does not say: safe-integer bounds, the datetime regex
 * (the `date-time` format says it), `additionalProperties: {}` (open is the default), string key
 * constraints on records, empty `properties`. Collapse `anyOf` of bare types into a type list.
 */
function tidy(node: Json): Json {
  if (Array.isArray(node)) return node.map(tidy);
  if (node === null || typeof node !== 'object') return node;
  const out: { [k: string]: Json } = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$schema') continue;
    if ((k === 'maximum' && v === Number.MAX_SAFE_INTEGER) || (k === 'minimum' && v === Number.MIN_SAFE_INTEGER)) continue;
    if (k === 'pattern' && node['format'] === 'date-time') continue;
    if (k === 'additionalProperties' && isEmptyObject(v)) continue;
    if (k === 'propertyNames' && isStringType(v)) continue;
    if (k === 'properties' && isEmptyObject(v)) continue;
    out[k] = tidy(v);
  }
  const any = out['anyOf'];
  if (Array.isArray(any) && any.every((m) => isBareType(m))) {
    delete out['anyOf'];
    const merged: { [k: string]: Json } = { type: any.map((m) => (m as { type: string }).type) };
    return { ...merged, ...out };
  }
  return out;
}

const isEmptyObject = (v: Json) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
const isStringType = (v: Json) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 1 && v['type'] === 'string';
const isBareType = (v: Json) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 1 && typeof v['type'] === 'string';

/** The JSON Schema of one payload, with our `$schema`/`$id`/title header. */
export function payloadJsonSchema(type: string): Record<string, Json> | undefined {
  const schema = PAYLOAD_SCHEMAS[type];
  if (schema === undefined) return undefined;
  const body = tidy(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Json) as Record<string, Json>;
  const entry = TYPES.find((t) => t.type === type);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${SCHEMA_ID_BASE}types/${typeSchemaFile(type)}`,
    title: `AEP 0.1 payload of ${type}`,
    description: `${entry?.summary ?? type} (${entry?.section ?? 'AEP-0002'}). Open: unlisted members are vendor extensions at metadata capture.`,
    ...body,
  };
}

/** The registry as one JSON document. */
export function registryJson(): Record<string, Json> {
  return {
    $id: `${SCHEMA_ID_BASE}registry.json`,
    aep: '0.1',
    categories: CATEGORIES.map((c) => ({ name: c.name, scope: c.scope, summary: c.summary })),
    types: TYPES.map((t) => ({
      type: t.type,
      status: t.status,
      scope: t.scope,
      schema: t.payload ? `types/${typeSchemaFile(t.type)}` : null,
      foreign: t.foreign,
      experimental: t.experimental,
      section: t.section,
      summary: t.summary,
    })),
    severity: {
      order: [...SEVERITY_ORDER],
      default: SEVERITY_DEFAULT,
      otlp: Object.fromEntries(SEVERITY_ORDER.map((s) => [s, { ...SEVERITY_OTLP[s] }])),
      ocsf: Object.fromEntries(SEVERITY_ORDER.map((s) => [s, SEVERITY_OCSF[s]])),
    },
    capture: { order: [...CAPTURE_ORDER], default: CAPTURE_DEFAULT },
    nack_reasons: [...NACK_REASONS],
  };
}

const render = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Every generated file: path relative to `spec/schemas/` → exact file text. Pure, deterministic, sorted by path. */
export function generateSchemas(): Map<string, string> {
  const files: [string, string][] = [
    ['aep-event.schema.json', render(envelopeSchema(`${SCHEMA_ID_BASE}aep-event.schema.json`))],
    ['registry.json', render(registryJson())],
  ];
  for (const t of TYPES) {
    const schema = payloadJsonSchema(t.type);
    if (schema !== undefined) files.push([`types/${typeSchemaFile(t.type)}`, render(schema)]);
  }
  files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new Map(files);
}

