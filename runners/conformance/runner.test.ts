import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAMILIES } from './families/index.js';
import { runFamilies } from './runner.js';
import { goodImplementation, writeCorpus } from './test-utils/corpus.js';
import type { Check, Family, Implementation } from './types.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

/** A file of the test corpus, parsed. */
function corpusJson<T>(rel: string): T {
  const c = writeCorpus();
  try {
    return JSON.parse(readFileSync(join(c.dir, rel), 'utf8')) as T;
  } finally {
    c.cleanup();
  }
}

async function run(impl: Implementation, overrides: Record<string, string | null> = {}, families: readonly Family[] = FAMILIES) {
  const corpus = writeCorpus(overrides);
  cleanup = corpus.cleanup;
  const lines: string[] = [];
  const present = families.filter((f) => f.detect(corpus.dir)); // as the CLI does when no family is named
  const result = await runFamilies({ corpusDir: corpus.dir, families: present, implementation: impl, logger: { info: (l) => lines.push(l) } });
  // The fixture hashes are asserted on their own ('every case-reading check carries ...'); the verdicts are compared without them.
  const hashes = new Map(result.checks.map((c) => [c.name, c.fixtureHash]));
  const checks = result.checks.map(({ fixtureHash: _hash, ...rest }) => rest as Check);
  return { ...result, checks, hashes, lines, byName: new Map(checks.map((c) => [c.name, c])) };
}

const failed = (checks: Check[]) => checks.filter((c) => c.status === 'fail');

describe('runner against a correct implementation', () => {
  it('passes every check of the test corpus, one named check per case', async () => {
    const r = await run(goodImplementation());
    expect(failed(r.checks)).toEqual([]);
    expect(r.checks.map((c) => c.name)).toEqual([
      'golden/line 1 run.started',
      'golden/line 2 tool.requested',
      'golden/line 3 progress.status',
      'golden/stream',
      'golden/parse',
      'invalid/run.started without a session',
      'invalid/one id, two different events',
      'attr-match/tool glob hits',
      'attr-match/tool glob misses run',
      'attr-match/invalid: payload is not filterable',
      'ce-roundtrip/forward line 1 run.started',
      'ce-roundtrip/inverse line 1 run.started',
      'ce-roundtrip/round-trip line 1 run.started',
      'ce-roundtrip/forward line 2 tool.requested',
      'ce-roundtrip/inverse line 2 tool.requested',
      'ce-roundtrip/round-trip line 2 tool.requested',
      'ce-roundtrip/forward line 3 progress.status',
      'ce-roundtrip/inverse line 3 progress.status',
      'ce-roundtrip/round-trip line 3 progress.status',
      'ce-roundtrip/inbound: inbound maps back',
      'otlp/golden[1] tool.requested',
      'ocsf/scope golden[0] run.started',
      'ocsf/golden[1] tool.requested',
      'ocsf/scope golden[2] progress.status',
      'redaction/text: sk key',
      'redaction/value: nested sk key',
      'capture-gating/metadata keeps the count, drops the note',
      'downlevel/text drops at metadata',
    ]);
    expect(r.lines).toEqual([
      'golden: 5/5 pass',
      'invalid: 2/2 pass',
      'attr-match: 3/3 pass',
      'ce-roundtrip: 10/10 pass',
      'otlp: 1/1 pass',
      'ocsf: 3/3 pass',
      'redaction: 2/2 pass',
      'capture-gating: 1/1 pass',
      'downlevel: 1/1 pass',
    ]);
  });
});

