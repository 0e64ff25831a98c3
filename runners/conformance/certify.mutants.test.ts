/** The certification page and index, rendered from a made-up descriptor (pure; no descriptor file read). */
import { describe, expect, it } from 'vitest';
import type { Descriptor } from '../../impl/integrations/descriptor.js';
import { certificationIndex, certificationPage, checksOf, type PostureHello } from './certify.js';
import type { ConformanceReport, ReportCheck } from './report.js';

const descriptor = (over: Partial<Descriptor> = {}): Descriptor => ({
  kind: 'adapter', role: 'hook-adapter', name: 'acme', vendor: 'Acme Agent', surface: 'command hooks v2',
  identity: { session: 'session_id', run: 'turn' }, classes: ['Emitter', 'Control-capable'], emits: [],
  postures: [], forms: [], steering: [], deviations: [], port: 8399, portEnv: 'AEP_ACME_PORT', env: [],
  configs: ['examples/acme.json', 'examples/acme2.json'], verification: { status: 'captured', detail: 'real payloads' },
  ...over,
});

const reportOf = (checks: ReportCheck[], run = false): ConformanceReport => ({
  format: 'aep-conformance-report', formatVersion: 1, aep: '0.1', tool: 'run-ts', target: null,
  startedAt: 'x', finishedAt: 'y', checks, summary: { pass: 0, fail: 0, skip: 0, total: 0 }, ok: true,
  ...(run ? { run: { corpus: 'conformance', revision: 'sha256:ab', tool: { name: 'aep', version: '0.1.0' }, node: 'v22', target: null, families: [] } } : {}),
});

const hellos: PostureHello[] = [
  { posture: 'default', env: {}, off: null, on: [], source: 'daemon' },
  { posture: 'gate', env: { AEP_ACME_CONTROL: '1', AEP_X: 'y' }, off: ['control.attention.respond'], on: ['a', 'b'], source: 'declared' },
];

describe('a certification page', () => {
  const checks: ReportCheck[] = [
    { name: 'mappings/acme/Stop', status: 'pass', family: 'mappings', integration: 'acme' },
    { name: 'mappings/acme/a|b', status: 'fail', family: 'mappings', integration: 'acme', detail: 'line one\r\nline | two' },
    { name: 'loose/acme', status: 'pass', integration: 'acme' },
    { name: 'mappings/other/Stop', status: 'fail', family: 'mappings', integration: 'other' },
  ];
  const page = certificationPage(descriptor(), hellos, reportOf(checks, true));

  it('heads with the vendor, the verdict over its own checks only, and the run it came from', () => {
    expect(page.split('\n').slice(0, 3)).toEqual([
      '# Certification: Acme Agent (`acme`, adapter)',
      '',
      '**does not conform yet: 2/3 pass, 1 fail, 0 skip** against corpus `conformance` (sha256:ab), aep 0.1.0.',
    ]);
    const noRun = certificationPage(descriptor(), [], reportOf([checks[0]!]));
    expect(noRun).toContain('\n**conforms: 1/1 pass**.\n');
  });

  it('lists the claims: classes, surface, identity, verification, port and configurations', () => {
    expect(page).toContain(
      [
        '- classes claimed: Emitter, Control-capable',
        '- vendor surface: command hooks v2',
        '- identity: session session_id; run turn',
        '- verification: **captured**: real payloads',
        '- port: 8399; example configuration: `examples/acme.json`, `examples/acme2.json`',
      ].join('\n'),
    );
  });

  it('one hello row per posture: no block, an empty list, names, the variables and the source', () => {
    expect(page).toContain('| default | (none) | no `control` block | `[]` | the adapter definition (what the daemon says) |');
    expect(page).toContain('| gate | `AEP_ACME_CONTROL=1` `AEP_X=y` | `control.attention.respond` | `a`, `b` | declared by the descriptor |');
  });

  it('forms and steering say none when empty, else list them', () => {
    expect(page).toContain('- form loop: none\n- steering boundary: none\n');
    const full = certificationPage(descriptor({ forms: ['Elicit', 'Ask'], steering: ['Stop', 'Pre'] }), [], reportOf([]));
    expect(full).toContain('- form loop: Elicit, Ask\n- steering boundary: Stop, Pre\n');
  });

  it('groups the checks by family with a totals line, escaping pipes and line breaks in cells', () => {
    expect(page).toContain(
      [
        '### mappings (1/2 pass, 1 fail, 0 skip)',
        '',
        '| case | status | detail |',
        '|---|---|---|',
        '| mappings/acme/Stop | pass |  |',
        '| mappings/acme/a\\|b | fail | line one line \\| two |',
        '',
        '###  (1/1 pass)',
        '',
        '| case | status | detail |',
        '|---|---|---|',
        '| loose/acme | pass |  |',
      ].join('\n'),
    );
    expect(page).not.toContain('mappings/other');
    expect(page).not.toContain('No check of this integration ran');
  });

  it('a page with no checks says so, and that nothing was exercised', () => {
    const empty = certificationPage(descriptor(), [], reportOf(checks.slice(3)));
    expect(empty).toContain('**not exercised: this report holds no check of this integration**');
    expect(empty.endsWith('## Fixtures and scenarios\n\nNo check of this integration ran in this report.\n')).toBe(true);
  });
});

