/**
 * Whole-output tests of envelope.ts: every message in full, the RFC 3339 reader position by
 * position, and the edges of each pattern. Written against the mutants `npm run mutate` left
 * alive in envelope.ts (docs/mutation.md); the property tests that hold `isDateTime` equal to a
 * regular expression (envelope.fast.test.ts) are too slow to run per mutant, so the example
 * tests here hold it instead.
 */
import { describe, expect, it } from 'vitest';
import { MAX_DEPTH } from './json-shape.js';
import { isDateTime, validateEnvelope, validateEvent } from './envelope.js';

/** A valid session-scoped Event; each test breaks one thing. */
const ok = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  aep: '0.1', id: 'ev-1', type: 'progress.status', time: '2026-11-12T10:00:00Z', source: 'aep://box/agent/tern/session/s-1', agent: 'tern', session: 's-1', seq: 0, ...extra,
});
const without = (ev: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(Object.entries(ev).filter(([k]) => !keys.includes(k)));
/** Each issue as `rule path: message`. */
const said = (issues: readonly { rule: string; path: string; message: string }[]) => issues.map((i) => `${i.rule} ${i.path}: ${i.message}`);
const envelope = (v: unknown) => said(validateEnvelope(v));
const event = (v: unknown) => said(validateEvent(v));

describe('isDateTime, position by position', () => {
  const good = [
    '2026-07-03T10:15:04Z', '2026-07-03t10:15:04z', '2026-07-03T10:15:04.221Z', '2026-07-03T10:15:04.0+05:30', '2026-07-03T10:15:04-23:59',
    '2024-02-29T00:00:00Z', '2000-02-29T00:00:00Z', '2026-12-31T23:59:60Z', '0000-01-01T00:00:00Z', '2026-01-31T00:00:00+00:00', '2026-04-30T00:00:00Z',
  ];
  const bad = [
    // shape and separators
    '2026-07-03T10:15:04', '2026-07-03T10:15:4Z', '2026/07-03T10:15:04Z', '2026-07/03T10:15:04Z', '2026-07-03T10/15:04Z', '2026-07-03T10:15/04Z', '2026-07-03 10:15:04Z', '2026-07-03X10:15:04Z',
    // a non-digit in each field, on either side of the digits
    'a026-07-03T10:15:04Z', '2026-0a-03T10:15:04Z', '2026-07-0aT10:15:04Z', '2026-07-03T1a:15:04Z', '2026-07-03T10:1a:04Z', '2026-07-03T10:15:0aZ',
    '/026-07-03T10:15:04Z', '20/6-07-03T10:15:04Z', '2026-07-03T10:15:0/Z', '2026-07-03T10:15:0:Z', '2026-:7-03T10:15:04Z',
    // fraction and zone
    '2026-07-03T10:15:04.Z', '2026-07-03T10:15:04.5', '2026-07-03T10:15:04Zx', '2026-07-03T10:15:04 Z', '2026-07-03T10:15:04X05:30',
    '2026-07-03T10:15:04+05:3', '2026-07-03T10:15:04+05:300', '2026-07-03T10:15:04+05-30', '2026-07-03T10:15:04+24:00', '2026-07-03T10:15:04+23:60',
    '2026-07-03T10:15:04+2a:00', '2026-07-03T10:15:04+00:a0',
    // calendar and clock ranges
    '2026-13-01T00:00:00Z', '2026-00-01T00:00:00Z', '2026-01-00T00:00:00Z', '2026-02-29T00:00:00Z', '1900-02-29T00:00:00Z', '2026-04-31T00:00:00Z',
    '2026-01-32T00:00:00Z', '2026-07-03T24:00:00Z', '2026-07-03T10:60:00Z', '2026-07-03T10:15:61Z',
  ];
  it.each(good)('accepts %s', (s) => expect(isDateTime(s)).toBe(true));
  it.each(bad)('refuses %s', (s) => expect(isDateTime(s)).toBe(false));
});

describe('validateEnvelope: what it says about each attribute', () => {
  it('a value that is not an object', () => {
    expect([null, [], 5, 'x', true].flatMap(envelope)).toEqual([
      'envelope.not_object $: an Event must be a JSON object, got null',
      'envelope.not_object $: an Event must be a JSON object, got an array',
      'envelope.not_object $: an Event must be a JSON object, got a number',
      'envelope.not_object $: an Event must be a JSON object, got a string',
      'envelope.not_object $: an Event must be a JSON object, got a boolean',
    ]);
  });
  it('an Event nested too deep', () => {
    let deep: unknown = 1;
    for (let i = 0; i < MAX_DEPTH + 1; i++) deep = [deep];
    const found = validateEnvelope(ok({ data: { deep } }));
    expect(found).toHaveLength(1);
    const at = found[0]!.path;
    expect(said(found)).toEqual([`envelope.depth ${at}: the Event nests deeper than ${MAX_DEPTH} levels of objects and arrays at ${at}; flatten the payload (or carry a digest of the deep value)`]);
  });
  it('aep', () => {
    expect(envelope(without(ok(), 'aep'))).toEqual(['envelope.aep.required $.aep: missing `aep`: add "aep": "0.1" (the envelope version)']);
    expect([null, [], {}, 1, true, '0.2'].flatMap((aep) => envelope(ok({ aep })))).toEqual([
      '`aep` is null', '`aep` is an array', '`aep` is an object', '`aep` is number 1', '`aep` is boolean true', '`aep` is "0.2"',
    ].map((is) => `envelope.aep.version $.aep: ${is}; this validator reads the 0.1 envelope only, so set "aep": "0.1"`));
  });
  it('shows a long value cut at 60 characters', () => {
    const sixty = 'v'.repeat(60);
    expect(envelope(ok({ aep: sixty }))).toEqual([`envelope.aep.version $.aep: \`aep\` is "${sixty}"; this validator reads the 0.1 envelope only, so set "aep": "0.1"`]);
    expect(envelope(ok({ aep: `${sixty}w` }))).toEqual([`envelope.aep.version $.aep: \`aep\` is "${sixty}…"; this validator reads the 0.1 envelope only, so set "aep": "0.1"`]);
  });
  it('the string attributes', () => {
    expect(envelope(without(ok(), 'id'))).toEqual(['envelope.id.required $.id: missing required attribute `id`']);
    expect(envelope(ok({ run: null }))).toEqual(['envelope.run.type $.run: `run` must be a string, got null (absent optional attributes are omitted, never null)']);
    expect(envelope(ok({ run: 3 }))).toEqual(['envelope.run.type $.run: `run` must be a string, got number 3']);
    expect(envelope(ok({ run: '' }))).toEqual(['envelope.run.empty $.run: `run` must not be empty; omit it if there is no value']);
    expect(envelope(ok({ time: '2026-11-12' }))).toEqual(['envelope.time.format $.time: `time` "2026-11-12" is not an RFC 3339 date-time with timezone, e.g. "2026-07-03T10:15:04.221Z"']);
    expect(envelope(ok({ source: 'box/agent' }))).toEqual(['envelope.source.format $.source: `source` "box/agent" is not an absolute URI; use e.g. "aep://host/agent/{agent}/session/{session}" and percent-encode segments']);
    // An empty type is the grammar's to report, not the emptiness rule's.
    expect(envelope(ok({ type: '' })).map((s) => s.split(':')[0])).toEqual(['type.grammar $.type']);
  });
  it('absolute URIs, anchored at both ends', () => {
    expect(envelope(ok({ source: 'aep://box/a%20b' }))).toEqual([]);
    for (const source of [' aep://box', 'aep://box x', '1aep://box', 'aep://box/%2']) expect(envelope(ok({ source })).map((s) => s.split(' ')[0])).toEqual(['envelope.source.format']);
  });
  it('seq and epoch', () => {
    expect(envelope(ok({ seq: 1.5 }))).toEqual(['envelope.seq.type $.seq: `seq` must be a non-negative integer, got number 1.5']);
    expect(envelope(ok({ epoch: -1 }))).toEqual(['envelope.epoch.minimum $.epoch: `epoch` is -1; it must be >= 0']);
    expect(envelope(ok({ seq: Number.MAX_SAFE_INTEGER }))).toEqual([]);
    expect(envelope(ok({ seq: Number.MAX_SAFE_INTEGER + 1 }))).toEqual([
      `envelope.seq.range $.seq: \`seq\` is number 9007199254740992, above 2^53 - 1 (9007199254740991): JSON readers would round it; keep positions within that bound`,
    ]);
  });
  it('severity, capture and data', () => {
    expect(envelope(ok({ severity: 'loud' }))).toEqual(['envelope.severity.enum $.severity: `severity` "loud" is not one of debug, info, notice, warning, error, critical']);
    expect(envelope(ok({ capture: 'all' }))).toEqual(['envelope.capture.enum $.capture: `capture` "all" is not one of none, metadata, redacted, full']);
    expect(envelope(ok({ data: [1] }))).toEqual(['envelope.data.type $.data: `data` must be a JSON object, got an array; omit it when there is no payload']);
  });
  it('traceparent', () => {
    const t = (v: string) => envelope(ok({ traceparent: v }));
    // A trace id ending in 0 and a parent id starting and ending in 0 are not all zeros.
    expect(t('00-0af7651916cd43dd8448eb211c803190-0b7ad6b716920330-01')).toEqual([]);
    const shape = 'is not a W3C traceparent: version-traceid-parentid-flags in lowercase hex, e.g. "00-<32 hex>-<16 hex>-01"';
    const good = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    expect([`a${good}`, `${good}-00`].flatMap(t)).toEqual([`a${good}`, `${good}-00`].map((v) => `envelope.traceparent.format $.traceparent: \`traceparent\` "${v}" ${shape}`));
    expect(t('ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01')).toEqual([
      'envelope.traceparent.format $.traceparent: `traceparent` "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" uses version ff, which W3C Trace Context forbids',
    ]);
    expect(t('00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01')[0]).toMatch(/has an all-zero parent id, which W3C Trace Context forbids$/);
  });
});

describe('validateEnvelope: extension attributes', () => {
  it('names: too long, or outside a-z and 0-9; long names shown cut at 60', () => {
    expect(envelope(ok({ ['t'.repeat(20)]: 1 }))).toEqual([]);
    const grammar = (shown: string, why: string) => `ext.name.grammar $${/^[A-Za-z_$][\w$]*$/.test(shown) ? `.${shown}` : `["${shown}"]`}: extension attribute "${shown}" ${why}; rename it to match [a-z0-9]{1,20}, starting with your vendor name`;
    expect(envelope(ok({ ['t'.repeat(21)]: 1 }))).toEqual([grammar('t'.repeat(21), 'is 21 characters long (at most 20)')]);
    expect(envelope(ok({ ternX: 1 }))).toEqual([grammar('ternX', 'uses characters outside lowercase a-z and 0-9')]);
    expect(envelope(ok({ [`ternX${'t'.repeat(15)}`]: 1 }))).toEqual([grammar(`ternX${'t'.repeat(15)}`, 'uses characters outside lowercase a-z and 0-9')]);
    const sixty = 'T'.repeat(60);
    expect(envelope(ok({ [sixty]: 1 }))[0]).toContain(`extension attribute "${sixty}" is 60 characters long`);
    expect(envelope(ok({ [`${sixty}U`]: 1 }))[0]).toContain(`extension attribute "${sixty}…" is 61 characters long`);
  });
  it('values: a string, an integer or a boolean', () => {
    expect(envelope(ok({ ternf: 1.5 }))).toEqual(['ext.value.type $.ternf: extension attribute values must be a string, an integer or a boolean, got number 1.5; put structured data in `data`']);
    expect(envelope(ok({ terns: 's', ternn: -2, ternb: false }))).toEqual([]);
  });
});

describe('validateEnvelope: type grammar, anchored', () => {
  const typeIssues = (type: string) => validateEnvelope(ok({ type })).filter((i) => i.path === '$.type').map((i) => `${i.rule}: ${i.message}`);
  it('uppercase', () => {
    expect(typeIssues('Run.Started')).toEqual(['type.grammar: type "Run.Started" has uppercase letters; AEP types are lowercase (e.g. "tool.completed")']);
  });
  it('core types: two or more tokens, from the first character', () => {
    expect(typeIssues('-run.started')).toEqual(['type.grammar: type "-run.started" must be {category}.{rest}: two or more dot-separated [a-z0-9_] tokens, e.g. "run.started"']);
    expect(typeIssues('nosuch.a.b')).toEqual(['type.category: "nosuch" is not an AEP 0.1 category; use a registered category or a vendor type x.{vendor}.nosuch.a.b']);
  });
  it('vendor types, from the first character to the last', () => {
    const vendor = (t: string) => `type.vendor: vendor type "${t}" must be x.{vendor}.{category}.{rest} (at least four segments, e.g. "x.acme.session.note"); tokens use [a-z0-9_], the vendor also "-"`;
    expect(typeIssues('x.acme.session.note')).toEqual([]);
    for (const t of ['x.acme.session.note!', 'x.$.x.acme.session.note']) expect(typeIssues(t)).toEqual([vendor(t)]);
  });
  it('a vendor command is x.{vendor}.control.{rest} on one line', () => {
    const scope = (type: string, extra: Record<string, unknown>) => validateEnvelope(ok({ type, ...extra })).filter((i) => i.rule.startsWith('scope.')).map((i) => `${i.rule}: ${i.message}`);
    expect(scope('x.acme.control.go', {})).toEqual(['scope.command.seq: a command is a foreign-emitter session Event: its sender does not own the session order, so remove `seq`']);
    expect(scope('x.$.x.acme.control.go', {})).toEqual([]);
    expect(scope('x.acme.control.go\nx', {})).toEqual([]);
  });
});

describe('validateEnvelope: scope', () => {
  const scope = (v: Record<string, unknown>) => validateEnvelope(v).filter((i) => i.rule.startsWith('scope.')).map((i) => `${i.rule} ${i.path}: ${i.message}`);
  it('agent-scoped Events carry no session attributes', () => {
    expect(scope(ok({ type: 'agent.heartbeat', run: 'r' }))).toEqual(['session', 'run', 'seq'].map((n) => `scope.agent.forbidden $.${n}: agent-scoped Events (agent.*) describe the emitter, not a session: remove \`${n}\``));
  });
  it('who must name a session, and who must not number it', () => {
    expect(scope(without(ok({ type: 'control.pause' }), 'session', 'seq'))).toEqual(['scope.session.required $.session: missing `session`: a command must name its target session']);
    expect(scope(without(ok({ type: 'attention.routed', subject: 'q' }), 'session', 'seq'))).toEqual(['scope.session.required $.session: missing `session`: `attention.routed` is scoped to the original session']);
    expect(scope(without(ok(), 'session'))).toEqual(['scope.session.required $.session: missing `session`: session-scoped Events carry `session`']);
    expect(scope(ok({ type: 'attention.routed', subject: 'q' }))).toEqual(['scope.routed.seq $.seq: `attention.routed` is a foreign-emitter session Event: its sender does not own the session order, so remove `seq`']);
    expect(scope(without(ok(), 'seq'))).toEqual(['scope.seq.required $.seq: missing `seq`: the session owner numbers every session-scoped Event (per-session counter, ordering and resume basis)']);
  });
});

describe('validateEvent: registry, type rules and payload', () => {
  it('a malformed type is reported once, by the grammar, not again as unregistered', () => {
    expect(validateEvent(ok({ type: 'Run.Started' })).map((i) => i.rule)).toEqual(['type.grammar']);
    // Any other envelope issue leaves a registered type registered: its payload is still checked.
    expect(validateEvent(ok({ severity: 'loud', data: { message: 'text' } })).map((i) => i.rule)).toEqual(['envelope.severity.enum', 'capture.field.level']);
    expect(event(ok({ type: 'run.nosuch' }))).toEqual(['registry.type.unregistered $.type: "run.nosuch" is in the core "run" namespace but is not a registered 0.1 type; vendor types use x.{vendor}.run.nosuch']);
  });
  it('the per-type rules, in full', () => {
    expect(event(without(ok({ type: 'attention.timeout' }), 'subject'))).toEqual(['attention.subject.required $.subject: attention.timeout must set `subject` to the id of the attention.requested Event it follows']);
    expect(event(ok({ type: 'control.accepted' }))).toEqual(['control.ack.cause $.cause: control.accepted must set `cause` to the id of the command it acknowledges']);
    const respond = without(ok({ type: 'control.attention.respond', source: 'aep://desk/agent/d', data: { answer: { option: 'yes' } } }), 'seq');
    expect(event(respond)).toEqual(['control.respond.subject $.subject: control.attention.respond must set `subject` to the id of the attention.requested Event it answers']);
  });
  it('capture none: content is the one finding', () => {
    expect(event(ok({ capture: 'none', data: { percent: 1 } }))).toEqual(['capture.none.data $.data: capture "none" means envelope only: drop `data` or declare the capture level the payload needs']);
  });
  it('a payload that is not an object is reported by the envelope alone', () => {
    expect(validateEvent(ok({ type: 'tool.completed', data: 'text' })).map((i) => i.rule)).toEqual(['envelope.data.type']);
    expect(validateEvent(ok({ type: 'tool.completed', data: [] })).map((i) => i.rule)).toEqual(['envelope.data.type']);
  });
  it('capture honesty uses the declared level, metadata when none is declared', () => {
    expect(event(ok({ data: { message: 'text' } }))).toEqual(['capture.field.level $.data.message: `$.data.message` may appear only at capture "redacted" or above, but this Event declares "metadata"; drop the field or declare the capture level it needs']);
    expect(validateEvent(ok({ capture: 'full', data: { message: 'text' } }))).toEqual([]);
  });
  it('form structure and citation offsets are checked on their own types only', () => {
    expect(validateEvent(ok({ data: { fields: [], citations: [{ source: { id: 'd' }, offset: { char: {}, page: {} } }] } })).map((i) => i.rule)).not.toContain('form.fields.kind');
    expect(validateEvent(ok({ data: { citations: [{ source: { id: 'd' }, offset: { char: {}, page: {} } }] } })).map((i) => i.rule)).not.toContain('citation.offset.variants');
  });
  it('citation offsets, in full', () => {
    const cite = ok({ type: 'resource.citation.recorded', data: { citations: [{ source: { id: 'd' }, offset: { char: { start: 0, end: 1 }, block: { id: 'b' } } }] } });
    expect(event(cite).filter((s) => s.startsWith('citation.'))).toEqual([
      'citation.offset.variants $.data.citations[0].offset: a citation offset populates at most one of char, page, block, but this one has char and block; keep the one that locates the span',
    ]);
  });
  it('form structure, in full', () => {
    const req = (data: Record<string, unknown>) => event(ok({ type: 'attention.requested', capture: 'redacted', data: { prompt: 'p', ...data } })).filter((s) => s.startsWith('form.'));
    expect(req({ kind: 'input', fields: [] })).toEqual(['form.fields.kind $.data.fields: `fields` belongs to kind "form" requests only, but kind is "input"; set kind "form" or drop fields']);
    const choice = (id: unknown) => ({ id, label: 'c' });
    const fields = [
      { id: 'a', type: 'string', label: 'A' },
      { id: 'a', type: 'select', label: 'B', choices: [choice('x'), choice('x'), null, 'y', choice(5), choice(5)] },
    ];
    expect(() => req({ kind: 'form', fields })).not.toThrow();
    expect(req({ kind: 'form', fields })).toEqual([
      'form.field.duplicate $.data.fields[1].id: field id "a" is used twice; answer.values is keyed by field id, so ids must be unique',
      'form.choice.duplicate $.data.fields[1].choices[1].id: choice id "x" appears twice in this field; choice ids must be unique',
    ]);
  });
});
