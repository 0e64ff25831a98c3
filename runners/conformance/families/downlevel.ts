/**
 * downlevel (AEP-0001 §8.2): a hop rewriting an event for a lower ceiling lands on the
 * pinned capture level (`null` = no `capture` attribute) and exactly the pinned `data`
 * (`null` = no data at all), leaves
 * every other attribute alone, and never mutates the event it was given (the relay hands
 * one stored event to many subscribers).
 */
import { later } from '../check.js';
import { jsonDiff } from '../compare.js';
import { caseList, caseName, filesExist, FixtureError, readJsonFixture } from '../fixtures.js';
import { plannedFamily } from '../planned.js';
import type { Family } from '../types.js';

const FILE = 'downlevel/cases.json';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export const family: Family = plannedFamily({
  name: 'downlevel',
  description: 'hop down-leveling prunes by capture annotation, degrades [metadata*] fields, never mints redacted',
  detect: (dir) => filesExist(dir, FILE),
  plan({ corpusDir, implementation: impl }) {
    const cases = caseList(readJsonFixture(corpusDir, FILE), FILE, 'cases');
    return cases.map((c, i) =>
      later(`downlevel/${caseName(c, i)}`, () => {
        if (!isObject(c.event) || typeof c.ceiling !== 'string' || (typeof c.expect_capture !== 'string' && c.expect_capture !== null) || !('expect_data' in c)) {
          throw new FixtureError(`${FILE}: case ${caseName(c, i)} needs "event", "ceiling", "expect_capture" and "expect_data"`);
        }
        const before = JSON.stringify(c.event);
        const out = impl.downlevel(c.event, c.ceiling);
        if (JSON.stringify(c.event) !== before) return 'downlevel modified the event it was given';
        if (!isObject(out)) return `downlevel returned ${JSON.stringify(out)}, not an event`;
        // `expect_capture: null` pins an absent attribute; otherwise absent means metadata (AEP-0001 §5.1 #16).
        const capture = c.expect_capture === null ? (out.capture ?? null) : (out.capture ?? 'metadata');
        if (capture !== c.expect_capture) return `capture: expected ${JSON.stringify(c.expect_capture)}, got ${JSON.stringify(capture)}`;
        const data = jsonDiff(c.expect_data, out.data ?? null, '$.data');
        if (data) return data;
        const { capture: _c, data: _d, ...rest } = out;
        const { capture: _ic, data: _id, ...inRest } = c.event;
        return jsonDiff(inRest, rest);
      }, c),
    );
  },
});
