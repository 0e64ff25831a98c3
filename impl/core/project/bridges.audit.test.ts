/**
 * Audit of the AEP-0005 bridges, statement by statement: CloudEvents B1-B5 and the inverse
 * (§1, §2), OTLP field mapping, capture and severity (§3), OCSF classes, records, severity,
 * dispositions and capture (§4).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../canonical.js';
import type { AepEvent, CaptureLevel, Severity } from '../event.js';
import { validateCloudEvent } from './ce-validity.js';
import { fromCloudEvent, fromCloudEventDetailed, toCloudEvent } from './cloudevents.js';
import { checkOcsfRecord, type OcsfClassesPin } from './ocsf-classes.js';
import { toOcsf } from './ocsf.js';
import { severityFromOtlp, toOtlp } from './otlp.js';
import { standardDir, standardPath } from '../../test-utils/standard.js';
import { skipped } from '../../test-utils/skip.js';

const minimal: AepEvent = {
  aep: '0.1', id: '01KAUDITBRIDGE000000000001', type: 'session.started', time: '2026-05-06T07:08:09.010Z',
  source: 'aep://relay-9/agent/lumen/session/q-17', agent: 'lumen', session: 'q-17', seq: 0,
};
const full: AepEvent = {
  ...minimal, type: 'tool.completed', subject: 'Grep', run: 'r-2', step: 'st-1', seq: 41, epoch: 2, cause: '01KAUDITBRIDGE000000000000',
  traceparent: '00-5bf92f3577b34da6a3ce929d0e0e4736-10f067aa0ba902b7-01', severity: 'warning', capture: 'metadata',
  acmeteam: 'red', acmetier: 3, acmebeta: false,
  data: { tool: { name: 'Grep', call_id: 'g-5' }, status: 'success', 'gen_ai.usage.input_tokens': 10, 'gen_ai.request.model': 'm-1' },
};

describe('CloudEvents forward (§1)', () => {
  it('B1-B5 for every AEP attribute, extension attributes verbatim', () => {
    expect(toCloudEvent(full)).toStrictEqual({
      specversion: '1.0', id: full.id, source: full.source, type: 'dev.aep.tool.completed', subject: 'Grep', time: full.time,
      datacontenttype: 'application/json', aepversion: '0.1', aepagentid: 'lumen', aepsessionid: 'q-17', aeprunid: 'r-2', aepstep: 'st-1',
      aepsequence: 41, aepepoch: 2, aepcausationid: full.cause, aepseverity: 'warning', aepcapture: 'metadata', traceparent: full.traceparent,
      acmeteam: 'red', acmetier: 3, acmebeta: false, data: full.data,
    });
  });
  it('absent optional attributes produce nothing; no datacontenttype without data; defaults are not materialized', () => {
    const { data: _d, ...bare } = minimal as AepEvent & { data?: unknown };
    const ce = toCloudEvent(bare as AepEvent);
    expect(ce).toStrictEqual({
      specversion: '1.0', id: minimal.id, source: minimal.source, type: 'dev.aep.session.started', time: minimal.time,
      aepversion: '0.1', aepagentid: 'lumen', aepsessionid: 'q-17', aepsequence: 0,
    });
    for (const name of ['subject', 'datacontenttype', 'data', 'aepseverity', 'aepcapture', 'aepepoch', 'traceparent']) expect(name in ce, name).toBe(false);
  });
  it('vendor types map under the same root; agent-scoped events carry no session attributes', () => {
    const vendor = { aep: '0.1' as const, id: 'v1', type: 'x.acme.deploy.done', time: minimal.time, source: 'urn:acme:bot', agent: 'bot' };
    expect(toCloudEvent(vendor)).toStrictEqual({ specversion: '1.0', id: 'v1', source: 'urn:acme:bot', type: 'dev.aep.x.acme.deploy.done', time: minimal.time, aepversion: '0.1', aepagentid: 'bot' });
  });
  it('is valid CloudEvents 1.0 for the full and the minimal event', () => {
    expect(validateCloudEvent(toCloudEvent(full))).toEqual([]);
    expect(validateCloudEvent(toCloudEvent(minimal))).toEqual([]);
  });
});

describe('CloudEvents inverse (§2)', () => {
  it('rule 1: the inverse of the forward map is the original, bit for bit modulo member order', () => {
    for (const e of [full, minimal, { ...minimal, type: 'x.acme.deploy.done', data: { note: 'n' } }]) {
      expect(canonicalJson(fromCloudEvent(toCloudEvent(e)))).toBe(canonicalJson(e));
    }
  });
  it('rule 2: a legal aep*-prefixed unknown attribute and a legal plain one are preserved; an illegal name is dropped with a diagnostic while the rest maps', () => {
    const ce = { ...toCloudEvent(minimal), aepnextthing: 'v2', vendorflag: true, 'Bad-Name': 'x', aep_under: 'y' };
    const { event, issues } = fromCloudEventDetailed(ce);
    expect(event).toStrictEqual({ ...minimal, aepnextthing: 'v2', vendorflag: true });
    expect(issues.map((i) => i.path).sort()).toEqual(['$.aep_under', '$["Bad-Name"]'].sort());
  });
  it('an inbound extension named like a core attribute never lands in the envelope', () => {
    const ce = { ...toCloudEvent(minimal), session: 'hijack', seq: 99, capture: 'full' };
    expect(fromCloudEvent(ce)).toStrictEqual(minimal);
  });
  it('rule 3: foreign CE types map to null', () => {
    expect(fromCloudEvent({ specversion: '1.0', id: 'f', source: 's', type: 'com.example.order.created' })).toBeNull();
    expect(fromCloudEvent({ specversion: '1.0', id: 'f', source: 's', type: 'dev.aepx.tool.completed' })).toBeNull();
  });
});

describe('OTLP export (§3)', () => {
  const sev: Array<[Severity | undefined, string, number]> = [
    ['debug', 'DEBUG', 5], ['info', 'INFO', 9], ['notice', 'INFO2', 10], ['warning', 'WARN', 13], ['error', 'ERROR', 17], ['critical', 'FATAL', 21], [undefined, 'INFO', 9],
  ];
  it.each(sev)('severity %s -> %s %d', (severity, text, number) => {
    const e = { ...minimal, ...(severity === undefined ? {} : { severity }) };
    expect(toOtlp(e)).toMatchObject({ severity_text: text, severity_number: number });
    if (severity !== undefined) expect(severityFromOtlp(number)).toBe(severity);
  });
  it('inverse buckets cover 1..24 exactly', () => {
    const bucket = (n: number) => severityFromOtlp(n);
    expect([1, 8].map(bucket)).toEqual(['debug', 'debug']);
    expect([9, 10, 12, 13, 16, 17, 20, 21, 24].map(bucket)).toEqual(['info', 'notice', 'notice', 'warning', 'warning', 'error', 'error', 'critical', 'critical']);
    expect([0, 25, 9.5].map(bucket)).toEqual([null, null, null]);
  });
  it('field mapping: every envelope attribute, traceparent parsed, gen_ai.* hoisted, the rest in body', () => {
    expect(toOtlp(full)).toStrictEqual({
      time_unix_nano: 1_778_051_289_010_000_000, event_name: 'dev.aep.tool.completed', severity_text: 'WARN', severity_number: 13,
      resource: { 'service.name': 'lumen' },
      attributes: {
        'aep.agent_id': 'lumen', 'aep.event_id': full.id, 'aep.capture': 'metadata', 'aep.source': full.source, 'aep.session_id': 'q-17',
        'aep.run_id': 'r-2', 'aep.step': 'st-1', 'aep.sequence': 41, 'aep.epoch': 2, 'aep.causation_id': full.cause, 'aep.subject': 'Grep',
        'gen_ai.usage.input_tokens': 10, 'gen_ai.request.model': 'm-1',
      },
      trace_id: '5bf92f3577b34da6a3ce929d0e0e4736', span_id: '10f067aa0ba902b7', flags: 1,
      body: { tool: { name: 'Grep', call_id: 'g-5' }, status: 'success' },
    });
  });
  it('service.name is overridable for shared relays', () => {
    expect(toOtlp(full, { serviceName: 'relay-eu' }).resource).toEqual({ 'service.name': 'relay-eu' });
  });
  it('absent optional attributes are not exported; capture defaults to metadata', () => {
    const attrs = toOtlp(minimal).attributes;
    expect(attrs).toStrictEqual({ 'aep.agent_id': 'lumen', 'aep.event_id': minimal.id, 'aep.capture': 'metadata', 'aep.source': minimal.source, 'aep.session_id': 'q-17', 'aep.sequence': 0 });
  });
  it('max_capture (default metadata): events above it, and capture none, export envelope attributes only', () => {
    const cases: Array<[CaptureLevel, CaptureLevel | undefined, boolean]> = [
      ['metadata', undefined, true], ['redacted', undefined, false], ['full', undefined, false], ['none', undefined, false],
      ['redacted', 'redacted', true], ['full', 'redacted', false], ['full', 'full', true], ['metadata', 'none', false],
    ];
    for (const [capture, maxCapture, hasPayload] of cases) {
      const out = toOtlp({ ...full, capture }, maxCapture === undefined ? {} : { maxCapture });
      expect('body' in out, `${capture} under ${maxCapture}`).toBe(hasPayload);
      expect('gen_ai.usage.input_tokens' in out.attributes, `${capture} under ${maxCapture}`).toBe(hasPayload);
      expect(out.attributes['aep.capture']).toBe(capture);
    }
  });
  it('a payload made only of gen_ai.* members has no body', () => {
    expect('body' in toOtlp({ ...minimal, data: { 'gen_ai.request.model': 'm-1' } })).toBe(false);
  });
});

describe('OCSF projection (§4)', () => {
  const at = (type: string, extra: Partial<AepEvent> = {}): AepEvent => ({ ...minimal, type, seq: 5, subject: 'Bash', ...extra });
  const rows: Array<[string, number, number, number, number | undefined, number | undefined]> = [
    ['session.started', 3002, 3, 1, 1, undefined], ['session.ended', 3002, 3, 2, 1, undefined],
    ['tool.requested', 1007, 1, 1, undefined, undefined], ['tool.completed', 1007, 1, 2, 1, undefined], ['tool.failed', 1007, 1, 2, 2, undefined],
    ['tool.denied', 1007, 1, 1, 2, 2], ['attention.requested', 2004, 2, 1, 1, undefined], ['attention.answered', 2004, 2, 2, 2, undefined],
    ['attention.resolved', 2004, 2, 3, 4, undefined], ['attention.timeout', 2004, 2, 3, undefined, 16],
  ];
  it.each(rows)('%s -> class %d, category %d, activity %d, status %s, disposition %s', (type, cls, cat, activity, status, disposition) => {
    const r = toOcsf(at(type))!;
    expect(r).toMatchObject({ class_uid: cls, category_uid: cat, activity_id: activity, type_uid: cls * 100 + activity, message: type });
    expect(r.status_id).toBe(status);
    expect(r.disposition_id).toBe(disposition);
    expect((r.metadata as { profiles?: string[] }).profiles).toEqual(disposition === undefined ? undefined : ['security_control']);
  });
  it.each(['progress.status', 'attention.routed', 'control.attention.respond', 'control.accepted', 'agent.heartbeat', 'run.started', 'error.raised', 'x.acme.tool.completed', 'message.agent.replied'])(
    '%s projects to null',
    (type) => expect(toOcsf(at(type))).toBeNull(),
  );
  it.each([['debug', 1], ['info', 1], ['notice', 2], ['warning', 3], ['error', 4], ['critical', 5], [undefined, 1]] as const)('severity %s -> %d', (severity, id) => {
    expect(toOcsf(at('session.started', severity === undefined ? {} : { severity }))!.severity_id).toBe(id);
  });
  it('§4.5: resolved dismissed -> 16 No Action; answered and auto assert no disposition', () => {
    expect(toOcsf(at('attention.resolved', { data: { resolution: 'dismissed' } }))!.disposition_id).toBe(16);
    for (const resolution of ['answered', 'auto']) {
      const r = toOcsf(at('attention.resolved', { data: { resolution } }))!;
      expect('disposition_id' in r, resolution).toBe(false);
      expect('profiles' in (r.metadata as object), resolution).toBe(false);
    }
  });
  it('§4.3 record construction for the three classes', () => {
    const e = at('tool.requested', { cause: 'c-0', acmeteam: 'red', data: { tool: { name: 'Bash', call_id: 'k-1' }, args_digest: 'd' } });
    expect(toOcsf(e)).toStrictEqual({
      class_uid: 1007, category_uid: 1, activity_id: 1, type_uid: 100701, time: 1_778_051_289_010, severity_id: 1, message: 'tool.requested',
      metadata: { version: '1.8.0', uid: e.id, original_time: e.time, product: { name: 'lumen' }, correlation_uid: 'c-0' },
      unmapped: { aep: { aep: '0.1', id: e.id, type: 'tool.requested', subject: 'Bash', time: e.time, source: e.source, agent: 'lumen', session: 'q-17', seq: 5, cause: 'c-0', acmeteam: 'red' }, data: e.data },
      actor: { app_name: 'lumen' }, device: { type_id: 0, hostname: 'relay-9' }, process: { name: 'Bash', uid: 'k-1' },
    });
    expect(toOcsf(at('session.started'))).toMatchObject({ user: { name: 'lumen' }, session: { uid: 'q-17' } });
    const request = toOcsf(at('attention.requested', { id: 'req-id' }))!;
    expect(request.finding_info).toEqual({ uid: 'req-id', title: 'attention.requested' });
    expect(toOcsf(at('attention.timeout', { subject: 'req-id' }))!.finding_info).toEqual({ uid: 'req-id', title: 'attention.timeout' });
  });
  it('a source without an authority becomes device.name verbatim', () => {
    expect(toOcsf(at('tool.failed', { source: 'urn:acme:worker:7' }))!.device).toEqual({ type_id: 0, name: 'urn:acme:worker:7' });
  });
  it('§4.6: above max_capture the record comes from the envelope alone and never invents a process uid', () => {
    const e = at('tool.completed', { capture: 'redacted', data: { tool: { name: 'Bash', call_id: 'k-2' }, result_redacted: 'x' } });
    const r = toOcsf(e)!;
    expect('data' in (r.unmapped as object)).toBe(false);
    expect(r.process).toEqual({ name: 'Bash' });
    expect(toOcsf(e, { maxCapture: 'redacted' })!.process).toEqual({ name: 'Bash', uid: 'k-2' });
    expect('data' in (toOcsf(at('attention.requested', { capture: 'none', data: { kind: 'input', prompt: 'p' } }), { maxCapture: 'full' })!.unmapped as object)).toBe(false);
  });
});

const classPins = [
  fileURLToPath(new URL('../../../conformance/fixtures/ocsf/ocsf-classes.json', import.meta.url)),
  standardPath('conformance', 'fixtures', 'ocsf', 'ocsf-classes.json'),
].filter((f) => existsSync(f));

describe.skipIf(classPins.length === 0)(`§5 item 6: every projected record stays inside the pinned OCSF class subset${skipped(classPins.length === 0, 'no OCSF class pins in the corpus')}`, () => {
  const types = ['session.started', 'session.ended', 'tool.requested', 'tool.completed', 'tool.failed', 'tool.denied', 'attention.requested', 'attention.answered', 'attention.resolved', 'attention.timeout'];
  const severities: Severity[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical'];
  for (const file of classPins) {
    it(file.startsWith(standardDir()) ? "the standard's pin" : 'our pin', () => {
      const pin = JSON.parse(readFileSync(file, 'utf8')) as OcsfClassesPin;
      for (const type of types) {
        for (const severity of severities) {
          for (const data of [undefined, { tool: { name: 'Bash', call_id: 'k' }, resolution: 'dismissed' }]) {
            const e: AepEvent = { ...minimal, type, severity, subject: 'Bash', cause: 'c', ...(data ? { data } : {}) };
            expect(checkOcsfRecord(toOcsf(e), pin), `${type} ${severity}`).toEqual([]);
          }
        }
      }
    });
  }
});
