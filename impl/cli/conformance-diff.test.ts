/**
 * `aep conformance diff` as a spec author uses it: two runs over two corpora that differ by a
 * renamed member (a codex pin's `trigger` now `origin`), a new case (a codex hook entry) and a
 * tightened case (an invalid case edited, still rejected), then the diff of the two reports. Each
 * change shows up under its integration and conformance class; the regression makes it exit 1.
 * The corpora are the hand-made test corpus plus a codex mapping file built from the project's
 * own corpus entries.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { goodImplementation, writeCorpus } from '../../runners/conformance/test-utils/corpus.js';
import type { ReportDiff } from '../../runners/conformance/report-diff.js';
import { runConformance } from './conformance.js';
import { UsageError } from './io.js';
import { fakeIo } from '../test-utils/cli-io.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const OWN_CODEX = JSON.parse(readFileSync(resolve('conformance/fixtures/mappings/codex.json'), 'utf8')) as Json;
const entry = (label: string): Json => JSON.parse(JSON.stringify(OWN_CODEX.hooks[label]));

/** The base corpus: the test corpus plus mappings/codex.json with SessionStart and Stop. */
function baseCorpus(): string {
  const c = writeCorpus();
  cleanups.push(c.cleanup);
  mkdirSync(join(c.dir, 'mappings'));
  writeFileSync(join(c.dir, 'mappings', 'codex.json'), JSON.stringify({ identity: OWN_CODEX.identity, hooks: { SessionStart: entry('SessionStart'), Stop: entry('Stop') } }, null, 2));
  return c.dir;
}

/** The base corpus edited as the spec author did. */
function editedCorpus(base: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'aep-corpus-new-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(base, dir, { recursive: true });
  const codex = JSON.parse(readFileSync(join(dir, 'mappings', 'codex.json'), 'utf8')) as Json;
  const data = codex.hooks.SessionStart.expected.data;
  data.origin = data.trigger; // the renamed member
  delete data.trigger;
  codex.hooks.UserPromptSubmit = entry('UserPromptSubmit'); // the new case
  writeFileSync(join(dir, 'mappings', 'codex.json'), JSON.stringify(codex, null, 2));
  const invalid = JSON.parse(readFileSync(join(dir, 'invalid', 'cases.json'), 'utf8')) as Json;
  invalid.cases[0].event = { ...invalid.cases[0].event, seq: 7 }; // the tightened case: still invalid, now pinned on another event
  writeFileSync(join(dir, 'invalid', 'cases.json'), JSON.stringify(invalid));
  return dir;
}

async function run(values: Record<string, unknown>, positionals: string[] = [], cwd = tmpdir()) {
  const io = fakeIo({ cwd });
  const code = await runConformance({ values, positionals }, io, { implementation: goodImplementation(), reportPages: () => ({}) });
  return { code, io };
}

describe('aep conformance diff', () => {
  it('reports a renamed member, a new case and a tightened case, each under its integration and class; exit 1 on the regression', async () => {
    const out = mkdtempSync(join(tmpdir(), 'aep-diff-'));
    cleanups.push(() => rmSync(out, { recursive: true, force: true }));
    const base = baseCorpus();
    const edited = editedCorpus(base);
    const families = ['invalid', 'mappings'];
    expect((await run({ corpus: base, family: families, json: join(out, 'base.json') })).code).toBe(0);
    expect((await run({ corpus: edited, family: families, json: join(out, 'new.json') })).code).toBe(1);

    const json = await run({ json: '-' }, ['diff', 'base.json', 'new.json'], out);
    expect(json.code).toBe(1);
    const d = JSON.parse(json.io.out) as ReportDiff;
    const at = (integration: string, klass: string) => d.groups.find((g) => g.integration === integration && g.class === klass)?.changes.map((c) => [c.kind, c.name, c.before ?? null, c.after ?? null]);
    expect(at('codex', 'Emitter')).toEqual([
      ['regressed', 'mappings/codex/SessionStart', 'pass', 'fail'],
      ['added', 'mappings/codex/UserPromptSubmit', null, 'pass'],
    ]);
    expect(at('core', 'Consumer')).toEqual([['fixture', 'invalid/run.started without a session', 'pass', 'pass']]);
    expect(d.groups).toHaveLength(2);
    expect(d.counts).toMatchObject({ regressed: 1, fixed: 0, added: 1, removed: 0, fixture: 1 });
    expect(d.regressed).toBe(true);
    // The regression's detail is the whole difference: the pinned member missing and the emitted one unexpected.
    const regressed = d.groups[0]!.changes[0]!;
    expect(regressed.detail).toBe('at $.data.origin: expected "startup", got absent; at $.data.trigger: expected absent, got "startup"');

    const text = await run({}, ['diff', 'base.json', 'new.json'], out);
    expect(text.code).toBe(1);
    expect(text.io.out).toContain('codex (Emitter):\n  pass→fail              mappings/codex/SessionStart: at $.data.origin');
    expect(text.io.out).toContain('  new (pass)             mappings/codex/UserPromptSubmit\n');
    expect(text.io.out).toContain('core (Consumer):\n  fixture changed (pass) invalid/run.started without a session\n');
    expect(text.io.out).toContain('1 regressed, 0 fixed, 0 changed status, 1 new, 0 gone, 1 fixture changed');

    const md = await run({ md: true }, ['diff', 'base.json', 'new.json'], out);
    expect(md.io.out).toContain('## codex (Emitter)\n\n| change | check | detail |');
    expect(md.io.out).toContain('| new (pass) | mappings/codex/UserPromptSubmit |');

    // Reversed, the regression is a fix: nothing regressed, exit 0; the new case is gone.
    const back = await run({ json: '-' }, ['diff', 'new.json', 'base.json'], out);
    expect(back.code).toBe(0);
    expect((JSON.parse(back.io.out) as ReportDiff).counts).toMatchObject({ regressed: 0, fixed: 1, removed: 1, fixture: 1 });
  });

  it('usage errors: two reports needed, a file that is not a report, a run flag', async () => {
    const out = mkdtempSync(join(tmpdir(), 'aep-diff-'));
    cleanups.push(() => rmSync(out, { recursive: true, force: true }));
    writeFileSync(join(out, 'x.json'), '{"checks": 3}');
    writeFileSync(join(out, 'ok.json'), '{"checks": []}');
    await expect(run({}, ['diff', 'ok.json'], out)).rejects.toThrow(/needs two reports/);
    await expect(run({}, ['diff', 'x.json', 'ok.json'], out)).rejects.toThrow(/is not a conformance report/);
    await expect(run({}, ['diff', 'nope.json', 'ok.json'], out)).rejects.toThrow(UsageError);
    await expect(run({ live: true }, ['diff', 'ok.json', 'ok.json'], out)).rejects.toThrow(/takes only --md and --json; drop --live/);
    const same = await run({}, ['diff', 'ok.json', 'ok.json'], out);
    expect(same.code).toBe(0);
    expect(same.io.out).toContain('no check changed');
  });
});
