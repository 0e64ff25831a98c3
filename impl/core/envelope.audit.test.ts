/**
 * Audit of single-Event validation against false rejections (AEP-0001 §5-§8, AEP-0002 §5, §7,
 * AEP-0004, AEP-0006, AEP-0009): every legal shape gives zero issues. Payloads are generated from
 * the payload schemas themselves (ours, and the standard's when `../shared` is present), so every
 * registered type is exercised with a minimal and a maximal payload at every capture level.
 * The generator is self-tested: its maximal payloads must trip the capture-honesty check when
 * declared too low, so an empty validator cannot pass this file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateEvent } from './envelope.js';
import { CAPTURE_ORDER, captureRank, type CaptureLevel } from './event.js';
import { renderIssue } from './issue.js';
import { schemaForType } from './payload.js';
import { TYPES } from '../../spec/registry.js';
import { standardPath } from '../test-utils/standard.js';
import { skipped, WHY } from '../test-utils/skip.js';

type Schema = Record<string, unknown>;
const rank = (level: unknown): number => captureRank((typeof level === 'string' ? level : 'metadata') as CaptureLevel);

/** A value valid under `schema`: every declared property when `max`, only the required ones otherwise. */
function sample(schema: Schema | undefined, max: boolean): unknown {
  if (schema === undefined) return 'v';
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'date-time') return '2027-02-03T04:05:06.789+01:00';
      if (schema.pattern === '^[A-Z]{3}$') return 'JPY';
      return 'v';
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum + 1 : 7;
    case 'number':
      if (typeof schema.minimum === 'number') return schema.minimum + 0.5;
      return typeof schema.maximum === 'number' ? schema.maximum / 2 : -2.5;
    case 'boolean':
      return false;
    case 'array':
      return [sample(schema.items as Schema | undefined, max)];
    case 'object':
    case undefined: {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set((schema.required ?? []) as string[]);
      const out: Record<string, unknown> = {};
      for (const [k, sub] of Object.entries(props)) if (max || required.has(k)) out[k] = k === 'currency' ? 'JPY' : sample(sub, max);
      if (Object.keys(props).length === 0 && max) out.vendorkey = 1;
      return out;
    }
    default:
      return 'v';
  }
}

/** Drop every member annotated above `level`, as an honest emitter does (AEP-0002 §5.1 rule 1). */
function gate(schema: Schema | undefined, value: unknown, level: CaptureLevel): unknown {
  if (schema === undefined) return value;
  if (Array.isArray(value)) return value.map((v) => gate(schema.items as Schema | undefined, v, level));
  if (typeof value !== 'object' || value === null) return value;
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const sub = props[k];
    if (sub !== undefined && rank(sub['x-aep-capture']) > captureRank(level)) continue;
    out[k] = gate(sub, v, level);
  }
  return out;
}

/** The legal payload for `type` after the prose rules a schema cannot state are honoured. */
function payloadFor(type: string, schema: Schema, max: boolean): Record<string, unknown> {
  const data = sample(schema, max) as Record<string, unknown>;
  if (type === 'attention.requested' && 'fields' in data) data.kind = 'form'; // fields only on kind form
  if (type === 'resource.citation.recorded' && Array.isArray(data.citations)) {
    const c = data.citations[0] as { offset?: Record<string, unknown> };
    if (c.offset !== undefined) delete c.offset.page, delete c.offset.block; // at most one offset variant
  }
  return data;
}

/** A legal envelope for `type`: scope (agent, command, routed, sequenced), subject and cause as the prose demands. */
function envelopeFor(type: string, capture: CaptureLevel | undefined, data: Record<string, unknown> | undefined): Record<string, unknown> {
  const ev: Record<string, unknown> = {
    aep: '0.1',
    id: `01KAUDIT${type.replace(/\W/g, '').slice(0, 10).toUpperCase()}`,
    type,
    time: '2027-02-03T04:05:06Z',
    source: 'aep://audit-host/agent/kestrel/session/s%20audit',
    agent: 'kestrel',
  };
  const entry = TYPES.find((t) => t.type === type);
  if (!type.startsWith('agent.')) {
    ev.session = 's audit';
    if (entry?.foreign !== true) ev.seq = 41;
  }
  if (type.startsWith('attention.') && type !== 'attention.requested') ev.subject = '01KAUDITREQUEST';
  if (type === 'control.attention.respond') ev.subject = '01KAUDITREQUEST';
  if (type === 'control.accepted' || type === 'control.rejected') ev.cause = '01KAUDITCOMMAND';
  if (capture !== undefined) ev.capture = capture;
  if (data !== undefined) ev.data = data;
  return ev;
}

