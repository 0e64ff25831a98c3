import { pathToFileURL } from 'node:url';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateEvent } from '../envelope.js';
import type { AepEvent } from '../event.js';
import { fromCloudEvent, fromCloudEventDetailed, toCloudEvent } from './cloudevents.js';
import { parseGolden } from './pin.js';
import { standardPath } from '../../test-utils/standard.js';
import { skipped, WHY } from '../../test-utils/skip.js';

const ROOT = new URL('../../../', import.meta.url);
const STANDARD = pathToFileURL(`${standardPath('conformance', 'fixtures')}/`);
const OURS = new URL('conformance/fixtures/', ROOT);

/** Deep-equal AND the same key set at every level: no `undefined` members, nothing added. */
function expectIdentical(actual: unknown, expected: unknown): void {
  expect(actual).toStrictEqual(expected);
  expect(JSON.parse(JSON.stringify(actual))).toStrictEqual(expected);
}

const sample: AepEvent = {
  aep: '0.1',
  id: 'evt-ce-1',
  type: 'tool.completed',
  subject: 'Grep',
  time: '2026-02-11T08:00:00.5+01:00',
  source: 'aep://ws-7/agent/coder/session/k1',
  agent: 'coder',
  session: 'k1',
  run: 'r1',
  step: 's2',
  seq: 12,
  epoch: 3,
  cause: 'evt-ce-0',
  traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00',
  severity: 'notice',
  capture: 'metadata',
  zedteam: 'blue',
  zedbuild: 42,
  zedbeta: false,
  data: { tool: { name: 'Grep', call_id: 'c9' }, status: 'success' },
};

describe('toCloudEvent (AEP-0005 §1)', () => {
  it('maps every attribute per B1-B5 and passes extensions through', () => {
    expectIdentical(toCloudEvent(sample), {
      specversion: '1.0',
      id: 'evt-ce-1',
      source: 'aep://ws-7/agent/coder/session/k1',
      type: 'dev.aep.tool.completed',
      subject: 'Grep',
      time: '2026-02-11T08:00:00.5+01:00',
      datacontenttype: 'application/json',
      aepversion: '0.1',
      aepagentid: 'coder',
      aepsessionid: 'k1',
      aeprunid: 'r1',
      aepstep: 's2',
      aepsequence: 12,
      aepepoch: 3,
      aepcausationid: 'evt-ce-0',
      aepseverity: 'notice',
      aepcapture: 'metadata',
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00',
      zedteam: 'blue',
      zedbuild: 42,
      zedbeta: false,
      data: { tool: { name: 'Grep', call_id: 'c9' }, status: 'success' },
    });
  });

  it('materializes no default and omits datacontenttype without data', () => {
    const bare: AepEvent = { aep: '0.1', id: 'p1', type: 'agent.heartbeat', time: '2026-02-11T08:00:00Z', source: 'aep://ws-7/agent/coder', agent: 'coder' };
    expectIdentical(toCloudEvent(bare), {
      specversion: '1.0',
      id: 'p1',
      source: 'aep://ws-7/agent/coder',
      type: 'dev.aep.agent.heartbeat',
      time: '2026-02-11T08:00:00Z',
      aepversion: '0.1',
      aepagentid: 'coder',
    });
  });

  it('maps vendor types under the same root', () => {
    expect(toCloudEvent({ ...sample, type: 'x.zed.tool.lint' }).type).toBe('dev.aep.x.zed.tool.lint');
  });

  it('never lets an extension overwrite a CE attribute the mapping owns', () => {
    const ce = toCloudEvent({ ...sample, specversion: '9', aepsessionid: 'forged', datacontenttype: 'text/plain' });
    expect(ce.specversion).toBe('1.0');
    expect(ce.aepsessionid).toBe('k1');
    expect(ce.datacontenttype).toBe('application/json');
  });

  it('does not mutate its input and shares no structure with it', () => {
    const copy = structuredClone(sample);
    const ce = toCloudEvent(sample);
    (ce.data as { status: string }).status = 'changed';
    expect(sample).toStrictEqual(copy);
  });
});

