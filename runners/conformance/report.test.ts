import { describe, expect, it } from 'vitest';
import { buildReport, renderReport, stableReport } from './report.js';

describe('report', () => {
  const base = { tool: 'run-ts', target: null, startedAt: '2026-01-02T03:04:05.000Z', finishedAt: '2026-01-02T03:04:06.500Z' };

  it('has the standard shape, member order, and omits an empty detail', () => {
    const report = buildReport({
      ...base,
      checks: [
        { name: 'a/1', status: 'pass', detail: '' },
        { name: 'a/2', status: 'fail', detail: 'why' },
        { name: 'a/3', status: 'skip', detail: 'skipped: no target' },
      ],
    });
    expect(renderReport(report)).toBe(`{
  "format": "aep-conformance-report",
  "formatVersion": 1,
  "aep": "0.1",
  "tool": "run-ts",
  "target": null,
  "startedAt": "2026-01-02T03:04:05.000Z",
  "finishedAt": "2026-01-02T03:04:06.500Z",
  "checks": [
    {
      "name": "a/1",
      "status": "pass"
    },
    {
      "name": "a/2",
      "status": "fail",
      "detail": "why"
    },
    {
      "name": "a/3",
      "status": "skip",
      "detail": "skipped: no target"
    }
  ],
  "summary": {
    "pass": 1,
    "fail": 1,
    "skip": 1,
    "total": 3
  },
  "ok": false
}
`);
  });

  it('ok is true exactly when nothing failed (skips do not count)', () => {
    expect(buildReport({ ...base, checks: [{ name: 'x', status: 'skip' }] }).ok).toBe(true);
    expect(buildReport({ ...base, checks: [] })).toMatchObject({ ok: true, summary: { pass: 0, fail: 0, skip: 0, total: 0 } });
    expect(buildReport({ ...base, checks: [{ name: 'x', status: 'fail' }] }).ok).toBe(false);
  });

  it('the stable form (what --report DIR writes) is the same bytes for the same results at another time', () => {
    const checks = [{ name: 'golden/one', status: 'pass' as const }, { name: 'mappings/codex/Stop', status: 'pass' as const, integration: 'codex' }];
    const a = buildReport({ ...base, checks, annotate: true });
    const b = buildReport({ ...base, startedAt: '2027-05-06T07:08:09.000Z', finishedAt: '2027-05-06T07:08:10.000Z', checks, annotate: true });
    expect(renderReport(a)).not.toBe(renderReport(b));
    expect(renderReport(stableReport(a))).toBe(renderReport(stableReport(b)));
    expect(renderReport(stableReport(a))).not.toMatch(/startedAt|finishedAt|20\d\d-\d\d-\d\dT/);
    expect(stableReport(a).checks.map((c) => c.integration)).toEqual(['core', 'codex']);
  });
});

