/**
 * The envelope (AEP-0001 §5) as a JSON Schema 2020-12 object, built from the registry so the
 * category list, the foreign-emitter set and the enums never drift from `registry.ts`.
 */
import { CAPTURE_DEFAULT, CAPTURE_ORDER, CATEGORIES, FOREIGN_EMITTER_TYPES, SEVERITY_DEFAULT, SEVERITY_ORDER } from './registry.js';

const esc = (s: string) => s.replace(/\./g, '\\.');

/**
 * `{category}.{rest}` for a core category, or `x.{vendor}.{category}.{rest}` (AEP-0001 §6).
 * The vendor namespace is open: its `{category}` token is any `[a-z0-9_]+`, as the validator reads it.
 */
export function typePattern(): string {
  const core = CATEGORIES.filter((c) => c.name !== 'x').map((c) => c.name).join('|');
  return `^((${core})(\\.[a-z0-9_]+)+|x\\.[a-z0-9_-]+\\.[a-z0-9_]+(\\.[a-z0-9_]+)+)$`;
}

/** Types whose Events carry `session` but never `seq`: registered commands, `attention.routed`, vendor `control` types. */
export function foreignPattern(): string {
  return `^(${FOREIGN_EMITTER_TYPES.map(esc).join('|')}|x\\.[a-z0-9_-]+\\.control(\\.[a-z0-9_]+)+)$`;
}

/**
 * Agent-scoped types: the core `agent` category only. Vendor types sit in the `x` namespace, whose
 * scope is open; like the validator, the schema treats them as session-scoped (AEP-0001 §5.2).
 */
export function agentPattern(): string {
  return '^agent\\.';
}

const text = { type: 'string', minLength: 1 };

export function envelopeSchema(id: string): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: id,
    title: 'AEP 0.1 Event envelope',
    description: 'AEP-0001 §5: sixteen context attributes and an optional data object; extension attributes per §5.4; session and seq presence per §5.2.',
    type: 'object',
    properties: {
      aep: { const: '0.1' },
      id: text,
      type: { type: 'string', pattern: typePattern() },
      subject: text,
      time: { type: 'string', format: 'date-time' },
      source: { type: 'string', minLength: 1, format: 'uri' },
      agent: text,
      session: text,
      run: text,
      step: text,
      seq: { type: 'integer', minimum: 0 },
      epoch: { type: 'integer', minimum: 0, default: 0 },
      cause: text,
      traceparent: { type: 'string', pattern: '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$' },
      severity: { enum: [...SEVERITY_ORDER], default: SEVERITY_DEFAULT },
      capture: { enum: [...CAPTURE_ORDER], default: CAPTURE_DEFAULT },
      data: { type: 'object' },
    },
    required: ['aep', 'id', 'type', 'time', 'source', 'agent'],
    // Every core name is itself lowercase alphanumeric, so one pattern covers core and extension names (§5.4).
    propertyNames: { pattern: '^[a-z0-9]{1,20}$' },
    additionalProperties: { type: ['string', 'integer', 'boolean'] },
    allOf: [
      {
        $comment: 'AEP-0001 §5.2: agent-scoped Events describe the emitter and carry no session, run, step or seq',
        if: { properties: { type: { pattern: agentPattern() } }, required: ['type'] },
        then: { properties: { session: false, run: false, step: false, seq: false } },
        else: {
          if: { properties: { type: { pattern: foreignPattern() } }, required: ['type'] },
          then: {
            $comment: 'AEP-0001 §5.2 exception, AEP-0004 §2.2: foreign-emitter session Events carry session and omit seq',
            required: ['session'],
            properties: { seq: false },
          },
          else: { $comment: 'AEP-0001 §5.2: session-scoped Events carry session and seq', required: ['session', 'seq'] },
        },
      },
    ],
  };
}