const show = (ev: unknown) => validateEvent(ev).map(renderIssue).join('\n');

function auditSchemas(label: string, schemaOf: (type: string) => Schema | undefined): void {
  const withPayload = TYPES.filter((t) => t.payload).map((t) => t.type);
  describe(`every registered type, payloads generated from ${label}`, () => {
    it.each(withPayload)('%s: minimal payload at every capture level above none, and without data', (type) => {
      const schema = schemaOf(type)!;
      for (const level of [undefined, ...CAPTURE_ORDER.slice(1)] as (CaptureLevel | undefined)[]) {
        const ev = envelopeFor(type, level, payloadFor(type, schema, false));
        expect(show(ev), `${type} at ${level ?? 'default'}`).toBe('');
      }
      expect(show(envelopeFor(type, undefined, undefined))).toBe('');
      expect(show(envelopeFor(type, 'none', undefined))).toBe('');
      expect(show(envelopeFor(type, 'none', {}))).toBe('');
    });

    it.each(withPayload)('%s: maximal payload, gated down to each capture level', (type) => {
      const schema = schemaOf(type)!;
      const full = payloadFor(type, schema, true);
      for (const level of CAPTURE_ORDER.slice(1)) {
        const ev = envelopeFor(type, level, gate(schema, structuredClone(full), level) as Record<string, unknown>);
        expect(show(ev), `${type} at ${level}`).toBe('');
      }
    });
  });
}

auditSchemas('our spec/', (type) => schemaForType(type));

const standard = standardPath('schemas', 'types');
describe.skipIf(!existsSync(standard))(`against the standard schema files${skipped(!existsSync(standard), WHY.standard)}`, () => {
  auditSchemas('the standard (../shared)', (type) => JSON.parse(readFileSync(join(standard, `${type}.schema.json`), 'utf8')) as Schema);
});

describe('the generator can fail (self-test)', () => {
  it('a maximal full payload declared at metadata trips capture honesty for gated types', () => {
    const ev = envelopeFor('tool.completed', 'metadata', payloadFor('tool.completed', schemaForType('tool.completed')!, true));
    expect(validateEvent(ev).map((i) => i.rule)).toContain('capture.field.level');
    expect(validateEvent(envelopeFor('run.failed', undefined, {})).map((i) => i.rule)).toEqual(['payload.required']);
  });
});

