/**
 * Adding an integration is one folder plus one line in the registry (docs/integrations.md). This
 * test does exactly that to a temporary copy of the package: it writes a fake adapter's folder
 * (`descriptor.ts`, `map-hooks.ts`, `mappers.ts`, `adapter.ts`), lets the generator add its one
 * line to `integrations/list.ts`, compiles the copy, and runs the copy's `aep`: the fake appears in
 * `aep setup status`, in `aep conformance --list` and in the reports (report.json, report.md).
 * Then it removes the folder, regenerates, compiles again, and the fake is gone from all three.
 * Nothing is written outside the temporary folder, which is removed at the end.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { integrationDirs, renderList } from './gen.js';
import { CONSOLE_PORT, INTEGRATIONS, RELAY_PORT } from './registry.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FAKE = 'acme-agent';
const FOLDER = `adapters/${FAKE}`;
/** A port no integration, the relay or the console uses. */
const PORT = (() => {
  const used = new Set([RELAY_PORT, CONSOLE_PORT, ...INTEGRATIONS.map((i) => i.port)]);
  let p = 18391;
  while (used.has(p)) p++;
  return p;
})();

/** The fake adapter's folder, file by file: what docs/integrations.md's worked example shows. */
const FILES: Readonly<Record<string, string>> = {
  'descriptor.ts': `import type { Descriptor } from '../../integrations/descriptor.js';

export const descriptor: Descriptor = {
  kind: 'adapter',
  role: 'hook-adapter',
  name: '${FAKE}',
  vendor: 'Acme Agent',
  surface: 'http hooks to the daemon',
  identity: { session: '\`session_id\`', run: 'none' },
  classes: ['Emitter', 'Control-capable'],
  emits: ['session'],
  postures: [{ name: 'default', env: {}, summary: 'observes sessions', accepts: ['control.attention.respond'] }],
  forms: [],
  steering: [],
  deviations: [],
  port: ${PORT},
  portEnv: 'AEP_ACME_AGENT_PORT',
  neutral: { reply: '{}', reads: 'json' },
  env: [],
  configs: [],
  verification: { status: 'documented', detail: 'a fake, made by impl/integrations/fake-integration.test.ts' },
};
`,
  'map-hooks.ts': `import type { Mapped } from '../../adapter-kit/types.js';

export function mapHook(input: Record<string, unknown>): Mapped | null {
  if (input.hook_event_name === 'SessionStart') return { type: 'session.started', data: { cwd: String(input.cwd ?? '') } };
  if (input.hook_event_name === 'SessionEnd') return { type: 'session.ended', data: { reason: 'exit' } };
  return null;
}
`,
  'mappers.ts': `import type { SourceMappers } from '../../integrations/mappers.js';
import { mapHook } from './map-hooks.js';

export const mappers: SourceMappers = { mapHook: (input) => mapHook(input) };
`,
  'adapter.ts': `import { defineAdapter, specFromDescriptor } from '../../adapter-kit/define.js';
import { descriptor } from './descriptor.js';
import { mapHook } from './map-hooks.js';

export const adapter = defineAdapter({
  ...specFromDescriptor(descriptor),
  neutral: '{}',
  async handle(hookEvent, input, ctx) {
    const mapped = mapHook({ ...input, hook_event_name: hookEvent });
    if (mapped && typeof input.session_id === 'string') ctx.emit(input.session_id, mapped);
    return '{}';
  },
});
`,
};

/** The fake's pins: one mapping file, two cases. */
const MAPPING = {
  hooks: {
    SessionStart: { input: { hook_event_name: 'SessionStart', session_id: 's1', cwd: '/w' }, expected: { type: 'session.started', data: { cwd: '/w' } } },
    PreToolUse: { input: { hook_event_name: 'PreToolUse', session_id: 's1' }, expected: null },
  },
};

const tmp = mkdtempSync(join(tmpdir(), 'aep-fake-integration-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A copy of the package's sources, manifest, `bin/` and schemas; node_modules linked, not copied. */
function copyPackage(): void {
  const skip = (src: string): boolean => /(^|\/)(node_modules|dist)(\/|$)/.test(src.slice(ROOT.length));
  for (const part of ['impl', 'runners', 'spec', 'bin', 'package.json']) cpSync(join(ROOT, part), join(tmp, part), { recursive: true, filter: (src) => !skip(src) });
  symlinkSync(join(ROOT, 'node_modules'), join(tmp, 'node_modules'), 'dir');
  mkdirSync(join(tmp, 'corpus', 'mappings'), { recursive: true });
  cpSync(join(ROOT, 'conformance', 'fixtures', 'golden'), join(tmp, 'corpus', 'golden'), { recursive: true });
  writeFileSync(join(tmp, 'corpus', 'mappings', `${FAKE}.json`), JSON.stringify(MAPPING, null, 2));
}

/** What `AEP_WRITE_GENERATED=1 npx vitest run impl/integrations/registry.test.ts` writes: the copy's list.ts, from its folders. */
function regenerate(): string {
  const text = renderList(integrationDirs(join(tmp, 'impl')));
  writeFileSync(join(tmp, 'impl', 'integrations', 'list.ts'), text);
  return text;
}

function sources(dir: string, ext: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'test-utils' && !path.endsWith('console/web')) out.push(...sources(path, ext));
    } else if (name.endsWith(ext) && !/\.test\.[cm]?ts$/.test(name)) out.push(path);
  }
  return out;
}

