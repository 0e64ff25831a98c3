/**
 * Whole-output tests of the CloudEvents projection and the CloudEvents validity check, written
 * against the mutants `npm run mutate` left alive in cloudevents.ts and ce-validity.ts
 * (docs/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../event.js';
import { validateCloudEvent } from './ce-validity.js';
import { fromCloudEventDetailed, toCloudEvent } from './cloudevents.js';

const valid = { specversion: '1.0', id: 'v1', source: 'aep://ws-7/agent/coder', type: 'dev.aep.agent.heartbeat' };
const said = (ce: unknown) => validateCloudEvent(ce).map((i) => `${i.rule} ${i.path}: ${i.message}`);

describe('validateCloudEvent: every message in full', () => {
  it('says what is wrong, where', () => {
    expect(said('x')).toStrictEqual(['bridge.ce.not_object $: a CloudEvent must be a JSON object']);
    expect(said({ ...valid, id: '' })).toStrictEqual(['bridge.ce.required $.id: "id" is required and must be a non-empty string']);
    expect(said({ ...valid, specversion: '0.3' })).toStrictEqual(['bridge.ce.specversion $.specversion: specversion must be "1.0", got "0.3"']);
    expect(said({ ...valid, Upper: 'x' })).toStrictEqual(['bridge.ce.attribute.name $.Upper: attribute name "Upper" must be 1-20 lowercase letters or digits']);
    expect(said({ ...valid, zednull: null })).toStrictEqual(['bridge.ce.attribute.type $.zednull: "zednull" must be a string, boolean or 32-bit signed integer, got null']);
    expect(said({ ...valid, time: '11/02/2026' })).toStrictEqual(['bridge.ce.attribute.format $.time: time must be an RFC 3339 timestamp, got "11/02/2026"']);
    expect(said({ ...valid, subject: '' })).toStrictEqual(['bridge.ce.attribute.format $.subject: "subject" must not be empty when present']);
  });
  it('reports a missing or empty specversion once, as required', () => {
    const { specversion: _drop, ...without } = valid;
    for (const ce of [without, { ...valid, specversion: '' }, { ...valid, specversion: 7 }]) {
      expect(validateCloudEvent(ce).map((i) => `${i.rule} ${i.path}`).filter((r) => r.includes('specversion'))).toStrictEqual(['bridge.ce.required $.specversion']);
    }
  });
  it('holds integers to 32 bits at both ends', () => {
    expect(said({ ...valid, aepsequence: -2147483648, aepepoch: 2147483647 })).toStrictEqual([]);
    expect(validateCloudEvent({ ...valid, aepsequence: -2147483649 }).map((i) => i.path)).toStrictEqual(['$.aepsequence']);
  });
});

describe('toCloudEvent and fromCloudEventDetailed', () => {
  it('omits the type of an Event without a string type', () => {
    expect(toCloudEvent({ id: 'a', source: 's' } as unknown as AepEvent)).not.toHaveProperty('type');
    expect(toCloudEvent({ id: 'a', source: 's', type: 5 } as unknown as AepEvent)).not.toHaveProperty('type');
  });
  it('writes the extensions before data, and keeps an extension named by the empty string', () => {
    const ce = toCloudEvent({ aep: '0.1', id: 'a', type: 't.x', source: 's', data: { x: 1 }, zedx: 'y', '': 'e' } as unknown as AepEvent);
    expect(Object.keys(ce).slice(-3)).toStrictEqual(['zedx', '', 'data']);
    expect(ce['']).toBe('e');
  });
  it('says why an inbound attribute was dropped', () => {
    expect(fromCloudEventDetailed({ type: 'dev.aep.t.x', ZedRegion: 'x' }).issues.map((i) => i.message)).toStrictEqual([
      'CE attribute "ZedRegion" was dropped: AEP extension names must match [a-z0-9]{1,20} (AEP-0001 §5.4); rename it at the producer to carry it',
    ]);
    expect(fromCloudEventDetailed({ type: 'dev.aep.t.x', session: 'forged' }).issues.map((i) => i.message)).toStrictEqual([
      'CE attribute "session" was dropped: it collides with the AEP core attribute of that name (AEP-0001 §5.4); the core value travels in its own mapped CE attribute',
    ]);
  });
});