describe('a whole certification page, byte for byte', () => {
  it('every heading, blank line and table header in its place; a bare line feed in a cell is a space', () => {
    const report = reportOf([{ name: 'golden/acme', status: 'pass', family: 'golden', integration: 'acme', detail: 'a\nb' }]);
    const hello: PostureHello[] = [{ posture: 'default', env: {}, off: ['x'], on: ['x'], source: 'daemon' }];
    expect(certificationPage(descriptor({ forms: ['Elicit'] }), hello, report)).toBe(
      [
        '# Certification: Acme Agent (`acme`, adapter)',
        '',
        '**conforms: 1/1 pass**.',
        '',
        '- classes claimed: Emitter, Control-capable',
        '- vendor surface: command hooks v2',
        '- identity: session session_id; run turn',
        '- verification: **captured**: real payloads',
        '- port: 8399; example configuration: `examples/acme.json`, `examples/acme2.json`',
        '',
        '## hello `control.accepts` per posture',
        '',
        '| posture | variables | steering off | with `AEP_INSTRUCT=1` | source |',
        '|---|---|---|---|---|',
        '| default | (none) | `x` | `x` | the adapter definition (what the daemon says) |',
        '',
        '## Forms and steering',
        '',
        '- form loop: Elicit',
        '- steering boundary: none',
        '',
        '## Deviations from the design record',
        '',
        'None: every name this integration emits is the one its design record gives.',
        '',
        '## Fixtures and scenarios',
        '',
        '### golden (1/1 pass)',
        '',
        '| case | status | detail |',
        '|---|---|---|',
        '| golden/acme | pass | a b |',
        '',
      ].join('\n'),
    );
  });
});

describe('the certification index', () => {
  it('one row per integration with its counts, linking its page', () => {
    const report = reportOf([
      { name: 'a', status: 'pass', integration: 'acme' },
      { name: 'b', status: 'fail', integration: 'acme' },
      { name: 'c', status: 'skip', integration: 'acme' },
      { name: 'd', status: 'pass', integration: 'beta' },
    ]);
    expect(checksOf(report, 'acme').map((c) => c.name)).toEqual(['a', 'b', 'c']);
    const index = certificationIndex([descriptor(), descriptor({ name: 'beta', kind: 'bridge', classes: ['Consumer'] })], report);
    expect(index).toBe(
      [
        '# Certification pages',
        '',
        '| integration | kind | classes | checks | pass | fail | skip |',
        '|---|---|---|---:|---:|---:|---:|',
        '| [acme](acme.md) | adapter | Emitter, Control-capable | 3 | 1 | 1 | 1 |',
        '| [beta](beta.md) | bridge | Consumer | 1 | 1 | 0 | 0 |',
        '',
      ].join('\n'),
    );
  });
});
