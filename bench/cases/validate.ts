/**
 * `validate`: `validateEvent` over the golden corpus, against ajv compiled from the generated
 * envelope schema alone: the schema-only check that is the floor any validator pays.
 * `envelope`: `validateEnvelope` (exactly the schema's surface, hand-written) against the same
 * ajv baseline: a like-for-like comparison.
 */
import AjvModule from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { validateEnvelope, validateEvent } from '../../impl/core/envelope.js';
import type { Issue } from '../../impl/core/issue.js';
import { readEnvelopeSchema, readGolden } from '../corpus.js';
import type { Benchmark } from '../harness.js';

// ajv and ajv-formats are CommonJS; under NodeNext their default import is `module.exports`.
type AjvClass = typeof AjvModule.default;
const Ajv2020: AjvClass = (AjvModule as unknown as { default?: AjvClass }).default ?? (AjvModule as unknown as AjvClass);
type AddFormats = typeof formatsModule.default;
const addFormats: AddFormats = (formatsModule as unknown as { default?: AddFormats }).default ?? (formatsModule as unknown as AddFormats);

/** A schema-only validator of the envelope: true when `value` passes `aep-event.schema.json`. */
export function envelopeSchemaValidator(schema: Record<string, unknown> = readEnvelopeSchema()): (value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const fn = ajv.compile(schema);
  return (value) => fn(value) === true;
}

/** A golden-corpus benchmark of `validator` against the schema-only baseline. */
function againstSchema(name: string, validator: (value: unknown) => Issue[], what: string): Benchmark {
  return {
    name,
    unit: 'events',
    what,
    budgetMs: 150,
    async prepare() {
      const events = readGolden();
      const schemaOnly = envelopeSchemaValidator();
      const dirty = events.findIndex((e) => validator(e).length > 0 || !schemaOnly(e));
      if (dirty >= 0) throw new Error(`${name}: golden line ${dirty + 1} is not valid on both sides; the bench measures the valid path`);
      return {
        ours: {
          run() {
            let issues = 0;
            for (const e of events) issues += validator(e).length;
            if (issues !== 0) throw new Error(`${name}: issues reported on the golden corpus`);
            return events.length;
          },
        },
        baseline: {
          run() {
            for (const e of events) if (!schemaOnly(e)) throw new Error(`${name}: the envelope schema rejected a golden event`);
            return events.length;
          },
        },
      };
    },
  };
}

export const validateBench = againstSchema(
  'validate',
  validateEvent,
  'validateEvent (envelope, registry, prose rules, capture honesty, payload) vs ajv on the envelope schema alone',
);

export const envelopeBench = againstSchema('envelope', validateEnvelope, 'validateEnvelope (the envelope schema\'s surface, hand-written) vs ajv on the envelope schema');
