import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AepEvent } from '../event.js';
import { buildCePins, buildOcsfPins, buildOtlpPins, buildProjectPins, parseGolden } from './pin.js';
import { skipped, WHY } from '../../test-utils/skip.js';

const ROOT = new URL('../../../', import.meta.url);
const OURS = new URL('conformance/fixtures/', ROOT);

const golden: AepEvent[] = [
  { aep: '0.1', id: 'g0', type: 'session.started', time: '2026-02-11T08:00:00Z', source: 'aep://h/agent/a/session/s', agent: 'a', session: 's', seq: 0 },
  { aep: '0.1', id: 'g1', type: 'progress.status', time: '2026-02-11T08:00:00.123456789Z', source: 'aep://h/agent/a/session/s', agent: 'a', session: 's', seq: 1 },
];
const text = golden.map((e) => JSON.stringify(e)).join('\n') + '\n\n';

describe('pin builders', () => {
  it('parses golden JSONL, skipping blank lines', () => expect(parseGolden(text)).toStrictEqual(golden));

  it('builds one CE line per golden Event', () => {
    const lines = buildCePins(golden).split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[1]!)).toMatchObject({ id: 'g1', type: 'dev.aep.progress.status' });
    expect(lines[2]).toBe('');
  });

  it('builds OTLP pins keyed by index and refuses times a JSON number cannot hold exactly', () => {
    expect(Object.keys(JSON.parse(buildOtlpPins(golden, [0])))).toStrictEqual(['0']);
    expect(() => buildOtlpPins(golden, [1])).toThrow(/does not print exactly/);
    expect(() => buildOtlpPins(golden, [5])).toThrow(/index 5 does not exist/);
  });

  it('builds OCSF pins for projected Events only', () => {
    expect(Object.keys(JSON.parse(buildOcsfPins(golden)))).toStrictEqual(['0']);
    expect(() => buildOcsfPins(golden, [1])).toThrow(/no OCSF projection/);
  });

  it('builds the project pin set by id and names a missing id', () => {
    expect(Object.keys(JSON.parse(buildProjectPins(text, ['g0']).otlpExpected))).toStrictEqual(['0']);
    expect(() => buildProjectPins(text, ['gone'])).toThrow(/no golden Event has id gone/);
  });
});

/**
 * The checked-in project pins must equal what the builders produce from the project golden.
 * After a reviewed golden change, regenerate with `AEP_WRITE_PINS=1 npx vitest run impl/core/project/pin.test.ts`
 * and review the diff by hand against AEP-0005 before committing it.
 */
const ourGolden = new URL('golden/golden.jsonl', OURS);
const files = {
  ceExpected: new URL('ce-roundtrip/ce-expected.jsonl', OURS),
  otlpExpected: new URL('otlp/otlp-expected.json', OURS),
  ocsfExpected: new URL('ocsf/ocsf-expected.json', OURS),
} as const;
describe.skipIf(!existsSync(ourGolden))(`project bridge pins${skipped(!existsSync(ourGolden), WHY.corpus)}`, () => {
  const built = existsSync(ourGolden) ? buildProjectPins(readFileSync(ourGolden, 'utf8')) : undefined;
  if (built !== undefined && process.env.AEP_WRITE_PINS === '1') {
    for (const [key, url] of Object.entries(files)) writeFileSync(url, built[key as keyof typeof files]);
  }
  it.each(Object.entries(files))('%s is current with the project golden corpus', (key, url) => {
    expect(readFileSync(url, 'utf8')).toBe(built![key as keyof typeof files]);
  });
});
