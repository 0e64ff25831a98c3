/**
 * Behaviours of `validatePayload` that the main tests leave open (issue 25, mutation score).
 *
 * Most cases use the real registry. The rules the mapper keeps for schema keywords our own
 * schemas do not use today (`payload.const`, `payload.additional`, `payload.schema`, most range
 * keywords, other formats and patterns) are checked through a few synthetic registered types:
 * the registry and schema modules are wrapped so that `test.*` names resolve to hand-written
 * schemas, while every real type still resolves to its real schema.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TypeEntry } from '../../spec/registry.js';

const synth = vi.hoisted(() => {
  const entry = (type: string, section: string, payload = true) => ({
    type, category: 'test', status: 'optional', scope: 'session', payload, foreign: false, experimental: true, section, summary: `synthetic ${type}`,
  });
  const types: Record<string, { entry: ReturnType<typeof entry>; schema: Record<string, unknown> }> = {
    // Every keyword the mapper knows, in a type defined outside AEP-0002.
    'test.mapper': {
      entry: entry('test.mapper', 'AEP-0009 §9'),
      schema: {
        type: 'object',
        properties: {
          tool: { type: 'object', properties: { name: { type: 'string' } } },
          mode: { const: 'fast' },
          closed: { type: 'object', additionalProperties: false, properties: { ok: { type: 'boolean' } } },
          above: { type: 'number', exclusiveMinimum: 0 },
          below: { type: 'number', exclusiveMaximum: 10 },
          few: { type: 'array', minItems: 1 },
          many: { type: 'array', maxItems: 1 },
          short: { type: 'string', minLength: 2 },
          long: { type: 'string', maxLength: 2 },
          some: { type: 'object', minProperties: 1 },
          most: { type: 'object', maxProperties: 1 },
          even: { type: 'integer', multipleOf: 2 },
          mail: { type: 'string', format: 'email' },
          slug: { type: 'string', pattern: '^[a-z]+$' },
          'a/b': { type: 'string' },
          'c~d': { type: 'string' },
          x1: { type: 'string' },
          '1x': { type: 'string' },
          '01': { type: 'string' },
        },
      },
    },
    // Required members whose own schemas differ, to read the "add …" hint of each.
    'test.required': {
      entry: entry('test.required', 'AEP-0009 §9'),
      schema: {
        type: 'object',
        required: ['pair', 'open', 'either', 'anything', 'shape', 'bare'],
        properties: {
          pair: { type: 'object', required: ['a', 'b'] },
          open: { type: 'object', required: [] },
          either: { type: ['string', 'integer'] },
          anything: {},
          shape: { required: ['x'] },
        },
      },
    },
    // Two subschemas raising the very same finding.
    'test.twice': {
      entry: entry('test.twice', 'AEP-0009 §9'),
      schema: { allOf: [{ required: ['a'] }, { required: ['a'] }] },
    },
    // A type registered without a payload: whatever schema exists, it is not validated.
    'test.nopayload': {
      entry: entry('test.nopayload', 'AEP-0009 §9', false),
      schema: { type: 'object', required: ['x'] },
    },
  };
  return types;
});

vi.mock('../../spec/registry.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../spec/registry.js')>();
  return { ...actual, lookupType: (t: string) => (synth[t]?.entry as TypeEntry | undefined) ?? actual.lookupType(t) };
});

vi.mock('../../spec/json-schema.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../spec/json-schema.js')>();
  return { ...actual, payloadJsonSchema: (t: string) => synth[t]?.schema ?? actual.payloadJsonSchema(t) };
});

type PayloadModule = typeof import('./payload.js');
let mod: PayloadModule;

beforeAll(async () => {
  mod = await import('./payload.js');
});

/** A fresh module: its ajv instance and validator cache are then built inside the calling test. */
async function fresh(): Promise<void> {
  vi.resetModules();
  mod = await import('./payload.js');
}

const check = (type: string, data: unknown) => mod.validatePayload(type, data);
const one = (rule: string, section: string, path: string, message: string) => ({ rule, section, path, message });

