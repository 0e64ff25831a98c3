import { describe, expect, it } from 'vitest';
import { certificationPages, certificationVerdict } from './certify.js';
import { buildReport } from './report.js';

const report = buildReport({
  tool: 'run-ts', target: null, startedAt: 'x', finishedAt: 'y', annotate: true,
  checks: [
    { name: 'mappings/kimi-code/Stop', status: 'pass' },
    { name: 'control-loop/kimi-code/gate deny', status: 'fail', detail: 'step 2: reply differs' },
    { name: 'golden/one', status: 'pass' },
    { name: 'mappings/gemini-cli/SessionStart', status: 'pass' },
  ],
});

describe('certification pages', () => {
  it('one page per descriptor plus an index; results, hello per posture from the adapter, deviations', async () => {
    const pages = await certificationPages(report);
    expect(Object.keys(pages)).toContain('certification/index.md');
    expect(Object.keys(pages)).toContain('certification/kimi-code.md');
    const kimi = pages['certification/kimi-code.md']!;
    expect(kimi).toContain('**does not conform yet: 1/2 pass, 1 fail, 0 skip**');
    expect(kimi).toContain('| gate | `AEP_KIMI_CONTROL=1` | `control.attention.respond` | `control.attention.respond`, `x.kimi-code.control.instruct` | the adapter definition (what the daemon says) |');
    expect(kimi).toContain('| control-loop/kimi-code/gate deny | fail | step 2: reply differs |');
    expect(kimi).toContain('### mappings (1/1 pass)');
    expect(kimi).toContain('- verification: **documented**');
    expect(pages['certification/gemini-cli.md']).toContain('| default | (none) | no `control` block | no `control` block |');
    // Pages only for what ran: an integration with no check gets no page, and the index names it.
    expect(pages['certification/codex.md']).toBeUndefined();
    expect(pages['certification/index.md']).toMatch(/Not exercised by this report \(no page\): .*\bcodex\b/);
    expect(pages['certification/index.md']).toContain('| [kimi-code](kimi-code.md) | adapter | Emitter, Control-capable | 2 | 1 | 1 | 0 |');
  });

  it('a page with a skipped check does not conform, and its totals line names the skip (issue 25 gap 4)', async () => {
    const skipped = buildReport({
      tool: 'run-ts', target: null, startedAt: 'x', finishedAt: 'y', annotate: true,
      checks: [
        { name: 'mappings/codex/Stop', status: 'pass', integration: 'codex' },
        { name: 'mappings/codex/future_modes', status: 'skip', detail: 'skipped: no reader', integration: 'codex' },
      ],
    });
    const pages = await certificationPages(skipped);
    const codex = pages['certification/codex.md']!;
    expect(codex).not.toContain('conforms:');
    expect(codex).toContain('**does not conform yet: 1/2 pass, 0 fail, 1 skip**');
    expect(codex).toContain('### mappings (1/2 pass, 0 fail, 1 skip)');
    expect(pages['certification/index.md']).toContain('| [codex](codex.md) | adapter | Emitter, Control-capable | 2 | 1 | 0 | 1 |');
  });

  it('the verdict: conforms only when every check passed', () => {
    const c = (status: 'pass' | 'fail' | 'skip') => ({ name: `x/${status}`, status });
    expect(certificationVerdict([])).toBe('not exercised: this report holds no check of this integration');
    expect(certificationVerdict([c('pass'), c('pass')])).toBe('conforms: 2/2 pass');
    expect(certificationVerdict([c('pass'), c('skip')])).toBe('does not conform yet: 1/2 pass, 0 fail, 1 skip');
    expect(certificationVerdict([c('fail')])).toBe('does not conform yet: 0/1 pass, 1 fail, 0 skip');
  });
});