describe('runner against deliberately broken implementations', () => {
  it('an attrMatch that always matches fails the negative verdict', async () => {
    const r = await run({ ...goodImplementation(), attrMatch: () => true });
    expect(failed(r.checks)).toEqual([
      { name: 'attr-match/tool glob misses run', status: 'fail', detail: 'expected match=false, got true' },
    ]);
    expect(r.lines).toContain('attr-match: 2/3 pass, 1 fail');
    expect(r.lines).toContain('  FAIL attr-match/tool glob misses run [must filter.attr-match, AEP-0003 §6]: expected match=false, got true');
  });

  it('a filter validator that accepts everything fails the fail-closed cases', async () => {
    const r = await run({ ...goodImplementation(), validateFilter: () => null });
    expect(r.byName.get('attr-match/invalid: payload is not filterable')).toEqual({
      name: 'attr-match/invalid: payload is not filterable',
      status: 'fail',
      detail: 'accepted a filter that must be refused (validateFilter returned null)',
    });
  });

  it('a validator that accepts everything fails every invalid case', async () => {
    const r = await run({ ...goodImplementation(), validateEvent: () => [], validateStream: () => [] });
    expect(failed(r.checks).map((c) => [c.name, c.detail])).toEqual([
      ['invalid/run.started without a session', 'accepted an invalid input (the case violates AEP-0001 §5.2)'],
      ['invalid/one id, two different events', 'accepted an invalid input (the case violates AEP-0001 §7)'],
    ]);
  });

  it('a validator that throws fails golden and invalid alike: a crash is not a rejection', async () => {
    const r = await run({ ...goodImplementation(), validateEvent: () => { throw new TypeError('boom'); } });
    const bad = failed(r.checks);
    expect(bad.map((c) => c.name)).toEqual([
      'golden/line 1 run.started',
      'golden/line 2 tool.requested',
      'golden/line 3 progress.status',
      'invalid/run.started without a session',
      'invalid/one id, two different events',
    ]);
    expect(new Set(bad.map((c) => c.detail))).toEqual(new Set(['threw TypeError: boom']));
  });

  it('a validator rejecting for the wrong rule fails a case that names its rule_id', async () => {
    const good = goodImplementation();
    const r = await run({
      ...good,
      validateStream: (events) => good.validateStream(events).map((i) => ({ ...i, rule: 'test.something.else' })),
    });
    expect(failed(r.checks)).toEqual([
      {
        name: 'invalid/one id, two different events',
        status: 'fail',
        detail: 'rejected, but not for rule test.id.collision; issues carried: test.something.else',
      },
    ]);
  });

  it('a validator flagging a golden event reports the rendered issue', async () => {
    const good = goodImplementation();
    const r = await run({
      ...good,
      validateStream: (events) => [...good.validateStream(events), { rule: 'test.x', section: 'AEP-0001 §7', path: '$.seq', message: 'no', line: 2 }],
    });
    expect(r.byName.get('golden/stream')?.detail).toBe('1 issue(s): line 2: $.seq [test.x, AEP-0001 §7] no');
  });

  it('a toCloudEvent that drops an attribute fails forward and round-trip, not the inverse', async () => {
    const good = goodImplementation();
    const r = await run({
      ...good,
      toCloudEvent: (e) => {
        const { aepsessionid: _drop, ...rest } = good.toCloudEvent(e) as Record<string, unknown>;
        return rest;
      },
      fromCloudEvent: (ce) => {
        const ev = good.fromCloudEvent({ ...(ce as object) }) as Record<string, unknown> | null;
        if (ev && !('aepsessionid' in (ce as object))) {
          const { session: _s, ...rest } = ev;
          return rest;
        }
        return ev;
      },
    });
    const bad = failed(r.checks);
    expect(bad.map((c) => c.name)).toEqual([
      'ce-roundtrip/forward line 1 run.started',
      'ce-roundtrip/round-trip line 1 run.started',
      'ce-roundtrip/forward line 2 tool.requested',
      'ce-roundtrip/round-trip line 2 tool.requested',
      'ce-roundtrip/forward line 3 progress.status',
      'ce-roundtrip/round-trip line 3 progress.status',
    ]);
    expect(bad[0]!.detail).toBe('at $.aepsessionid: expected "s_k2", got absent');
    expect(bad[1]!.detail).toBe('at $.session: expected "s_k2", got absent');
  });

  it('an OCSF record carrying a non-class attribute fails class validity', async () => {
    const good = goodImplementation();
    const r = await run(
      {
        ...good,
        toOcsf: (e) => {
          const rec = good.toOcsf(e) as Record<string, unknown> | null;
          return rec ? { ...rec, severity_id: 7 } : rec;
        },
      },
      { 'ocsf/ocsf-expected.json': '{}' },
    );
    expect(r.byName.get('ocsf/scope golden[1] tool.requested')?.detail).toBe('not class-valid: severity_id 7 is not a legal value');
  });

  it('an out-of-scope event that projects to OCSF fails the scope rule', async () => {
    const r = await run({ ...goodImplementation(), toOcsf: () => ({ class_uid: 1007 }) });
    expect(r.byName.get('ocsf/scope golden[2] progress.status')).toMatchObject({ status: 'fail' });
    expect(r.byName.get('ocsf/scope golden[2] progress.status')?.detail).toMatch(/^progress\.status has no OCSF class \(AEP-0005 §4\.1\) but produced /);
  });

  it('a redactor that leaks fails both shapes, naming the leak', async () => {
    const r = await run({ ...goodImplementation(), redactText: (t) => t, redactValue: (v) => v });
    expect(r.byName.get('redaction/text: sk key')?.detail).toBe('output still contains "sk-abc123": "key sk-abc123 here"');
    expect(r.byName.get('redaction/value: nested sk key')?.detail).toBe('output still contains "sk-zz9": {"argv":["x","sk-zz9"]}');
  });

  it('a gate that keeps free text at metadata fails', async () => {
    const r = await run({ ...goodImplementation(), gateFormValues: (_f, v) => v });
    expect(r.byName.get('capture-gating/metadata keeps the count, drops the note')?.detail).toBe('at $.note: expected absent, got "hi"');
  });

  it('a downlevel that mutates its input or mints the wrong level fails', async () => {
    const good = goodImplementation();
    const mutating = await run({
      ...good,
      downlevel: (e, c) => {
        delete ((e as Record<string, unknown>).data as Record<string, unknown>).text;
        return good.downlevel(e, c);
      },
    });
    expect(mutating.byName.get('downlevel/text drops at metadata')?.detail).toBe('downlevel modified the event it was given');
    const minting = await run({ ...good, downlevel: (e) => good.downlevel(e, 'redacted') });
    expect(minting.byName.get('downlevel/text drops at metadata')?.detail).toBe('capture: expected "metadata", got "redacted"');
    const renaming = await run({ ...good, downlevel: (e, c) => ({ ...(good.downlevel(e, c) as object), agent: 'other' }) });
    expect(renaming.byName.get('downlevel/text drops at metadata')?.detail).toBe('at $.agent: expected "ferry", got "other"');
  });

  it('an OTLP projection off the pin fails with the differing path', async () => {
    const r = await run({ ...goodImplementation(), toOtlp: () => ({ event_name: 'dev.aep.tool.requested', severity_number: 10, attributes: { 'aep.event_id': 'FERRY-002' } }) });
    expect(r.byName.get('otlp/golden[1] tool.requested')?.detail).toBe('at $.severity_number: expected 9, got 10');
  });
});