describe('fromCloudEvent (AEP-0005 §2)', () => {
  it('is the exact inverse of toCloudEvent', () => {
    expectIdentical(fromCloudEvent(toCloudEvent(sample)), sample);
  });

  it('returns null for foreign CE types and non-objects', () => {
    expect(fromCloudEvent({ specversion: '1.0', id: '1', source: 'urn:x', type: 'com.example.build.done' })).toBeNull();
    expect(fromCloudEvent({ specversion: '1.0', id: '1', source: 'urn:x', type: 'dev.aepx.tool.completed' })).toBeNull();
    expect(fromCloudEvent({ specversion: '1.0', id: '1', source: 'urn:x' })).toBeNull();
    expect(fromCloudEvent(null)).toBeNull();
    expect(fromCloudEvent([toCloudEvent(sample)])).toBeNull();
    expect(fromCloudEvent('dev.aep.tool.completed')).toBeNull();
  });

  it('keeps legal unknown extensions and drops illegal ones with one issue each', () => {
    const ce = {
      ...toCloudEvent(sample),
      aepnextminor: 'v2',
      zedregion: 'ap-2',
      'zed.region': 'x',
      ZedRegion: 'x',
      zedregionwithaverylongname: 'x',
      session: 'forged',
      zedlist: ['a'],
      zedratio: 0.5,
      zednull: null,
      dataschema: 'https://example.test/s.json',
    };
    const { event, issues } = fromCloudEventDetailed(ce);
    expectIdentical(event, { ...sample, aepnextminor: 'v2', zedregion: 'ap-2', dataschema: 'https://example.test/s.json' });
    expect(issues.map((i) => [i.rule, i.path])).toStrictEqual([
      ['bridge.ce.extension.name', '$["zed.region"]'],
      ['bridge.ce.extension.name', '$.ZedRegion'],
      ['bridge.ce.extension.name', '$.zedregionwithaverylongname'],
      ['bridge.ce.extension.collision', '$.session'],
      ['bridge.ce.extension.value', '$.zedlist'],
      ['bridge.ce.extension.value', '$.zedratio'],
      ['bridge.ce.extension.value', '$.zednull'],
    ]);
    for (const i of issues) expect(i.section).toBe('AEP-0005 §2');
    expect(issues[4]!.message).toContain('got an array');
    expect(issues[6]!.message).toContain('got null');
  });

  it('drops the B1 constants and does not mutate its input', () => {
    const ce = toCloudEvent(sample);
    const copy = structuredClone(ce);
    const event = fromCloudEvent(ce)!;
    expect('specversion' in event || 'datacontenttype' in event).toBe(false);
    (event.data as { status: string }).status = 'changed';
    expect(ce).toStrictEqual(copy);
  });
});

function corpus(dir: URL, label: string): void {
  const golden = new URL('golden/golden.jsonl', dir);
  const pins = new URL('ce-roundtrip/ce-expected.jsonl', dir);
  const inbound = new URL('ce-roundtrip/inbound-cases.json', dir);
  describe.skipIf(!existsSync(golden) || !existsSync(pins))(`${label} ce-roundtrip pins${skipped(!existsSync(golden) || !existsSync(pins), `the ${label} corpus files are absent${label === 'standard' ? `: ${WHY.standard}` : ''}`)}`, () => {
    const events = existsSync(golden) ? parseGolden(readFileSync(golden, 'utf8')) : [];
    const expected = existsSync(pins) ? parseGolden(readFileSync(pins, 'utf8')) : [];
    it('pins one CE per golden line', () => {
      expect(expected.length).toBe(events.length);
      expect(events.length).toBeGreaterThan(0);
    });
    it.each(events.map((e, i) => [i, e] as const))('golden[%i] forward equals its pin and round-trips to itself', (i, event) => {
      const ce = toCloudEvent(event);
      expectIdentical(ce, expected[i]);
      expectIdentical(fromCloudEvent(ce), event);
    });
  });
  describe.skipIf(!existsSync(inbound))(`${label} inbound preserve-path cases${skipped(!existsSync(inbound), `the ${label} corpus files are absent${label === 'standard' ? `: ${WHY.standard}` : ''}`)}`, () => {
    const cases = existsSync(inbound)
      ? (JSON.parse(readFileSync(inbound, 'utf8')) as { cases: { name: string; ce: unknown; expected: unknown }[] }).cases
      : [];
    it('has cases', () => expect(cases.length).toBeGreaterThanOrEqual(3));
    it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
      expectIdentical(fromCloudEvent(c.ce), c.expected);
      if (c.expected !== null) expect(validateEvent(c.expected)).toStrictEqual([]);
    });
  });
}

corpus(STANDARD, 'standard');
corpus(OURS, 'project');
