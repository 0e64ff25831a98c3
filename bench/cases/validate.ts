/**
 * `validate`: `validateEvent` over the golden corpus, against ajv compiled from the generated
 * envelope schema alone: the schema-only check that is the floor any validator pays.
 */
import AjvModule from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { validateEvent } from '../../impl/core/envelope.js';
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

export const validateBench: Benchmark = {
  name: 'validate',
  unit: 'events',
  what: 'validateEvent (envelope, registry, prose rules, capture honesty, payload) vs ajv on the envelope schema alone',
  budgetMs: 250,
  async prepare() {
    const events = readGolden();
    const schemaOnly = envelopeSchemaValidator();
    const dirty = events.findIndex((e) => validateEvent(e).length > 0 || !schemaOnly(e));
    if (dirty >= 0) throw new Error(`validate: golden line ${dirty + 1} is not valid on both sides; the bench measures the valid path`);
    return {
      ours: {
        run() {
          let issues = 0;
          for (const e of events) issues += validateEvent(e).length;
          if (issues !== 0) throw new Error('validate: validateEvent reported issues on the golden corpus');
          return events.length;
        },
      },
      baseline: {
        run() {
          for (const e of events) if (!schemaOnly(e)) throw new Error('validate: the envelope schema rejected a golden event');
          return events.length;
        },
      },
    };
  },
};
