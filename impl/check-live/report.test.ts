import { describe, expect, it } from 'vitest';
import { discoveryProblems } from './checks/discovery.js';
import { envelopeDiff } from './checks/ingest-fanout.js';
import { selectChecks } from './checks/index.js';
import { resolveEndpoint, toWsUrl } from './context.js';
import { canonical } from './control.js';
import { parseSseMarker } from './evict.js';
import { buildReport, renderCheckLine, renderFooter, renderReportJson } from './report.js';

describe('buildReport', () => {
  const t0 = new Date('2026-03-01T10:00:00.000Z');
  const t1 = new Date('2026-03-01T10:00:02.500Z');

  it('builds the standard report shape, omitting empty details', () => {
    const r = buildReport('http://127.0.0.1:9', t0, t1, [
      { name: 'discovery', status: 'pass', detail: '' },
      { name: 'resume', status: 'skip', detail: 'skipped: why' },
    ]);
    expect(renderReportJson(r)).toBe(
      `${JSON.stringify(
        {
          format: 'aep-conformance-report',
          formatVersion: 1,
          aep: '0.1',
          tool: 'live',
          target: 'http://127.0.0.1:9',
          startedAt: '2026-03-01T10:00:00.000Z',
          finishedAt: '2026-03-01T10:00:02.500Z',
          checks: [
            { name: 'discovery', status: 'pass' },
            { name: 'resume', status: 'skip', detail: 'skipped: why' },
          ],
          summary: { pass: 1, fail: 0, skip: 1, total: 2 },
          ok: true,
        },
        null,
        2,
      )}\n`,
    );
  });

  it('is not ok exactly when a check failed', () => {
    const r = buildReport('u', t0, t1, [{ name: 'resume', status: 'fail', detail: 'gap' }]);
    expect(r.ok).toBe(false);
    expect(renderCheckLine(r.checks[0]!)).toBe('  FAIL  resume  gap\n');
    expect(renderFooter(r)).toBe('FAILED: 0 passed, 1 failed, 0 skipped (1 checks)\n');
  });
});

describe('pure helpers', () => {
  it('resolves advertised endpoints against the base URL', () => {
    expect(resolveEndpoint('http://h:1', '/stream')).toBe('http://h:1/stream');
    expect(resolveEndpoint('http://h:1/aep', '/stream')).toBe('http://h:1/aep/stream');
    expect(resolveEndpoint('http://h:1/aep', '/aep/stream')).toBe('http://h:1/aep/stream');
    expect(resolveEndpoint('http://h:1', 'wss://other/socket')).toBe('wss://other/socket');
    expect(toWsUrl('https://h/socket')).toBe('wss://h/socket');
  });

  it('reads the SSE replay-exhausted comment, session parsed from the right', () => {
    expect(parseSseMarker('replay-exhausted live-a 0:12')).toEqual({ session: 'live-a', epoch: 0, seq: 12 });
    expect(parseSseMarker('replay-exhausted a b:c 3:4')).toEqual({ session: 'a b:c', epoch: 3, seq: 4 });
    expect(parseSseMarker('ping')).toBeUndefined();
  });

  it('finds discovery document problems', () => {
    expect(discoveryProblems({ aep: ['0.1'], endpoints: { events: '/events' } })).toEqual([]);
    expect(discoveryProblems([])).toEqual(['the body is not a JSON object']);
    expect(discoveryProblems({ aep: ['0.2'], endpoints: { events: 1 }, capabilities: { filters: ['cesql'], replay: { buffer: -1, all: 'yes' }, capture: ['secret'], control: { accepts: 'x' } } })).toEqual([
      '`aep` does not list "0.1"',
      '`endpoints.events` must be a string',
      '`capabilities.filters` must be an array that lists the REQUIRED dialect "attr-match" (§6)',
      '`capabilities.replay.buffer` must be a non-negative integer',
      '`capabilities.replay.all` must be a boolean',
      '`capabilities.capture` must be an array of capture levels',
      '`capabilities.control.accepts` must be an array of command types',
    ]);
  });

  it('compares envelopes and canonical forms', () => {
    expect(envelopeDiff({ a: 1, data: { x: [1] } }, { a: 1, data: { x: [1] }, ext: 'added' })).toBeUndefined();
    expect(envelopeDiff({ a: 1, data: { x: 1 } }, { a: 1, data: { x: 2 } })).toBe('`data` changed from {"x":1} to {"x":2}');
    expect(canonical({ b: 1, a: [{ d: 2, c: 1 }] })).toBe('{"a":[{"c":1,"d":2}],"b":1}');
  });

  it('selects checks by name and reports unknown ones', () => {
    expect(selectChecks('resume, discovery').checks.map((c) => c.name)).toEqual(['discovery', 'resume']);
    expect(selectChecks('resume,zz').unknown).toEqual(['zz']);
    expect(selectChecks(undefined).checks.length).toBe(19);
  });
});
