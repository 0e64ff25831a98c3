import { describe, expect, it } from 'vitest';
import { buildReport, type ConformanceReport } from './report.js';
import { claimedClasses, targetPages } from './target-page.js';

const hello = { type: 'hello', role: 'emitter', identity: { agent: 'claude-code' }, capabilities: { emits: ['run'], control: { accepts: ['control.attention.respond'] } } };
function report(failing: boolean): ConformanceReport {
  const r = buildReport({
    tool: 'run-ts', target: 'claude-code=python3 adapter.py', startedAt: 'x', finishedAt: 'y', annotate: true,
    checks: [
      { name: 'live/mappings/claude-code/SessionStart', status: 'pass', integration: 'claude-code', basis: 'must', rule: { id: 'event.valid', section: 'AEP-0001 §5' } },
      { name: 'live/control-loop/claude-code/permission: allow', status: failing ? 'fail' : 'pass', integration: 'claude-code', basis: 'must', rule: { id: 'control.ack.one', section: 'AEP-0004 §3' }, ...(failing ? { detail: 'no ack' } : {}) },
      { name: 'live/control-loop/claude-code/steering: x', status: 'skip', integration: 'claude-code', basis: 'must', excusedBy: "the target's hello", detail: "not declared: the target's hello does not declare steering" },
      { name: 'live/mappings/claude-code/elicitation', status: 'skip', integration: 'claude-code', basis: 'pin', excusedBy: 'd.json', detail: 'deviation (documented): claude-code/elicitation: ours' },
    ],
    run: { corpus: 'conformance/fixtures', revision: 'sha256:0', tool: { name: 'aep-reference', version: '0' }, node: 'v22', target: 'claude-code=python3 adapter.py', families: ['live/mappings', 'live/control-loop'], profile: 'standard', targets: [{ agent: 'claude-code', run: 'python3 adapter.py' }], hellos: { 'claude-code': hello }, deviations: { 'claude-code/elicitation': 'ours' } },
  });
  return r;
}

describe("a target's certification page", () => {
  it('is built from what it did: command, observed hello, classes claimed and met, results by basis, deviations', () => {
    const pages = targetPages(report(false));
    expect(Object.keys(pages)).toEqual(['certification/index.md', 'certification/claude-code.md']);
    const page = pages['certification/claude-code.md']!;
    expect(page).toContain('**conforms: 2/2 judged checks pass**');
    expect(page).toContain('- command run: `python3 adapter.py`');
    expect(page).toContain('- profile: **standard**');
    expect(page).toContain('"accepts": [\n        "control.attention.respond"\n      ]');
    expect(page).toContain('| Control-capable | yes | met |');
    expect(page).toContain('| must | 3 | 2 | 0 | 1 | 0 |');
    expect(page).toContain('| pin | 1 | 0 | 0 | 0 | 1 |');
    expect(page).toContain('| `claude-code/elicitation` | ours |');
    for (const ours of ['8377', 'verification', 'vendor surface', 'Deviations from the design record']) expect(page).not.toContain(ours);
    expect(pages['certification/index.md']).toContain('| [claude-code](claude-code.md) | `python3 adapter.py` | 4 | 2 | 0 | 2 |');
  });
  it('a failing must check: not conforming, the class not met', () => {
    const page = targetPages(report(true))['certification/claude-code.md']!;
    expect(page).toContain('**does not conform yet: 1/2 judged checks pass, 1 fail**');
    expect(page).toContain('| Control-capable | yes | not met |');
  });
  it('claims a class only from the hello', () => {
    expect(claimedClasses(undefined)).toEqual([]);
    expect(claimedClasses({ role: 'emitter', capabilities: {} })).toEqual(['Emitter']);
  });
});
