import { pathToFileURL } from 'node:url';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../event.js';
import { parseGolden } from './pin.js';
import { severityFromOtlp, toOtlp } from './otlp.js';
import { standardPath } from '../../test-utils/standard.js';
import { skipped, WHY } from '../../test-utils/skip.js';

const ROOT = new URL('../../../', import.meta.url);
const STANDARD = pathToFileURL(`${standardPath('conformance', 'fixtures')}/`);
const OURS = new URL('conformance/fixtures/', ROOT);

const base: AepEvent = {
  aep: '0.1',
  id: 'evt-ot-1',
  type: 'run.finished',
  time: '2026-02-11T08:00:01.25Z',
  source: 'aep://ws-7/agent/coder/session/k1',
  agent: 'coder',
  session: 'k1',
  run: 'r1',
  seq: 4,
  capture: 'metadata',
  data: { duration_ms: 900, 'gen_ai.usage.input_tokens': 10, 'gen_ai.response.model': 'm-1' },
};

describe('toOtlp (AEP-0005 §3)', () => {
  it('projects envelope, hoists gen_ai.* and keeps the rest as body, exactly', () => {
    expect(toOtlp(base)).toStrictEqual({
      time_unix_nano: 1770796801250000000,
      event_name: 'dev.aep.run.finished',
      severity_text: 'INFO',
      severity_number: 9,
      resource: { 'service.name': 'coder' },
      attributes: {
        'aep.agent_id': 'coder',
        'aep.event_id': 'evt-ot-1',
        'aep.capture': 'metadata',
        'aep.source': 'aep://ws-7/agent/coder/session/k1',
        'aep.session_id': 'k1',
        'aep.run_id': 'r1',
        'aep.sequence': 4,
        'gen_ai.usage.input_tokens': 10,
        'gen_ai.response.model': 'm-1',
      },
      body: { duration_ms: 900 },
    });
  });

  it('prints time_unix_nano as the exact integer for millisecond times, honoring offsets', () => {
    expect(JSON.stringify(toOtlp(base).time_unix_nano)).toBe('1770796801250000000');
    const shifted = toOtlp({ ...base, time: '2026-02-11T09:00:01.250+01:00' });
    expect(JSON.stringify(shifted.time_unix_nano)).toBe('1770796801250000000');
  });

  it.each([
    ['debug', 'DEBUG', 5],
    ['info', 'INFO', 9],
    ['notice', 'INFO2', 10],
    ['warning', 'WARN', 13],
    ['error', 'ERROR', 17],
    ['critical', 'FATAL', 21],
  ] as const)('maps severity %s to %s/%i', (severity, text, number) => {
    const record = toOtlp({ ...base, severity });
    expect([record.severity_text, record.severity_number]).toStrictEqual([text, number]);
  });

  it('exports an unregistered severity as UNSPECIFIED and an unparsable time as 0', () => {
    const record = toOtlp({ ...base, severity: 'fatal' as never, time: 'yesterday' });
    expect([record.severity_text, record.severity_number, record.time_unix_nano]).toStrictEqual(['UNSPECIFIED', 0, 0]);
    expect(toOtlp({ ...base, severity: 'toString' as never }).severity_number).toBe(0);
  });

  it('parses traceparent into trace_id, span_id and integer flags', () => {
    const record = toOtlp({ ...base, traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-03' });
    expect([record.trace_id, record.span_id, record.flags]).toStrictEqual(['0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331', 3]);
    expect('trace_id' in toOtlp(base)).toBe(false);
  });

  it('materializes the capture default, and only that default', () => {
    const { capture: _omit, ...noCapture } = base;
    const attributes = toOtlp(noCapture as AepEvent).attributes;
    expect(attributes['aep.capture']).toBe('metadata');
    expect('aep.epoch' in attributes || 'aep.step' in attributes || 'aep.subject' in attributes).toBe(false);
  });

  it('drops the payload wholesale above max_capture and keeps the declared capture', () => {
    const above = toOtlp({ ...base, capture: 'redacted' });
    expect(above.body).toBeUndefined();
    expect(Object.keys(above.attributes).some((k) => k.startsWith('gen_ai.'))).toBe(false);
    expect(above.attributes['aep.capture']).toBe('redacted');
    expect(toOtlp({ ...base, capture: 'redacted' }, { maxCapture: 'full' }).body).toStrictEqual({ duration_ms: 900 });
    expect(toOtlp(base, { maxCapture: 'none' }).body).toBeUndefined();
    expect(toOtlp({ ...base, capture: 'everything' as never }, { maxCapture: 'full' }).body).toBeUndefined();
  });

  it('exports a capture:none Event envelope-only even when it carries data', () => {
    const record = toOtlp({ ...base, capture: 'none' }, { maxCapture: 'full' });
    expect(record.body).toBeUndefined();
    expect(record.attributes['gen_ai.usage.input_tokens']).toBeUndefined();
  });

  it('omits an empty body and honors a service.name override', () => {
    const record = toOtlp({ ...base, data: { 'gen_ai.usage.output_tokens': 1 } }, { serviceName: 'relay-1' });
    expect(record.body).toBeUndefined();
    expect(record.resource).toStrictEqual({ 'service.name': 'relay-1' });
  });

  it('does not mutate its input', () => {
    const copy = structuredClone(base);
    const record = toOtlp(base);
    (record.body as { duration_ms: number }).duration_ms = 0;
    expect(base).toStrictEqual(copy);
  });
});

describe('severityFromOtlp (AEP-0005 §3.4 inverse)', () => {
  it('buckets every OTLP level', () => {
    const buckets = Array.from({ length: 24 }, (_, i) => severityFromOtlp(i + 1));
    expect(buckets).toStrictEqual([
      ...Array(8).fill('debug'), 'info', ...Array(3).fill('notice'), ...Array(4).fill('warning'),
      ...Array(4).fill('error'), ...Array(4).fill('critical'),
    ]);
    expect([severityFromOtlp(0), severityFromOtlp(25), severityFromOtlp(9.5)]).toStrictEqual([null, null, null]);
  });
});

function corpus(dir: URL, label: string): void {
  const golden = new URL('golden/golden.jsonl', dir);
  const pins = new URL('otlp/otlp-expected.json', dir);
  describe.skipIf(!existsSync(golden) || !existsSync(pins))(`${label} otlp pins${skipped(!existsSync(golden) || !existsSync(pins), `the ${label} corpus files are absent${label === 'standard' ? `: ${WHY.standard}` : ''}`)}`, () => {
    const events = existsSync(golden) ? parseGolden(readFileSync(golden, 'utf8')) : [];
    const expected = existsSync(pins) ? (JSON.parse(readFileSync(pins, 'utf8')) as Record<string, unknown>) : {};
    it.each(Object.entries(expected))('golden[%s] projects to its pin', (index, pin) => {
      const event = events[Number(index)];
      expect(event).toBeDefined();
      expect(toOtlp(event!)).toStrictEqual(pin);
    });
  });
}

corpus(STANDARD, 'standard');
corpus(OURS, 'project');
