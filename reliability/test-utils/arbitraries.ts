/**
 * Test-only fast-check arbitraries for the reliability suite: valid events, and mutated event
 * texts (byte flips, truncation, duplicate members, deep nesting, unsafe integers, prototype keys).
 */
import fc from 'fast-check';

const scalar = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.constant(null));
const key = fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'prototype', 'result', 'message'));
/** JSON data without -0 or non-finite numbers, nested at most three levels. */
export const jsonData = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(key, tie('value'), { maxKeys: 3 })),
})).value;

const TYPES = [
  ['progress.status', () => fc.record({ phase: fc.string({ maxLength: 10 }) })],
  ['tool.completed', () => fc.record({ tool: fc.record({ name: fc.string({ minLength: 1, maxLength: 8 }) }), status: fc.constantFrom('success', 'ok') })],
  ['x.fuzz.session.blob', () => fc.dictionary(key, jsonData, { maxKeys: 4 })],
] as const;

/** A valid session-scoped event of one of a few types, with optional severity, capture and an extension. */
export function validEvent(): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .record({
      t: fc.integer({ min: 0, max: TYPES.length - 1 }),
      id: fc.uuid(),
      session: fc.constantFrom('fz-a', 'fz-b', 'fz:c'),
      seq: fc.integer({ min: 0, max: 2 ** 40 }),
      epoch: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
      severity: fc.option(fc.constantFrom('debug', 'info', 'notice', 'warning', 'error', 'critical'), { nil: undefined }),
      capture: fc.option(fc.constantFrom('metadata', 'redacted', 'full'), { nil: undefined }),
      team: fc.option(fc.constantFrom('red', 'blue'), { nil: undefined }),
    })
    .chain((r) =>
      TYPES[r.t]![1]().map((data) => {
        const e: Record<string, unknown> = { aep: '0.1', id: r.id, type: TYPES[r.t]![0], time: '2026-12-01T09:00:00Z', source: 'aep://fuzz/agent/f', agent: 'f', session: r.session, seq: r.seq };
        if (r.epoch !== undefined) e.epoch = r.epoch;
        if (r.severity !== undefined) e.severity = r.severity;
        if (r.capture !== undefined) e.capture = r.capture;
        if (r.team !== undefined) e.team = r.team;
        e.data = data;
        return e;
      }),
    );
}

type Mutation = (text: string, n: number) => string;
const MUTATIONS: readonly Mutation[] = [
  (t) => t,
  (t, n) => t.slice(0, n % (t.length + 1)),
  (t, n) => `${t.slice(0, n % t.length)}${String.fromCharCode(n % 128)}${t.slice((n % t.length) + 1)}`,
  (t) => t.replace('"type":', '"type":"control.cancel","type":'),
  (t) => t.replace('"data":', '"data":{"result":"S3CR3T"},"data":'),
  (t, n) => t.replace('"data":', `"deep":${'['.repeat(60 + (n % 40))}${']'.repeat(60 + (n % 40))},"data":`),
  (t) => t.replace(/"seq":\d+/, '"seq":9007199254740993'),
  (t) => t.replace('"data":{', '"data":{"__proto__":{"polluted":true},'),
  (t) => `${t}\n${t}`,
  (t) => t.replace('"aep":"0.1"', '"aep":0.1'),
  (t) => t.replace(/"session":"[^"]*"/, '"session":""'),
  (t) => `\uFEFF${t}`,
  (t) => t.replace(/}$/, ',"x":"\\ud800"}'),
];

/** A valid event's text, mutated by one of the mutations above. */
export function anyEventText(): fc.Arbitrary<string> {
  return fc.tuple(validEvent(), fc.integer({ min: 0, max: MUTATIONS.length - 1 }), fc.nat()).map(([e, m, n]) => MUTATIONS[m]!(JSON.stringify(e), n));
}