describe('ajv reports every finding, with the offending value', () => {
  beforeEach(fresh);

  it('lists all problems of one payload, not only the first', () => {
    expect(check('tool.denied', { tool: {} })).toEqual([
      one('payload.required', 'AEP-0002 §5.3', '$.data.by', 'tool.denied: `$.data.by` is required; add one of "policy", "user_setting", "runtime"'),
      one('payload.required', 'AEP-0002 §5.2', '$.data.tool.name', 'tool.denied: `$.data.tool.name` is required; add a string'),
    ]);
  });

  it('quotes the value it rejects', () => {
    expect(check('agent.health', { status: 'sick' })).toEqual([
      one('payload.enum', 'AEP-0002 §5.4', '$.data.status', 'agent.health: `$.data.status` must be one of "ok", "degraded", "failing", got "sick"'),
    ]);
  });

  it('says "got nothing" when data is absent', () => {
    expect(check('run.failed', undefined)).toEqual([
      one('payload.type', 'AEP-0002 §5.3', '$.data', 'run.failed: `$.data` must be an object, got nothing'),
    ]);
  });
});

describe('shown values are cut at 60 characters', () => {
  it('keeps a 60-character value whole', () => {
    const v = 'x'.repeat(58); // JSON text of 60 characters
    expect(check('agent.health', { status: v })[0]!.message).toBe(`agent.health: \`$.data.status\` must be one of "ok", "degraded", "failing", got "${v}"`);
  });

  it('cuts a 61-character value to 57 characters and an ellipsis', () => {
    const v = 'x'.repeat(59);
    expect(check('agent.health', { status: v })[0]!.message).toBe(`agent.health: \`$.data.status\` must be one of "ok", "degraded", "failing", got "${'x'.repeat(56)}...`);
  });
});

describe('common objects of AEP-0002 §5.2 are cited by their own section', () => {
  it.each([
    ['tool.denied', { by: 'policy', tool: { name: 1 } }, '$.data.tool.name', 'a string, got 1'],
    ['run.failed', { reason: 'x', error: { type: 1 } }, '$.data.error.type', 'a string, got 1'],
    ['resource.retrieval.returned', { documents: [{ id: 1 }] }, '$.data.documents[0].id', 'a string, got 1'],
    ['resource.retrieval.reranked', { input_documents: [{ id: 1 }] }, '$.data.input_documents[0].id', 'a string, got 1'],
    ['resource.retrieval.reranked', { output_documents: [{ id: 1 }] }, '$.data.output_documents[0].id', 'a string, got 1'],
    ['resource.citation.recorded', { citations: [{ source: {}, cited_text: 1 }] }, '$.data.citations[0].cited_text', 'a string, got 1'],
  ])('%s: %s', (type, data, path, tail) => {
    expect(check(type, data)).toEqual([one('payload.type', 'AEP-0002 §5.2', path, `${type}: \`${path}\` must be ${tail}`)]);
  });

  it('the common object itself is §5.2; any other member keeps the type\'s section', () => {
    expect(check('run.failed', { reason: 1, error: 'boom' })).toEqual([
      one('payload.type', 'AEP-0002 §5.3', '$.data.reason', 'run.failed: `$.data.reason` must be a string, got 1'),
      one('payload.type', 'AEP-0002 §5.2', '$.data.error', 'run.failed: `$.data.error` must be an object, got "boom"'),
    ]);
  });

  it('a type defined outside AEP-0002 keeps its own section even under a common-object name', () => {
    expect(check('test.mapper', { tool: { name: 1 } })).toEqual([
      one('payload.type', 'AEP-0009 §9', '$.data.tool.name', 'test.mapper: `$.data.tool.name` must be a string, got 1'),
    ]);
  });
});

describe('paths: array indexes and awkward member names', () => {
  it('an index below 10 is an index', () => {
    expect(check('attention.requested', { kind: 'input', prompt: 'p', respond_via: ['control', 'x'] })).toEqual([
      one('payload.enum', 'AEP-0002 §5.3', '$.data.respond_via[1]', 'attention.requested: `$.data.respond_via[1]` must be one of "control", "oob", got "x"'),
    ]);
  });

  it('an index of two and three digits is an index', () => {
    const via = Array.from({ length: 101 }, (_, i) => (i === 10 || i === 100 ? 'x' : 'oob'));
    expect(check('attention.requested', { kind: 'input', prompt: 'p', respond_via: via }).map((i) => i.path)).toEqual([
      '$.data.respond_via[10]', '$.data.respond_via[100]',
    ]);
  });

  it('member names that look partly numeric stay names', () => {
    expect(check('test.mapper', { x1: 1, '1x': 1, '01': 1 }).map((i) => i.path)).toEqual(['$.data.x1', '$.data["1x"]', '$.data["01"]']);
  });

  it('"/" and "~" in member names are unescaped', () => {
    expect(check('test.mapper', { 'a/b': 1, 'c~d': 1 })).toEqual([
      one('payload.type', 'AEP-0009 §9', '$.data["a/b"]', 'test.mapper: `$.data["a/b"]` must be a string, got 1'),
      one('payload.type', 'AEP-0009 §9', '$.data["c~d"]', 'test.mapper: `$.data["c~d"]` must be a string, got 1'),
    ]);
  });
});