describe('runner against broken fixtures', () => {
  it('a family file with bad JSON is one failed check naming the file; the other families still run', async () => {
    const r = await run(goodImplementation(), { 'attr-match/cases.json': '{"match": [' });
    const bad = failed(r.checks);
    expect(bad).toHaveLength(1);
    expect(bad[0]!.name).toBe('attr-match/fixtures');
    expect(bad[0]!.detail).toMatch(/^attr-match\/cases\.json: malformed JSON: /);
    expect(r.lines).toContain('attr-match: 0/1 pass, 1 fail');
    expect(r.byName.get('downlevel/text drops at metadata')?.status).toBe('pass');
  });

  it('a malformed golden line names file and line, and fails every family that reads golden', async () => {
    const r = await run(goodImplementation(), { 'golden/golden.jsonl': '{"aep":"0.1"}\n{oops\n' });
    expect(r.byName.get('golden/fixtures')?.detail).toMatch(/^golden\/golden\.jsonl: line 2: malformed JSON: /);
    expect(failed(r.checks).map((c) => c.name)).toEqual(['golden/fixtures', 'ce-roundtrip/fixtures', 'otlp/fixtures', 'ocsf/fixtures']);
  });

  it('jsonl cases are parsed by the implementation, padded when asked', async () => {
    const good = goodImplementation();
    const seen: string[] = [];
    const cases = [
      { name: 'torn line', rule_id: 'test.json', jsonl: '{"aep":\n' },
      { name: 'padded', rule_id: 'test.size', jsonl: '{}\n{}', pad_to_bytes: 6 },
    ];
    const r = await run(
      {
        ...good,
        parseJsonl: (text) => {
          seen.push(text);
          return { events: [], issues: [{ rule: text.includes('    ') ? 'test.size' : 'test.json', section: 's', path: '$', message: 'm', line: 1 }] };
        },
      },
      { 'invalid/cases.json': JSON.stringify({ cases }) },
      FAMILIES.filter((f) => f.name === 'invalid'),
    );
    expect(seen).toEqual(['{"aep":\n', '{}    \n{}']);
    expect(r.checks).toEqual([
      { name: 'invalid/torn line', status: 'pass' },
      { name: 'invalid/padded', status: 'pass' },
    ]);
  });

  it('a case without its input fails that case only', async () => {
    const r = await run(goodImplementation(), { 'invalid/cases.json': JSON.stringify({ cases: [{ name: 'empty' }] }) });
    expect(r.byName.get('invalid/empty')).toEqual({
      name: 'invalid/empty',
      status: 'fail',
      detail: 'threw FixtureError: invalid/cases.json: case empty has none of "event", "events", "jsonl"',
    });
  });

  it('a pin keyed by something other than a golden index fails that pin only', async () => {
    const r = await run(goodImplementation(), { 'otlp/otlp-expected.json': JSON.stringify({ 9: {}, 1: { event_name: 'dev.aep.tool.requested', severity_number: 9, attributes: { 'aep.event_id': 'FERRY-002' } } }) });
    expect(r.checks.filter((c) => c.name.startsWith('otlp/'))).toEqual([
      { name: 'otlp/golden[1] tool.requested', status: 'pass' },
      { name: 'otlp/9', status: 'fail', detail: 'fixture: otlp/otlp-expected.json key "9" is not the index of a golden line (0..2)' },
    ]);
  });

  it('every case-reading check carries its fixture hash; editing one case changes that check\'s hash only', async () => {
    const before = (await run(goodImplementation())).hashes;
    const unhashed = [...before].filter(([, h]) => h === undefined).map(([n]) => n);
    expect(unhashed).toEqual([]);
    for (const h of before.values()) if (h !== undefined) expect(h).toMatch(/^sha256:[0-9a-f]{64}$/);
    const cases = corpusJson<{ match: { name: string; event: Record<string, unknown> }[] }>('attr-match/cases.json');
    cases.match[0]!.event = { ...cases.match[0]!.event, extra: 1 };
    const after = (await run(goodImplementation(), { 'attr-match/cases.json': JSON.stringify(cases) })).hashes;
    const changed = [...before].filter(([n, h]) => after.get(n) !== h).map(([n]) => n);
    expect(changed).toEqual([`attr-match/${cases.match[0]!.name}`]);
  });

  it('detect reports absent files without throwing', () => {
    const full = writeCorpus();
    const corpus = writeCorpus({ 'otlp/otlp-expected.json': null });
    cleanup = () => (full.cleanup(), corpus.cleanup());
    const found = (dir: string) => FAMILIES.filter((f) => f.detect(dir)).map((f) => f.name);
    expect(found(full.dir)).toEqual(['golden', 'invalid', 'attr-match', 'ce-roundtrip', 'otlp', 'ocsf', 'redaction', 'capture-gating', 'downlevel']);
    expect(found(corpus.dir)).toEqual(['golden', 'invalid', 'attr-match', 'ce-roundtrip', 'ocsf', 'redaction', 'capture-gating', 'downlevel']);
    expect(FAMILIES.filter((f) => f.detect('/nonexistent/corpus'))).toEqual([]);
  });

  it('duplicate case names stay distinct in the report', async () => {
    const dup = { name: 'same', filter: { type: ['tool.*'] }, event: { type: 'tool.x' }, match: true };
    const r = await run(goodImplementation(), { 'attr-match/cases.json': JSON.stringify({ match: [dup, dup], invalid: [] }) });
    expect(r.checks.filter((c) => c.name.startsWith('attr-match/')).map((c) => c.name)).toEqual(['attr-match/same', 'attr-match/same (2)']);
  });

  it('a family whose run throws a non-fixture error is still a failed check', async () => {
    const exploding: Family = { name: 'boom', description: 'x', detect: () => true, run: () => { throw new RangeError('kaput'); } };
    const r = await run(goodImplementation(), {}, [exploding]);
    expect(r.checks).toEqual([{ name: 'boom/fixtures', status: 'fail', detail: 'threw RangeError: kaput' }]);
  });
});

describe('runner against an empty family', () => {
  it('a fixture file with no cases fails instead of passing vacuously', async () => {
    const r = await run(goodImplementation(), { 'capture-gating/cases.json': '{"cases": []}' });
    expect(r.byName.get('capture-gating/fixtures')).toEqual({
      name: 'capture-gating/fixtures',
      status: 'fail',
      detail: 'the fixture files hold no cases: an empty family proves nothing',
    });
    expect(r.lines).toContain('capture-gating: 0/1 pass, 1 fail');
  });
});
