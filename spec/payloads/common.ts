/**
 * Building blocks for the payload schemas: capture annotation helpers and the common payload
 * objects of AEP-0002 §5.2 (tool_ref, error_info, usage, cost, document, citation, guardrail,
 * field_spec). Every field says its minimum capture level through `x-aep-capture` (AEP-0002 §5.1);
 * the capture engine down-levels by reading these annotations from the generated JSON Schemas.
 */
import { z } from 'zod';

/** The levels a payload field can be gated at (`none` only applies to whole Events). */
export type FieldLevel = 'metadata' | 'redacted' | 'full';

/** The annotation key, verbatim from AEP-0002 §5.1. */
export const CAPTURE_KEY = 'x-aep-capture';
/**
 * Marks a `[metadata*]` field (AEP-0002 §5.3, §8): present at `metadata`, but at that level its
 * content MUST be synthesized or structural (AEP-0003 §9.2), never authored prose.
 */
export const EXCEPTION_KEY = 'x-aep-capture-exception';

/** Annotate a schema with its capture level. */
export function at<T extends z.ZodType>(level: FieldLevel, schema: T): T {
  return schema.meta({ [CAPTURE_KEY]: level });
}

/** A `[metadata*]` field: metadata level, with the synthesized-content exception spelled out. */
export function starred<T extends z.ZodType>(schema: T, why: string): T {
  return schema.meta({ [CAPTURE_KEY]: 'metadata', [EXCEPTION_KEY]: why });
}

/** Metadata-level string. */
export const mStr = () => at('metadata', z.string());
/** Redacted-level free text. */
export const rStr = () => at('redacted', z.string());
/** Full-level verbatim text. */
export const fStr = () => at('full', z.string());
/** Metadata-level non-negative integer (durations, counts, revisions). */
export const mCount = () => at('metadata', z.int().min(0));
/** Metadata-level integer without a sign constraint. */
export const mInt = () => at('metadata', z.int());
/** Metadata-level number without bounds (scores: the emitter states its own scale). */
export const mNum = () => at('metadata', z.number());
/** Metadata-level boolean. */
export const mBool = () => at('metadata', z.boolean());
/** A free-form JSON object at the given level. */
export const obj = (level: FieldLevel) => at(level, z.looseObject({}));
/** Metadata-level enum. */
export const mEnum = <const V extends readonly [string, ...string[]]>(values: V) => at('metadata', z.enum(values));

/** Payload objects are open (AEP-0002 §5.4): vendor members validate and default to metadata. */
export const open = z.looseObject;

/** `tool_ref` (AEP-0002 §5.2). */
export const toolRef = () => at('metadata', open({ name: mStr(), call_id: mStr().optional() }));

/** `error_info` (AEP-0002 §5.2): the type is structural, the message is free text. */
export const errorInfo = () => at('metadata', open({ type: mStr().optional(), message: rStr().optional() }));

/** `usage` (AEP-0002 §5.2): flat OTel GenAI token counts, spread into a payload's shape. */
export const usageFields = () => ({
  'gen_ai.usage.input_tokens': mCount().optional(),
  'gen_ai.usage.output_tokens': mCount().optional(),
});

/** `cost` (AEP-0002 §5.2): emitter-asserted money; its ISO 4217 alpha-3 `currency` is always present. */
export const cost = () => {
  const amount = () => at('metadata', z.number().min(0)).optional();
  return at('metadata', open({
    currency: at('metadata', z.string().regex(/^[A-Z]{3}$/)),
    total: amount(),
    prompt: amount(),
    completion: amount(),
    cache: amount(),
    reasoning: amount(),
  }));
};

/** `document` (AEP-0002 §5.2): retrieval provenance; the text itself is gated. */
export const document = () => at('metadata', open({
  id: mStr().optional(),
  score: mNum().optional(),
  content_redacted: rStr().optional(),
  content: fStr().optional(),
  metadata: obj('metadata').optional(),
}));

/** A span inside a located unit: `start`/`end` offsets. */
const span = () => ({ start: mInt().optional(), end: mInt().optional() });

/**
 * `citation` (AEP-0002 §5.2): a span of a produced answer bound to the source it cites.
 * `source` is REQUIRED by the prose ("a citation with no source is not a citation").
 */
export const citation = () => at('metadata', open({
  source: at('metadata', open({ id: mStr().optional(), uri: rStr().optional(), title: rStr().optional() })),
  cited_text_redacted: rStr().optional(),
  cited_text: fStr().optional(),
  offset: at('metadata', open({
    char: at('metadata', open(span())).optional(),
    page: at('metadata', open({ page: mInt().optional(), ...span() })).optional(),
    block: at('metadata', open({ block: mInt().optional(), ...span() })).optional(),
  })).optional(),
  document_index: mCount().optional(),
}));

/** `guardrail` (AEP-0002 §5.2, AEP-0009 §6): an automated content-safety verdict. */
export const guardrail = () => at('metadata', open({
  stage: mEnum(['input', 'output']).optional(),
  verdict: mEnum(['allowed', 'flagged', 'blocked', 'modified']).optional(),
  // AEP-0009 §6: "All fields OPTIONAL", the category name included.
  categories: at('metadata', z.array(at('metadata', open({ name: mStr().optional(), score: mNum().optional() })))).optional(),
  detector: at('metadata', open({ name: mStr().optional(), version: mStr().optional() })).optional(),
  explanation: rStr().optional(),
}));

const LABEL_EXCEPTION = 'at capture metadata a structural placeholder only (e.g. the 1-based index); real text at redacted and above, through the AEP-0003 §9.4 pipeline';

/** A closed choice `{id, label}` as used by `options` and `field_spec.choices`. */
export const choice = () => at('metadata', open({ id: mStr(), label: starred(z.string(), LABEL_EXCEPTION) }));

/**
 * `field_spec` (AEP-0002 §5.2, AEP-0006): one flat, typed field of a `kind: "form"` request.
 * `choices` is REQUIRED when `type` is `select`; zod cannot say that declaratively, so the
 * rule rides the generated JSON Schema as an `if`/`then` pair (the validators run that schema).
 */
export const fieldSpec = () => open({
  id: mStr(),
  type: mEnum(['string', 'number', 'boolean', 'select']),
  label: starred(z.string(), LABEL_EXCEPTION),
  required: mBool().optional(),
  multi: mBool().optional(),
  other: mBool().optional(),
  choices: at('metadata', z.array(choice())).optional(),
  min: mNum().optional(),
  max: mNum().optional(),
}).meta({
  [CAPTURE_KEY]: 'metadata',
  if: { properties: { type: { const: 'select' } }, required: ['type'] },
  then: { required: ['choices'] },
});

/**
 * `answer` (AEP-0002 §5.3, AEP-0004 §5, AEP-0006): `option` is structural, `text` free text,
 * `values` the flat form map whose per-entry level depends on the referenced field_spec type.
 */
export const answer = () => at('metadata', open({
  option: mStr().optional(),
  text: rStr().optional(),
  // Entry shapes depend on the request's field_specs, so they are checked against those
  // (impl/core/forms.ts), not here: the schema says only "an object", as AEP-0006 asks.
  values: starred(
    z.record(z.string(), z.unknown()),
    'per-entry level follows the referenced field_spec: string values and select free text (other:true) are redacted minimum; number, boolean and closed select ids stay metadata (AEP-0006)',
  ).optional(),
}));
