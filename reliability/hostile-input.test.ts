/**
 * Hostile input (issue 14, suite part 1): property-based tests with fast-check over the pure
 * entry points, and mutation fuzzing over the relay's HTTP bodies, query strings, headers and
 * WebSocket frames. Invariants: no uncaught exception; every refusal is a clear error (a
 * catalogued rule id, or a status and error code); the relay keeps serving other clients.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateEvent } from '../impl/core/envelope.js';
import { attrMatch, compileFilter, filterIssues, FILTER_RULES } from '../impl/core/filter.js';
import { fromCloudEvent, toCloudEvent } from '../impl/core/project/cloudevents.js';
import { toOcsf } from '../impl/core/project/ocsf.js';
import { toOtlp } from '../impl/core/project/otlp.js';
import { lookupRule } from '../impl/core/rules.js';
import { parseJsonl, validateStream } from '../impl/core/stream.js';
import type { AepEvent } from '../impl/core/event.js';
import { startRelay, type RunningRelay } from '../impl/relay/server.js';
import { helloWs, makeEvent } from '../impl/relay/test-utils/testing.js';
import { CASES, CI, figures } from './test-utils/scale.js';
import { anyEventText, validEvent } from './test-utils/arbitraries.js';

const catalogued = (rule: string): boolean => lookupRule(rule) !== undefined || FILTER_RULES.includes(rule);

describe('pure entry points (fast-check)', () => {
  it(`validateEvent and validateStream: ${CASES} generated events, no throw, every issue catalogued`, () => {
    let issues = 0;
    fc.assert(
      fc.property(fc.oneof(validEvent(), fc.jsonValue({ maxDepth: 6 })), (value) => {
        const found = [...validateEvent(value), ...validateStream([value])];
        for (const i of found) {
          expect(catalogued(i.rule), i.rule).toBe(true);
          expect(i.message.length).toBeGreaterThan(10);
        }
        issues += found.length;
      }),
      { numRuns: CASES },
    );
    figures('validator', { cases: CASES, issues, uncaught: 0 });
  });

  it(`parseJsonl over ${CASES} mutated texts and byte strings: no throw, issues carry line and rule`, () => {
    fc.assert(
      fc.property(fc.oneof(anyEventText(), fc.string({ maxLength: 200 }), fc.uint8Array({ maxLength: 200 })), (input) => {
        const { events, issues } = parseJsonl(input);
        for (const i of [...issues, ...validateStream(events)]) {
          expect(catalogued(i.rule), i.rule).toBe(true);
          expect(i.line).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: CASES },
    );
    figures('jsonl', { cases: CASES, uncaught: 0 });
  });

  it(`the filter parser over ${CASES} generated filters: no throw, compiled matcher agrees with attrMatch`, () => {
    const filterArb = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.dictionary(fc.constantFrom('type', 'session', 'severity', 'capture', 'epoch', 'team', 'data', 'seq', '__proto__'), fc.oneof(fc.constantFrom('run.*', 'tool.completed', 'info', 'warning', 'metadata', 'a', '*'), fc.integer(), fc.boolean(), fc.array(fc.constantFrom('a', 'b', 'run.*'), { maxLength: 3 }), fc.record({ gte: fc.constantFrom('debug', 'info', 'error', 'bogus') }))),
    );
    const eventArb = fc.record({ type: fc.constantFrom('run.started', 'tool.completed', 'x.a.run.b'), session: fc.constantFrom('a', 'b'), severity: fc.constantFrom('debug', 'info', 'warning', 'error'), team: fc.constantFrom('red', 'blue') }, { requiredKeys: ['type'] });
    let valid = 0;
    fc.assert(
      fc.property(filterArb, eventArb, (filter, event) => {
        const issues = filterIssues(filter);
        for (const i of issues) expect(FILTER_RULES).toContain(i.rule);
        if (issues.length === 0) valid++;
        expect(compileFilter(filter)(event)).toBe(attrMatch(filter, event));
      }),
      { numRuns: CASES },
    );
    figures('filter', { cases: CASES, valid, disagreements: 0 });
  });

  it(`the CE, OTLP and OCSF projections over ${CASES} valid events: no throw, CE round trip is exact`, () => {
    fc.assert(
      fc.property(validEvent(), (event) => {
        const ce = toCloudEvent(event as AepEvent);
        expect(fromCloudEvent(JSON.parse(JSON.stringify(ce)))).toEqual(event);
        for (const maxCapture of ['metadata', 'full'] as const) {
          expect(() => toOtlp(event as AepEvent, { maxCapture })).not.toThrow();
          expect(() => toOcsf(event as AepEvent, { maxCapture })).not.toThrow();
        }
      }),
      { numRuns: CASES },
    );
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => void fromCloudEvent(value)), { numRuns: CASES });
    figures('projections', { cases: 2 * CASES, uncaught: 0, roundTripMismatches: 0 });
  });
});

describe('the relay under mutated wire input', () => {
  let relay: RunningRelay;
  beforeAll(async () => {
    relay = await startRelay({ port: 0, maxBody: 256 * 1024 });
  });
  afterAll(() => relay.close());
  const runs = CI ? 300 : 2_000;

  it(`${runs} mutated POST bodies, headers and content types: never a 5xx, always a JSON error body`, async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(anyEventText(), fc.constantFrom('application/json', 'application/x-ndjson', 'text/plain', ''), fc.constantFrom('0.1', '0.1', '0.1', '0.2', '', undefined), async (text, type, version) => {
        const headers: Record<string, string> = {};
        if (type) headers['content-type'] = type;
        if (version !== undefined) headers['aep-version'] = version;
        const res = await fetch(`${relay.url}/events`, { method: 'POST', headers, body: text });
        const body = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status).toBeLessThan(500);
        if (res.status !== 202) expect(JSON.parse(body)).toHaveProperty(res.status === 426 ? 'versions' : 'error');
      }),
      { numRuns: runs },
    );
    expect((await fetch(`${relay.url}/healthz`)).status).toBe(200);
    figures('http-bodies', { cases: runs, ...Object.fromEntries([...statuses].map(([s, n]) => [`status${s}`, n])), server5xx: 0 });
  });

  it(`${runs} mutated query strings and Last-Event-ID headers on /stream: 200 or a 400 with a code`, async () => {
    const param = fc.oneof(fc.string({ maxLength: 40 }), fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)));
    await fc.assert(
      fc.asyncProperty(param, param, fc.constantFrom('0', 'false', 'x', 'maybe'), fc.string({ maxLength: 30 }), fc.constantFrom('none', 'metadata', 'bogus', ''), async (filter, from, live, lastId, capture) => {
        // live is never on: every answer ends (a live stream would wait for events forever).
        const q = new URLSearchParams({ filter, from, live, capture });
        const res = await fetch(`${relay.url}/stream?${q}`, { headers: { 'last-event-id': lastId.replace(/[\r\n\0]/g, '') } });
        if (res.status === 200) {
          const text = await res.text();
          expect(text.endsWith(': replay-complete\n\n') || text === '').toBe(true);
        } else {
          expect(res.status).toBe(400);
          expect(['invalid-filter', 'limit-exceeded', 'unknown-dialect']).toContain(((await res.json()) as { error: string }).error);
        }
      }),
      { numRuns: runs },
    );
    figures('stream-queries', { cases: runs, server5xx: 0 });
  });

  it(`${runs} mutated WebSocket frames: every bad frame gets an in-band error, the connection survives`, async () => {
    const c = await helloWs(relay.url, { role: 'both' });
    try {
      let errors = 0;
      let internal = 0;
      const frameArb = fc.oneof(anyEventText(), fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)), fc.string({ maxLength: 60 }));
      await fc.assert(
        fc.asyncProperty(frameArb, async (text) => {
          c.sendRaw(text);
        }),
        { numRuns: runs },
      );
      c.send({ type: 'ping', t: 'after-fuzz' });
      await c.waitFor((f) => f?.type === 'pong' && f.t === 'after-fuzz', 10_000);
      for (const f of c.frames) {
        if (f.includes('"type":"error"')) errors++;
        if (f.includes('"code":"internal"')) internal++;
      }
      expect(internal).toBe(0);
      expect(c.ws.readyState).toBe(c.ws.OPEN);
      figures('ws-frames', { cases: runs, errorFrames: errors, internal, closed: 0 });
    } finally {
      c.ws.terminate();
    }
  });

  it('the relay keeps serving a well-behaved client throughout', async () => {
    const ok = await fetch(`${relay.url}/events`, { method: 'POST', headers: { 'content-type': 'application/json', 'aep-version': '0.1' }, body: JSON.stringify(makeEvent({ session: 'still-here' })) });
    expect(ok.status).toBe(202);
  });
});