describe('keywords our schemas do not use today still map to their rule', () => {
  it('const is payload.const', () => {
    expect(check('test.mapper', { mode: 'slow' })).toEqual([
      one('payload.const', 'AEP-0009 §9', '$.data.mode', 'test.mapper: `$.data.mode` must be "fast", got "slow"'),
    ]);
  });

  it('a closed object is payload.additional, at the extra member', () => {
    expect(check('test.mapper', { closed: { ok: true, extra: 1 } })).toEqual([
      one('payload.additional', 'AEP-0009 §9', '$.data.closed.extra', 'test.mapper: `$.data.closed` does not allow member "extra"; remove it'),
    ]);
  });

  it.each([
    ['above', 0, 'must be > 0, got 0'],
    ['below', 10, 'must be < 10, got 10'],
    ['few', [], 'must NOT have fewer than 1 items, got []'],
    ['many', [1, 2], 'must NOT have more than 1 items, got [1,2]'],
    ['short', 'a', 'must NOT have fewer than 2 characters, got "a"'],
    ['long', 'abc', 'must NOT have more than 2 characters, got "abc"'],
    ['some', {}, 'must NOT have fewer than 1 properties, got {}'],
    ['most', { a: 1, b: 2 }, 'must NOT have more than 1 properties, got {"a":1,"b":2}'],
  ])('%s is payload.range', (member, value, tail) => {
    expect(check('test.mapper', { [member]: value })).toEqual([
      one('payload.range', 'AEP-0009 §9', `$.data.${member}`, `test.mapper: \`$.data.${member}\` ${tail}`),
    ]);
  });

  it('any other keyword is payload.schema, with ajv\'s own words', () => {
    expect(check('test.mapper', { even: 3 })).toEqual([
      one('payload.schema', 'AEP-0009 §9', '$.data.even', 'test.mapper: `$.data.even` must be multiple of 2'),
    ]);
  });

  it('a format other than date-time is named as such', () => {
    expect(check('test.mapper', { mail: 'nobody' })).toEqual([
      one('payload.format', 'AEP-0009 §9', '$.data.mail', 'test.mapper: `$.data.mail` must be a valid email, got "nobody"'),
    ]);
  });

  it('a pattern other than the currency code is shown as a regular expression', () => {
    expect(check('test.mapper', { slug: 'A' })).toEqual([
      one('payload.pattern', 'AEP-0009 §9', '$.data.slug', 'test.mapper: `$.data.slug` must match /^[a-z]+$/, got "A"'),
    ]);
  });
});

describe('payload.required says what to add', () => {
  it('for each kind of member schema', () => {
    expect(check('test.required', {}).map((i) => i.message)).toEqual([
      'test.required: `$.data.pair` is required; add an object with `a`, `b`',
      'test.required: `$.data.open` is required; add an object',
      'test.required: `$.data.either` is required; add a string or an integer',
      'test.required: `$.data.anything` is required; add it',
      'test.required: `$.data.shape` is required; add it',
      'test.required: `$.data.bare` is required; add it',
    ]);
  });

  it('a select field without choices ends with "add it"', () => {
    expect(check('attention.requested', { kind: 'form', prompt: 'p', fields: [{ id: 'f', type: 'select', label: '1' }] })).toEqual([
      one('payload.required', 'AEP-0002 §5.2', '$.data.fields[0].choices',
        'attention.requested: `$.data.fields[0].choices` is required because `type` is "select" (AEP-0006: a select field lists its choices); add it'),
    ]);
  });
});

describe('each finding is reported once', () => {
  it('two subschemas raising the same finding give one issue', () => {
    expect(check('test.twice', {})).toEqual([
      one('payload.required', 'AEP-0009 §9', '$.data.a', 'test.twice: `$.data.a` is required; add it'),
    ]);
  });
});

describe('only types registered with a payload are validated', () => {
  it('a type registered without a payload returns [] even if a schema exists', () => {
    expect(check('test.nopayload', {})).toEqual([]);
    expect(mod.schemaForType('test.nopayload')).toBeUndefined();
  });
});
