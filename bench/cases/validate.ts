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

/**
 * Invalid Events planted among the golden ones, each a golden Event broken in one envelope
 * member both sides must reject: a validator that reports nothing stops the benchmark.
 */
export function plantInvalid(events: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const breaks: Array<(e: Record<string, unknown>) => void> = [
    (e) => delete e.id,
    (e) => (e.aep = '9.9'),
    (e) => (e.time = 'yesterday at noon'),
    (e) => (e.type = 42),
    (e) => delete e.source,
  ];
  return breaks.map((breakIt, i) => {
    const e = structuredClone(events[(i * 7) % events.length]!);
    breakIt(e);
    return e;
  });
}

/** A golden-corpus benchmark of `validator` against the schema-only baseline. */
export function againstSchema(name: string, validator: (value: unknown) => Issue[], what: string): Benchmark {
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
      const planted = plantInvalid(events as Record<string, unknown>[]);
      const all = [...events, ...planted];
      const firstPlanted = events.length;
      return {
        ours: {
          run() {
            for (let i = 0; i < all.length; i++) {
              const flagged = validator(all[i]).length > 0;
              if (flagged !== i >= firstPlanted) throw new Error(`${name}: ${flagged ? 'issues reported on golden line ' + (i + 1) : `planted invalid event ${i - firstPlanted + 1} passed`}`);
            }
            return all.length;
          },
        },
        baseline: {
          run() {
            for (let i = 0; i < all.length; i++) {
              if (schemaOnly(all[i]) !== i < firstPlanted) throw new Error(`${name}: the envelope schema misjudged event ${i + 1} (golden: ${i < firstPlanted})`);
            }
            return all.length;
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
