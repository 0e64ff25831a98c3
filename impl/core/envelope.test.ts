import { describe, expect, it } from 'vitest';
import { isDateTime, validateEnvelope, validateEvent } from './envelope.js';
import { lookupRule } from './rules.js';

/** A valid session-scoped Event; each test breaks one thing. */
const ok = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  aep: '0.1',
  id: 'ev-1',
  type: 'progress.status',
  time: '2026-11-12T10:00:00.5+02:00',
  source: 'aep://box/agent/tern/session/s-1',
  agent: 'tern',
  session: 's-1',
  seq: 0,
  ...extra,
});
const without = (ev: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(Object.entries(ev).filter(([k]) => !keys.includes(k)));
const rules = (v: unknown) => validateEvent(v).map((i) => `${i.rule} ${i.path}`);

describe('validateEvent', () => {
  it('accepts a valid Event, with and without every optional attribute', () => {
    expect(validateEvent(ok())).toEqual([]);
    const full = ok({
      subject: 'Read', run: 'r', step: 'st', epoch: 3, cause: 'ev-0', severity: 'critical', capture: 'full',
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', ternzone: 'a', ternn: 4, ternb: false,
      data: { message: 'hello', percent: 10 },
    });
    expect(validateEvent(full)).toEqual([]);
  });

  it.each([null, [], 'x', 3, true, undefined])('reports a non-object (%s) once, without throwing', (v) => {
    const found = validateEvent(v);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ rule: 'envelope.not_object', path: '$', section: 'AEP-0001 §5' });
  });

  it('survives hostile values: huge strings, non-finite numbers, odd keys', () => {
    const ev = ok({ id: 'x'.repeat(5_000_000), seq: Number.POSITIVE_INFINITY, epoch: Number.NaN, 'weird key': { a: [1] } });
    expect(rules(ev)).toEqual(['envelope.seq.type $.seq', 'envelope.epoch.type $.epoch', 'ext.name.grammar $["weird key"]', 'ext.value.type $["weird key"]']);
    expect(validateEvent(ev)[0]!.message.length).toBeLessThan(300);
  });

  it('does not overflow the stack on deeply nested payloads', () => {
    let deep: Record<string, unknown> = { end: true };
    for (let i = 0; i < 200_000; i++) deep = { a: deep };
    const ev = ok({ type: 'state.snapshot', capture: 'redacted', data: { state: deep, ternx: deep } });
    expect(() => validateEvent(ev)).not.toThrow();
    // Refused alone, at the first container past the bound (MAX_DEPTH = 64, the Event is level 1).
    expect(rules(ev)).toEqual([`envelope.depth $.data.state${'.a'.repeat(62)}`]);
  });

  it('reports every missing required attribute with its own rule and path', () => {
    expect(rules({})).toEqual([
      'envelope.aep.required $.aep', 'envelope.id.required $.id', 'envelope.type.required $.type',
      'envelope.time.required $.time', 'envelope.source.required $.source', 'envelope.agent.required $.agent',
    ]);
  });

  it('explains null attributes as "omit instead"', () => {
    const [found] = validateEvent(ok({ cause: null }));
    expect(found).toMatchObject({ rule: 'envelope.cause.type', path: '$.cause' });
    expect(found!.message).toContain('never null');
  });

  it('checks empty strings, time, source and traceparent formats', () => {
    expect(rules(ok({ agent: '', step: '' }))).toEqual(['envelope.agent.empty $.agent', 'envelope.step.empty $.step']);
    expect(rules(ok({ time: '2026-11-12 10:00:00Z' }))).toEqual(['envelope.time.format $.time']);
    expect(rules(ok({ source: 'not a uri' }))).toEqual(['envelope.source.format $.source']);
    expect(rules(ok({ source: 'aep://h/agent/a%zz' }))).toEqual(['envelope.source.format $.source']);
    expect(rules(ok({ source: 'urn:aep:tern' }))).toEqual([]);
    expect(rules(ok({ traceparent: '00-abc-01' }))).toEqual(['envelope.traceparent.format $.traceparent']);
    expect(rules(ok({ traceparent: 7 }))).toEqual(['envelope.traceparent.type $.traceparent']);
  });

  it('checks seq, epoch, severity, capture, data and aep', () => {
    expect(rules(ok({ seq: -1, epoch: '1' }))).toEqual(['envelope.seq.minimum $.seq', 'envelope.epoch.type $.epoch']);
    expect(rules(ok({ epoch: -2 }))).toEqual(['envelope.epoch.minimum $.epoch']);
    expect(rules(ok({ severity: 'INFO', capture: 3 }))).toEqual(['envelope.severity.enum $.severity', 'envelope.capture.enum $.capture']);
    expect(rules(ok({ data: [1] }))).toEqual(['envelope.data.type $.data']);
    expect(rules(ok({ aep: '0.2' }))).toEqual(['envelope.aep.version $.aep']);
  });

  it('refuses content at capture none but allows an empty data object there', () => {
    expect(rules(ok({ capture: 'none', data: { percent: 1 } }))).toEqual(['capture.none.data $.data']);
    expect(rules(ok({ capture: 'none', data: {} }))).toEqual([]);
  });

  it('checks capture honesty against the payload annotations, nested and in arrays', () => {
    expect(rules(ok({ data: { message: 'text' } }))).toEqual(['capture.field.level $.data.message']);
    expect(rules(ok({ capture: 'redacted', data: { message: 'text' } }))).toEqual([]);
    const rag = ok({ type: 'resource.retrieval.returned', data: { documents: [{ id: 'd', content_redacted: 'x' }] } });
    expect(rules(rag)).toEqual(['capture.field.level $.data.documents[0].content_redacted']);
    const full = ok({ type: 'resource.retrieval.returned', capture: 'redacted', data: { documents: [{ id: 'd', content: 'x' }] } });
    expect(rules(full)).toEqual(['capture.field.level $.data.documents[0].content']);
    // unannotated vendor members count as metadata
    expect(rules(ok({ data: { ternextra: { deep: 'x' } } }))).toEqual([]);
  });

  describe('extension attributes (AEP-0001 §5.4)', () => {
    it('accepts lowercase alphanumeric names of up to 20 characters with scalar values', () => {
      expect(rules(ok({ a1: 'x', abcdefghijklmnopqrst: 1, z: true }))).toEqual([]);
    });
    it.each([['ternRegion'], ['tern-zone'], ['abcdefghijklmnopqrstu'], ['_x']])('rejects the name %s', (name) => {
      expect(rules(ok({ [name]: 'v' }))).toEqual([`ext.name.grammar $${/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`}`]);
    });
    it.each([[{ a: 1 }], [[1]], [null], [1.5]])('rejects the value %j', (v) => {
      expect(rules(ok({ ternx: v }))).toEqual(['ext.value.type $.ternx']);
    });
  });

  describe('type grammar and registry', () => {
    it.each([
      ['tool', 'type.grammar'],
      ['tool.', 'type.grammar'],
      ['tool.Completed', 'type.grammar'],
      ['tool.com-pleted', 'type.grammar'],
      ['banana.peeled', 'type.category'],
      ['stream.delta', 'type.category'],
      ['x.acme.foo', 'type.vendor'],
      ['x.acme', 'type.vendor'],
      ['x.ac.me.foo.Bar', 'type.grammar'],
      ['progress.some_future_member', 'registry.type.unregistered'],
    ])('%s -> %s', (type, rule) => {
      expect(validateEvent(ok({ type })).map((i) => i.rule)).toContain(rule);
    });

    it('accepts vendor types (hyphen in the vendor token) without checking their payload', () => {
      expect(rules(ok({ type: 'x.claude-ish.session.note_added', data: { anything: [1, { b: 2 }] } }))).toEqual([]);
    });

    it('accepts the reserved message.* types: registered, consumers must tolerate them, no payload schema', () => {
      expect(rules(ok({ type: 'message.user.submitted', data: { text: 'x' } }))).toEqual([]);
    });

    it('runs the payload schema for registered types', () => {
      expect(rules(ok({ type: 'agent.presence', session: undefined }))).toContain('scope.agent.forbidden $.session');
      expect(rules(ok({ type: 'run.failed', data: {} }))).toEqual(['payload.required $.data.reason']);
    });
  });

  describe('scope (AEP-0001 §5.2)', () => {
    it('demands session and seq from session-scoped Events', () => {
      expect(rules(without(ok(), 'session', 'seq'))).toEqual(['scope.session.required $.session', 'scope.seq.required $.seq']);
    });
    it('forbids session, run, step and seq on agent-scoped Events', () => {
      const ev = ok({ type: 'agent.heartbeat', run: 'r', step: 's' });
      expect(rules(ev)).toEqual(['scope.agent.forbidden $.session', 'scope.agent.forbidden $.run', 'scope.agent.forbidden $.step', 'scope.agent.forbidden $.seq']);
      expect(rules(without(ev, 'session', 'run', 'step', 'seq'))).toEqual([]);
    });
    it('makes commands, vendor commands and attention.routed seq-less but session-bound', () => {
      for (const type of ['control.cancel', 'control.pause', 'control.resume', 'x.tern.control.nudge']) {
        const data = type === 'control.cancel' ? { scope: 'session' } : {};
        expect(rules(without(ok({ type, data }), 'seq')), type).toEqual([]);
        expect(rules(ok({ type, data })), type).toEqual(['scope.command.seq $.seq']);
      }
      expect(rules(ok({ type: 'attention.routed', subject: 'req-1' }))).toEqual(['scope.routed.seq $.seq']);
      expect(rules(without(ok({ type: 'control.pause' }), 'seq', 'session'))).toEqual(['scope.session.required $.session']);
      expect(rules(without(ok({ type: 'attention.routed', subject: 'q' }), 'seq', 'session'))).toEqual(['scope.session.required $.session']);
    });
    it('keeps acks sequenced: they are the target\'s own Events', () => {
      expect(rules(without(ok({ type: 'control.accepted', cause: 'cmd' }), 'seq'))).toEqual(['scope.seq.required $.seq']);
    });
  });

  describe('per-type prose rules', () => {
    it('demands subject on attention lifecycle Events after requested', () => {
      for (const type of ['attention.answered', 'attention.resolved', 'attention.timeout']) {
        const data = type === 'attention.answered' ? { answer: { option: 'y' } } : type === 'attention.resolved' ? { resolution: 'auto' } : {};
        expect(rules(ok({ type, data })), type).toEqual(['attention.subject.required $.subject']);
        expect(rules(ok({ type, data, subject: 'req' })), type).toEqual([]);
      }
    });
    it('demands cause on acks and subject on respond', () => {
      expect(rules(ok({ type: 'control.rejected', data: { reason: 'busy' } }))).toEqual(['control.ack.cause $.cause']);
      expect(rules(without(ok({ type: 'control.attention.respond', data: { answer: { option: 'y' } } }), 'seq'))).toEqual(['control.respond.subject $.subject']);
    });
    it('checks form structure: fields only on kind form, unique field and choice ids', () => {
      const field = (id: string, extra = {}) => ({ id, type: 'boolean', label: id, ...extra });
      const req = (data: Record<string, unknown>) => ok({ type: 'attention.requested', data: { prompt: 'tern requests form', ...data } });
      expect(rules(req({ kind: 'input', fields: [field('a')] }))).toEqual(['form.fields.kind $.data.fields']);
      expect(rules(req({ kind: 'form', fields: [field('a'), field('b'), field('a')] }))).toEqual(['form.field.duplicate $.data.fields[2].id']);
      const sel = { id: 's', type: 'select', label: 's', choices: [{ id: '1', label: '1' }, { id: '2', label: '2' }, { id: '1', label: '3' }] };
      expect(rules(req({ kind: 'form', fields: [sel] }))).toEqual(['form.choice.duplicate $.data.fields[0].choices[2].id']);
      expect(rules(req({ kind: 'form', fields: 'nope' })).map((r) => r.split(' ')[0])).toEqual(['payload.type']);
      expect(rules(req({ kind: 'form', fields: [7, { id: 's', type: 'select', label: 's', choices: [3] }] })).every((r) => r.startsWith('payload.'))).toBe(true);
    });
  });

  it('emits only catalogued rules whose section matches the catalogue', () => {
    const samples = [{}, ok({ type: 'Bad' }), ok({ ternBad: {} }), ok({ type: 'agent.idle' }), ok({ capture: 'none', data: { a: 1 } })];
    for (const found of samples.flatMap((s) => validateEvent(s))) {
      expect(lookupRule(found.rule)?.section, found.rule).toBe(found.section);
    }
  });
});

describe('validateEnvelope', () => {
  it('checks the envelope schema surface only: unknown core types, payloads and prose rules pass', () => {
    expect(validateEnvelope(ok({ type: 'progress.some_future_member' }))).toEqual([]);
    expect(validateEnvelope(ok({ type: 'run.failed', data: {} }))).toEqual([]);
    expect(validateEnvelope(ok({ type: 'attention.timeout' }))).toEqual([]);
    expect(validateEnvelope(ok({ data: { message: 'above metadata' } }))).toEqual([]);
    expect(validateEnvelope(ok({ capture: 'none', data: { phase: 'x' } }))).toEqual([]);
  });
  it('still reports every envelope problem', () => {
    expect(validateEnvelope([]).map((i) => i.rule)).toEqual(['envelope.not_object']);
    const found = validateEnvelope(without(ok({ type: 'banana.peeled', time: 'noon', xX: 1 }), 'seq'));
    expect(found.map((i) => i.rule)).toEqual(['envelope.time.format', 'ext.name.grammar', 'type.category', 'scope.seq.required']);
  });
});

describe('isDateTime (RFC 3339 §5.6)', () => {
  it.each(['2026-11-12T10:00:00Z', '2026-11-12t10:00:00z', '2024-02-29T23:59:60.123456+14:00', '2026-01-01T00:00:00-00:30'])('accepts %s', (s) => {
    expect(isDateTime(s)).toBe(true);
  });
  it.each(['2026-11-12', '2026-11-12T10:00:00', '2025-02-29T10:00:00Z', '2026-13-01T10:00:00Z', '2026-00-10T10:00:00Z', '2026-04-31T10:00:00Z',
    '2026-11-12T24:00:00Z', '2026-11-12T10:60:00Z', '2026-11-12T10:00:61Z', '2026-11-12T10:00:00+24:00', '2026-11-12T10:00:00+01:60', '2026-11-00T10:00:00Z'])('rejects %s', (s) => {
    expect(isDateTime(s)).toBe(false);
  });
  it('handles century leap years', () => {
    expect(isDateTime('2000-02-29T00:00:00Z')).toBe(true);
    expect(isDateTime('2100-02-29T00:00:00Z')).toBe(false);
  });
});

describe('W3C traceparent and citation offsets', () => {
  it.each([
    ['00-00000000000000000000000000000000-b7ad6b7169203331-01', 'all-zero trace id'],
    ['00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01', 'all-zero parent id'],
    ['ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'version ff'],
  ])('rejects %s (%s)', (traceparent, why) => {
    const found = validateEvent(ok({ traceparent }));
    expect(found.map((i) => i.rule)).toEqual(['envelope.traceparent.format']);
    expect(found[0]!.message).toContain(why);
  });
  it('accepts a future version with the same shape', () => {
    expect(validateEvent(ok({ traceparent: '01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00' }))).toEqual([]);
  });
  it('allows one offset variant per citation and flags two', () => {
    const cite = (offset: unknown) => ok({ type: 'resource.citation.recorded', data: { citations: [{ source: { id: 'd' } }, 'junk', { source: { id: 'd' }, offset }] } });
    expect(validateEvent(cite({ block: { block: 2 } })).map((i) => i.rule)).not.toContain('citation.offset.variants');
    expect(validateEvent(cite({ char: { start: 1 }, block: { block: 2 } })).map((i) => `${i.rule} ${i.path}`)).toContain('citation.offset.variants $.data.citations[2].offset');
    expect(validateEvent(ok({ type: 'resource.citation.recorded', data: { citations: 'x' } })).map((i) => i.rule)).not.toContain('citation.offset.variants');
  });
});
