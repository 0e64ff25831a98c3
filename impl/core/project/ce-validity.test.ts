import { pathToFileURL } from 'node:url';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateCloudEvent } from './ce-validity.js';
import { toCloudEvent } from './cloudevents.js';
import { parseGolden } from './pin.js';
import { standardPath } from '../../test-utils/standard.js';
import { skipped, WHY } from '../../test-utils/skip.js';

const ROOT = new URL('../../../', import.meta.url);

const valid = {
  specversion: '1.0',
  id: 'v1',
  source: 'aep://ws-7/agent/coder',
  type: 'dev.aep.agent.heartbeat',
  time: '2026-02-11T08:00:00Z',
  aepsequence: 2147483647,
  zedbeta: true,
  data: { nested: { any: [1, 2.5, null] } },
  data_base64: 'AA==',
};

const rules = (ce: unknown) => validateCloudEvent(ce).map((i) => `${i.rule} ${i.path}`);

describe('validateCloudEvent (AEP-0005 §5 item 2)', () => {
  it('accepts a legal CE, whatever data holds', () => expect(validateCloudEvent(valid)).toStrictEqual([]));

  it('rejects a non-object', () => expect(rules('x')).toStrictEqual(['bridge.ce.not_object $']));

  it('requires the four required attributes as non-empty strings', () => {
    expect(rules({ specversion: '1.0', id: '', source: 7 })).toStrictEqual([
      'bridge.ce.required $.id', 'bridge.ce.required $.source', 'bridge.ce.required $.type',
    ]);
  });

  it('requires specversion 1.0', () => expect(rules({ ...valid, specversion: '0.3' })).toStrictEqual(['bridge.ce.specversion $.specversion']));

  it('enforces the attribute name grammar', () => {
    expect(rules({ ...valid, aep_bad: 'x', Upper: 'x', abcdefghijklmnopqrstu: 'x' })).toStrictEqual([
      'bridge.ce.attribute.name $.aep_bad', 'bridge.ce.attribute.name $.Upper', 'bridge.ce.attribute.name $.abcdefghijklmnopqrstu',
    ]);
  });

  it('enforces CE value types, 32-bit integers included', () => {
    expect(rules({ ...valid, aepsequence: 2147483648, aepepoch: 1.5, zedobj: {}, zednull: null })).toStrictEqual([
      'bridge.ce.attribute.type $.aepsequence', 'bridge.ce.attribute.type $.aepepoch', 'bridge.ce.attribute.type $.zedobj', 'bridge.ce.attribute.type $.zednull',
    ]);
  });

  it('checks time and empty optional attributes', () => {
    expect(rules({ ...valid, time: '11/02/2026', subject: '', dataschema: '' })).toStrictEqual([
      'bridge.ce.attribute.format $.time', 'bridge.ce.attribute.format $.subject', 'bridge.ce.attribute.format $.dataschema',
    ]);
  });
});

for (const [label, dir] of [
  ['standard', pathToFileURL(standardPath('conformance', 'fixtures', 'golden', 'golden.jsonl'))],
  ['project', new URL('conformance/fixtures/golden/golden.jsonl', ROOT)],
] as const) {
  describe.skipIf(!existsSync(dir))(`${label} golden forward validity${skipped(!existsSync(dir), `the ${label} corpus files are absent${label === 'standard' ? `: ${WHY.standard}` : ''}`)}`, () => {
    const events = existsSync(dir) ? parseGolden(readFileSync(dir, 'utf8')) : [];
    it.each(events.map((e, i) => [i, e] as const))('toCloudEvent(golden[%i]) is a valid CloudEvent', (_i, event) => {
      expect(validateCloudEvent(toCloudEvent(event))).toStrictEqual([]);
    });
  });
}