/** The copy compiled to its dist/ as `npm run build` lays it out (each file transpiled; ESM, and CommonJS for `.cts`). */
async function compile(): Promise<void> {
  rmSync(join(tmp, 'dist'), { recursive: true, force: true });
  const roots = ['impl', 'runners', 'spec'].map((d) => join(tmp, d));
  const common = { outdir: join(tmp, 'dist'), outbase: tmp, platform: 'node', target: 'node20', logLevel: 'silent' } as const;
  await build({ ...common, entryPoints: roots.flatMap((r) => sources(r, '.ts')), format: 'esm' });
  await build({ ...common, entryPoints: roots.flatMap((r) => sources(r, '.cts')), format: 'cjs', outExtension: { '.js': '.cjs' } });
}

/** The copy's `aep`, with a home of its own and no port variable from this shell. */
function aep(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const home = join(tmp, 'home');
  const r = spawnSync(process.execPath, [join(tmp, 'bin', 'aep.js'), ...args], { cwd: tmp, env: { PATH: process.env.PATH ?? '', HOME: home, AEP_HOME: home }, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Seen {
  status: string;
  list: string;
  reportJson: { checks: Array<{ name: string; status: string; integration?: string }> };
  reportMd: string;
}

/** `aep setup status`, `aep conformance --list` and a conformance run's reports, from the copy as it is now. */
function observe(round: string): Seen {
  const status = aep('setup', 'status');
  expect(status.code, status.stderr).toBe(0);
  const list = aep('conformance', '--corpus', join(tmp, 'corpus'), '--list');
  expect(list.code, list.stderr).toBe(0);
  const reports = join(tmp, `reports-${round}`);
  const run = aep('conformance', '--corpus', join(tmp, 'corpus'), '--report', reports);
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  return {
    status: status.stdout,
    list: list.stdout,
    reportJson: JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as Seen['reportJson'],
    reportMd: readFileSync(join(reports, 'report.md'), 'utf8'),
  };
}

describe('adding an integration: one folder plus one line in the registry', () => {
  it('a fake adapter added that way shows in setup status, conformance --list and the reports; removed, it is gone', { timeout: 240_000 }, async () => {
    copyPackage();
    const before = readFileSync(join(tmp, 'impl', 'integrations', 'list.ts'), 'utf8');
    expect(before, 'the copy starts from a current list.ts').toBe(renderList(integrationDirs(join(tmp, 'impl'))));

    // The folder.
    mkdirSync(join(tmp, 'impl', FOLDER));
    for (const [file, text] of Object.entries(FILES)) writeFileSync(join(tmp, 'impl', FOLDER, file), text);
    // The one line.
    const added = regenerate();
    const oldLines = new Set(before.split('\n'));
    expect(added.split('\n').filter((l) => !oldLines.has(l))).toEqual([`export { descriptor as adapters_acme_agent } from '../${FOLDER}/descriptor.js';`]);
    expect(added.split('\n').length).toBe(before.split('\n').length + 1);
    await compile();

    const on = observe('added');
    expect(on.status).toContain(`${FAKE.padEnd(14)} 127.0.0.1:${PORT}  down\n`);
    expect(on.list).toContain(`  mappings/${FAKE}/SessionStart\n  mappings/${FAKE}/PreToolUse\n`);
    const fakeChecks = on.reportJson.checks.filter((c) => c.integration === FAKE);
    expect(fakeChecks.map((c) => [c.name, c.status])).toEqual([[`mappings/${FAKE}/SessionStart`, 'pass'], [`mappings/${FAKE}/PreToolUse`, 'pass']]);
    expect(on.reportMd).toContain(`| ${FAKE} | 2 | 0 | 0 | 2 |\n`);

    // Removed: the folder goes, the generator takes its line out, and the fake is gone everywhere.
    rmSync(join(tmp, 'impl', FOLDER), { recursive: true });
    expect(regenerate()).toBe(before);
    await compile();
    const off = observe('removed');
    expect(off.status).not.toContain(FAKE);
    expect(off.list).not.toContain(FAKE);
    expect(JSON.stringify(off.reportJson)).not.toContain(FAKE);
    expect(off.reportMd).not.toContain(FAKE);
    // The copy still lists every real integration it listed with the fake (nothing else moved).
    expect(off.status.split('\n').length).toBe(on.status.split('\n').length - 1);
  });
});