describe('envelope shapes the withheld golden names', () => {
  const base = {
    aep: '0.1',
    id: '01KAUD0000000000000000000A',
    time: '2027-02-03T04:05:06.100Z',
    source: 'aep://wharf/agent/heron/session/s_wf',
    agent: 'heron',
    session: 's_wf',
  };

  it('a bash-floor minimal Event: only the required attributes plus session and seq', () => {
    expect(show({ ...base, type: 'progress.status', seq: 0 })).toBe('');
    expect(show({ ...base, type: 'session.started', seq: 0 })).toBe('');
  });

  it('a fully dressed Event with every optional context attribute', () => {
    const ev = {
      ...base, type: 'tool.completed', subject: 'Grep', run: 'r_7', step: 'loop-2', seq: 12, epoch: 3, cause: '01KAUD0000000000000000000Z',
      traceparent: '00-11112222333344445555666677778888-99990000aaaabbbb-00', severity: 'critical', capture: 'full',
      data: { tool: { name: 'Grep', call_id: 'c_1' }, status: 'success', duration_ms: 0, result: 'line 1', result_redacted: { n: 1 }, result_digest: 'sha256:ab' },
    };
    expect(show(ev)).toBe('');
  });

  it('extension attributes of each scalar type, up to 20 characters, and digit-led names', () => {
    const ev = { ...base, type: 'run.started', seq: 1, heronzone: 'eu-2', heronretry: 0, heronsampled: true, a: '', '0': -3, abcdefghij0123456789: 'x' };
    expect(show(ev)).toBe('');
  });

  it('agent-scoped Events with and without payload, with run-like extension attributes', () => {
    const { session: _s, ...rest } = base;
    const agentBase = { ...rest, source: 'aep://wharf/agent/heron' };
    expect(show({ ...agentBase, type: 'agent.presence', data: { state: 'busy' } })).toBe('');
    expect(show({ ...agentBase, type: 'agent.heartbeat', capture: 'none' })).toBe('');
    expect(show({ ...agentBase, type: 'agent.idle', severity: 'debug', heronrun: 'r_1' })).toBe('');
  });

  it('vendor types, including vendor commands without seq and vendor types in unregistered vendor categories', () => {
    expect(show({ ...base, type: 'x.heron-labs.session.config_change', seq: 3, data: { anything: { nested: [1, 'two'] } } })).toBe('');
    expect(show({ ...base, type: 'x.heron.widget.spun.fast', seq: 4 })).toBe('');
    expect(show({ ...base, type: 'x.heron.control.rewind' })).toBe('');
    expect(show({ ...base, type: 'x.heron.agent.ping', seq: 5 })).toBe('');
  });

  it('reserved message.* types validate as registered types without a payload schema', () => {
    expect(show({ ...base, type: 'message.user.submitted', seq: 6, capture: 'full', data: { text: 'hi' } })).toBe('');
  });

  it('commands without seq: every core command, from a foreign source, with and without run and data', () => {
    const sender = { ...base, source: 'aep://desk/agent/mission-board', agent: 'mission-board' };
    expect(show({ ...sender, type: 'control.cancel', run: 'r_7', capture: 'redacted', cause: 'x', data: { scope: 'run', reason: 'stuck' } })).toBe('');
    expect(show({ ...sender, type: 'control.cancel', data: { scope: 'session' } })).toBe('');
    expect(show({ ...sender, type: 'control.pause' })).toBe('');
    expect(show({ ...sender, type: 'control.resume', data: {} })).toBe('');
    expect(show({ ...sender, type: 'control.attention.respond', subject: 'q1', data: { answer: { option: 'allow' } } })).toBe('');
    expect(show({ ...sender, type: 'control.attention.respond', subject: 'q1', capture: 'redacted', data: { answer: { text: 'yes please' } } })).toBe('');
    expect(show({ ...sender, type: 'control.attention.respond', subject: 'q1', data: { answer: { values: { n: 2, ok: true, pick: ['a'] } } } })).toBe('');
  });

  it('acks: accepted with and without data, rejected with each nack reason', () => {
    expect(show({ ...base, type: 'control.accepted', seq: 9, cause: 'cmd-1' })).toBe('');
    expect(show({ ...base, type: 'control.accepted', seq: 9, cause: 'cmd-1', data: {} })).toBe('');
    for (const reason of ['unsupported', 'unauthorized', 'busy', 'refused', 'invalid']) {
      expect(show({ ...base, type: 'control.rejected', seq: 9, cause: 'cmd-1', data: { reason } })).toBe('');
    }
    expect(show({ ...base, type: 'control.rejected', seq: 9, cause: 'cmd-1', capture: 'redacted', data: { reason: 'busy', detail: 'later' } })).toBe('');
  });

  it('attention.routed from a foreign emitter in another agent\'s session, with and without data', () => {
    const router = { ...base, source: 'aep://relay-b/agent/pager-sink', agent: 'pager-sink' };
    expect(show({ ...router, type: 'attention.routed', subject: 'q1', cause: 'q1' })).toBe('');
    expect(show({ ...router, type: 'attention.routed', subject: 'q1', data: { to: 'sms', via: 'relay' } })).toBe('');
  });

  it('the attention lifecycle at the capture levels the golden uses', () => {
    const req = { kind: 'permission', prompt: 'heron requests permission: Bash', options: [{ id: 'allow', label: '1' }, { id: 'deny', label: '2' }], respond_via: ['control', 'oob'], expires_at: '2027-02-03T04:06:06Z' };
    expect(show({ ...base, type: 'attention.requested', subject: 'Bash', seq: 1, severity: 'notice', data: req })).toBe('');
    expect(show({ ...base, type: 'attention.requested', seq: 1, capture: 'full', data: { ...req, context: { cmd: 'rm' } } })).toBe('');
    expect(show({ ...base, type: 'attention.answered', subject: 'q1', seq: 2, data: { answer: { option: 'allow' }, via: 'oob', by: 'ops' } })).toBe('');
    expect(show({ ...base, type: 'attention.answered', subject: 'q1', seq: 2, capture: 'redacted', data: { answer: { text: 'go ahead' } } })).toBe('');
    expect(show({ ...base, type: 'attention.answered', subject: 'q1', seq: 2, data: { answer: {} } })).toBe('');
    for (const resolution of ['answered', 'auto', 'dismissed']) {
      expect(show({ ...base, type: 'attention.resolved', subject: 'q1', seq: 3, data: { resolution, latency_ms: 0 } })).toBe('');
    }
    expect(show({ ...base, type: 'attention.timeout', subject: 'q1', seq: 4 })).toBe('');
  });

  it('kind:"form" requests: every field type, select with multi and other, at metadata and redacted', () => {
    const fields = [
      { id: 'name', type: 'string', label: '1', required: true },
      { id: 'count', type: 'number', label: '2', min: 0, max: 10 },
      { id: 'ok', type: 'boolean', label: '3', required: false },
      { id: 'where', type: 'select', label: '4', multi: true, other: true, choices: [{ id: '1', label: '1' }, { id: '2', label: '2' }] },
      { id: 'one', type: 'select', label: '5', choices: [] },
    ];
    for (const capture of ['metadata', 'redacted', 'full']) {
      expect(show({ ...base, type: 'attention.requested', seq: 1, capture, data: { kind: 'form', prompt: 'Form', fields } })).toBe('');
    }
    expect(show({ ...base, type: 'attention.requested', seq: 1, data: { kind: 'form', prompt: 'Form' } })).toBe('');
    expect(show({ ...base, type: 'attention.requested', seq: 1, data: { kind: 'form', prompt: 'Form', fields: [] } })).toBe('');
  });

  it('assessment.* and resource.* with the envelope targeting idiom', () => {
    const t = { ...base, run: 'r_7', cause: '01KAUDRUNFINISHED', seq: 20 };
    expect(show({ ...t, type: 'assessment.evaluation.recorded', data: { 'gen_ai.evaluation.name': 'relevance', 'gen_ai.evaluation.score.value': -3.5, 'gen_ai.evaluation.score.label': 'fail', evaluator: 'judge-1' } })).toBe('');
    expect(show({ ...t, type: 'assessment.evaluation.recorded', capture: 'redacted', data: { 'gen_ai.evaluation.explanation': 'off topic' } })).toBe('');
    expect(show({ ...t, type: 'assessment.feedback.received', data: { rating: 1, label: 'thumbs_up', source: 'end_user' } })).toBe('');
    expect(show({ ...t, type: 'assessment.feedback.received', capture: 'full', data: { rating: 4.5, comment: 'ok', correction: 'fix' } })).toBe('');
    expect(show({ ...t, type: 'assessment.guardrail.recorded', data: { guardrail: { stage: 'output', verdict: 'modified', categories: [{ name: 'pii', score: 0.93 }, { name: 'injection' }], detector: { name: 'd', version: '2' } } } })).toBe('');
    expect(show({ ...t, type: 'resource.retrieval.requested', data: { query_digest: 'ab', corpus: 'docs', top_k: 0 } })).toBe('');
    expect(show({ ...t, type: 'resource.retrieval.returned', data: { documents: [{ id: 'd1', score: -0.2, metadata: { rank: 1 } }, {}], count: 2 } })).toBe('');
    expect(show({ ...t, type: 'resource.retrieval.returned', capture: 'redacted', data: { documents: [{ id: 'd1', content_redacted: 'text' }] } })).toBe('');
    expect(show({ ...t, type: 'resource.retrieval.reranked', capture: 'full', data: { model: 'rr', input_documents: [{ content: 'a' }], output_documents: [{ id: 'x', score: 9 }] } })).toBe('');
    for (const offset of [{}, { char: { start: 0, end: 4 } }, { page: { page: 2 } }, { block: { block: 1, start: 0 } }]) {
      expect(show({ ...t, type: 'resource.citation.recorded', data: { citations: [{ source: { id: 'd1' }, offset, document_index: 0 }], count: 1 } })).toBe('');
    }
    expect(show({ ...t, type: 'resource.citation.recorded', capture: 'redacted', data: { citations: [{ source: { uri: 'https://x', title: 'T' }, cited_text_redacted: 'q' }] } })).toBe('');
  });

  it('open payloads: vendor members at metadata, including nested objects under known objects', () => {
    const ev = { ...base, type: 'run.finished', run: 'r', seq: 5, data: { duration_ms: 1, heron_extra: { deep: ['x'] }, cost: { currency: 'EUR', total: 0.02, heron_discount: 0 }, 'gen_ai.usage.input_tokens': 0 } };
    expect(show(ev)).toBe('');
  });

  it('time with offsets, lowercase t/z, a leap second and long fractions', () => {
    for (const time of ['2027-02-03T04:05:06-07:30', '2027-02-03t04:05:06z', '2016-12-31T23:59:60Z', '2027-02-03T04:05:06.123456789+00:00']) {
      expect(show({ ...base, type: 'progress.status', seq: 0, time })).toBe('');
    }
  });

  it('source URIs of other schemes, ports, IPv6 hosts and percent escapes', () => {
    for (const source of ['urn:heron:s1', 'https://relay.example:8443/a?b=c#d', 'aep://[::1]:7/agent/heron/session/s%2F1', 'file:///tmp/x.jsonl']) {
      expect(show({ ...base, type: 'progress.status', seq: 0, source })).toBe('');
    }
  });
});
