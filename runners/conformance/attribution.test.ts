/**
 * Every check of a run over our own corpus is attributed to the integration it exercises (or to
 * `core`), by the family that made it, and each certification page counts exactly the checks
 * that carry its integration's name.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CORE, checkMeta, FAMILY_META } from './check-meta.js';
import { certificationPages } from './certify.js';
import { defaultCorpusDir } from './corpus.js';
import { loadDescriptors } from './descriptors.js';
import { FAMILIES } from './families/index.js';
import { BRIDGE_OF_SOURCE } from './families/bridge-sources.js';
import { ADAPTER_MAPPERS } from './families/mappings.js';
import { referenceImplementation } from './implementation.js';
import { buildReport, type ConformanceReport } from './report.js';
import { runFamilies } from './runner.js';
import type { Check } from './types.js';

let checks: Check[];
let report: ConformanceReport;
let names: string[];

beforeAll(async () => {
  const result = await runFamilies({ corpusDir: defaultCorpusDir(), families: FAMILIES, implementation: referenceImplementation, logger: { info: () => undefined } });
  checks = result.checks;
  report = buildReport({ tool: 'run-ts', target: null, ...result, annotate: true });
  names = (await loadDescriptors()).descriptors.map((d) => d.name);
}, 300_000);

describe('attribution of every check to an integration', () => {
  it('every check of a per-integration family carries its integration explicitly (nothing read off the check name)', () => {
    const perIntegration = new Set(['bridge-mappings', ...Object.entries(FAMILY_META).filter(([, m]) => m.perAdapter).map(([f]) => f)]);
    const unattributed = checks.filter((c) => perIntegration.has(c.name.split('/')[0]!) && c.integration === undefined && !c.name.endsWith('/fixtures')).map((c) => c.name);
    expect(unattributed).toEqual([]);
  });

  it('no check is attributed to a name that is not an integration (or core)', () => {
    const known = new Set([...names, CORE]);
    const strays = [...new Set(report.checks.map((c) => c.integration ?? '(none)'))].filter((n) => !known.has(n));
    expect(strays).toEqual([]);
    // The adapters' mapper table and the bridges' source table name integrations only.
    expect(Object.keys(ADAPTER_MAPPERS).filter((n) => !names.includes(n))).toEqual([]);
    expect(Object.values(BRIDGE_OF_SOURCE).filter((n) => !names.includes(n))).toEqual([]);
  });

  it('the real-capture replays count toward the adapter that replays them, never toward a folder name', () => {
    const replays = report.checks.filter((c) => c.name.startsWith('mappings/vendors/'));
    expect(replays.length).toBeGreaterThan(0);
    expect(replays.filter((c) => c.integration === 'vendors')).toEqual([]);
    expect(replays.filter((c) => c.name.startsWith('mappings/vendors/claude-code-')).every((c) => c.integration === 'claude-code')).toBe(true);
    expect(replays.filter((c) => c.name.startsWith('mappings/vendors/gemini-')).every((c) => c.integration === 'gemini-cli')).toBe(true);
  });

  it('every bridge whose mapping file is in the corpus is exercised', () => {
    for (const [source, bridge] of Object.entries(BRIDGE_OF_SOURCE)) {
      if (!existsSync(join(defaultCorpusDir(), 'mappings', `${source}.json`))) continue;
      expect(report.checks.filter((c) => c.name.startsWith(`bridge-mappings/${source}/`)).every((c) => c.integration === bridge), source).toBe(true);
      expect(report.checks.some((c) => c.integration === bridge), bridge).toBe(true);
    }
  });

  it("each certification page's totals equal the number of checks carrying its integration's name", async () => {
    const pages = await certificationPages(report);
    const index = pages['certification/index.md']!;
    for (const name of names) {
      const own = report.checks.filter((c) => c.integration === name);
      const n = (s: string) => own.filter((c) => c.status === s).length;
      const row = index.split('\n').find((l) => l.startsWith(`| [${name}](${name}.md) |`));
      if (own.length === 0) {
        // Pages only for what ran: no row, no page, the index names it among the unexercised.
        expect(row, name).toBeUndefined();
        expect(pages[`certification/${name}.md`], name).toBeUndefined();
        expect(index, name).toMatch(new RegExp(`Not exercised by this report \\(no page\\): .*\\b${name}\\b`));
        continue;
      }
      expect(row, name).toBeDefined();
      expect(row!.split('|').slice(-5, -1).map((x) => Number(x.trim())), name).toEqual([own.length, n('pass'), n('fail'), n('skip')]);
      const page = pages[`certification/${name}.md`]!;
      if (own.length === 0) expect(page, name).toContain('**not exercised');
      else expect(page, name).toContain(n('fail') + n('skip') === 0 ? `**conforms: ${own.length}/${own.length} pass**` : `${n('pass')}/${own.length} pass, ${n('fail')} fail, ${n('skip')} skip**`);
      // The family sections of the page add up to the same total.
      const sections = [...page.matchAll(/^### .+ \((\d+)\/(\d+) pass/gm)].map((m) => Number(m[2]));
      expect(sections.reduce((a, b) => a + b, 0), name).toBe(own.length);
    }
  });
});

describe('checkMeta', () => {
  it("files a check by its own integration, else core; a per-integration family's unattributed check (a live family's) by the adapter its name carries", () => {
    expect(checkMeta({ name: 'mappings/vendors/claude-code-2.1.197/s/01-Stop.json', integration: 'claude-code' }).integration).toBe('claude-code');
    expect(checkMeta({ name: 'golden/line 1' }).integration).toBe(CORE);
    expect(checkMeta({ name: 'bridge-mappings/fixtures' }).integration).toBe(CORE);
    expect(checkMeta({ name: 'mappings/fixtures' }).integration).toBe(CORE);
    expect(checkMeta({ name: 'live/control-loop/codex/deny' })).toMatchObject({ family: 'live/control-loop', integration: 'codex', class: 'Control-capable' });
    expect(checkMeta({ name: 'vendors/gemini/remote-deny' }).integration).toBe('gemini-cli');
  });
});
