/**
 * The JUnit writer on its own: whatever a detail holds (markup, quotes, newlines, control
 * characters, lone surrogates) the file stays well-formed and a JUnit parser reads the text back;
 * `basis` and `rule` become properties when a check carries them.
 */
import { parse, type TestSuites } from 'junit2json';
import { describe, expect, it } from 'vitest';
import { renderJunit, xmlAttr, xmlText } from './junit.js';
import { buildReport, type ReportCheck } from './report.js';
import { checkMeta } from './check-meta.js';

const hostile = 'at $.a: expected "<b>" & \'c\', got\nnext line\u0001\u0007 \ud800 end';

function report(checks: ReportCheck[]) {
  return { ...buildReport({ tool: 'run-ts', target: null, startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:02.500Z', checks }), checks };
}

describe('renderJunit', () => {
  it('escapes every detail so a parser reads it back', async () => {
    const xml = renderJunit(report([
      { name: 'golden/<x> & "y"', status: 'fail', detail: hostile, family: 'golden', integration: 'core' },
      { name: 'mappings/codex/Stop', status: 'skip', detail: 'skipped: no reader', family: 'mappings', integration: 'codex', basis: 'pin', rule: { id: 'mapping.codex.stop', section: 'AEP-0002 Annex A' } },
    ]));
    const doc = (await parse(xml)) as TestSuites;
    expect(doc).toMatchObject({ tests: 2, failures: 1, time: 2.5 });
    const [golden, mappings] = doc.testsuite!;
    const failure = golden!.testcase![0]!.failure![0]!;
    expect(golden!.testcase![0]!.name).toBe('golden/<x> & "y"');
    expect(failure.message).toBe('at $.a: expected "<b>" & \'c\', got');
    expect(failure.inner).toBe('at $.a: expected "<b>" & \'c\', got\nnext line\ufffd\ufffd \ufffd end');
    const tc = mappings!.testcase![0]!;
    expect(tc.classname).toBe('mappings.codex');
    expect(tc.skipped![0]!.message).toBe('skipped: no reader');
    expect((tc as unknown as { properties: { name: string; value: string }[] }).properties).toEqual(
      expect.arrayContaining([{ name: 'basis', value: 'pin' }, { name: 'rule', value: 'mapping.codex.stop' }, { name: 'rule.section', value: 'AEP-0002 Annex A' }]),
    );
  });

  it('escapes attributes and text', () => {
    expect(xmlText('a<b>&c')).toBe('a&lt;b&gt;&amp;c');
    expect(xmlAttr('"x"\n\t')).toBe('&quot;x&quot;&#10;&#9;');
  });
});

describe('the bridge-mappings family in the report', () => {
  it('has its class and spec section, so the spec column of its rows is filled', () => {
    expect(checkMeta({ name: 'bridge-mappings/acp/prompt', integration: 'acp' })).toEqual({
      family: 'bridge-mappings',
      integration: 'acp',
      class: 'Emitter',
      spec: ['AEP-0002 Annex A'],
      basis: 'reference',
      rule: { id: 'mapping.reference-pin', section: 'AEP-0002 Annex A' },
    });
  });
});
