/**
 * `aep certify <integration>[@<version>|@latest]`: one of our adapters against a vendor release.
 * Installs that release into the vendor lane's cache, runs the integration's vendor scenarios
 * (lane.ts) with their hook payloads captured, diffs the hook surface (surface.ts) against the
 * pinned release's captures (`conformance/fixtures/vendors/<vendor>-<version>/`), and writes
 * `<reports>/<integration>@<version>.md` and `.html` with the captures beside them
 * (`<integration>@<version>.captures/`). `code` is 0 only when every scenario passed and no
 * surface the adapter uses changed. `pin: true` then moves versions.json and the fixtures to that
 * release. Integrations the lane does not drive get the manual steps, named.
 */
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { escapeHtml } from '../conformance/report-html.js';
import type { Check, Implementation } from '../conformance/types.js';
import { ensureDir } from '../../impl/adapter-kit/ensure-dir.js';
import { projectRoot, runLane } from './lane.js';
import type { Manifest } from './fixtures.js';
import { diffSurface, renderChanges, surfaceOf, usedChanges, type CapturedHook } from './surface.js';
import { loadPins, versionsFile, VENDORS, type Pin, type Vendor } from './versions.js';

/** The lane vendor of an integration (the same name), undefined when the lane does not drive it. */
export function laneVendor(integration: string): Vendor | undefined {
  return (VENDORS as readonly string[]).includes(integration) ? (integration as Vendor) : undefined;
}

/** `claude-code@2.1.210` → parts; `@latest` kept as `latest`; no `@`: the pinned release. */
export function parseRelease(arg: string): { integration: string; version?: string } | string {
  const m = /^([a-z0-9][a-z0-9-]*)(?:@(latest|\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?))?$/.exec(arg.trim());
  if (!m) return `'${arg}' is not <integration>[@<version>|@latest] (e.g. claude-code@2.1.197 or claude-code@latest)`;
  return m[2] ? { integration: m[1]!, version: m[2] } : { integration: m[1]! };
}

/** What to do by hand for an integration the lane does not drive. */
export function manualSteps(integration: string): string[] {
  return [
    `the real-vendors lane (runners/vendors) does not drive ${integration}: it drives ${VENDORS.join(', ')}. The manual steps:`,
    `1. install the ${integration} release yourself, beside (not over) the one you use;`,
    `2. wire its hooks to 'aep adapter ${integration}' (aep setup hooks ${integration}) and drive a session by hand: a prompt, a tool call, a permission answered over control;`,
    `3. compare the hook payloads in the adapter's session logs (AEP_HOME/logs) with conformance/fixtures/mappings/${integration}.json, hook by hook;`,
    `4. run 'aep conformance --live --case live/control-loop/${integration}/' against the wired daemon and write the result up.`,
  ];
}

/** The captures of one release folder (`<vendor>-<version>/`, manifest.json + NN-<Hook>.json). */
export function readCaptureSet(dir: string): CapturedHook[] {
  const manifestPath = join(dir, 'manifest.json');
  if (!existsSync(manifestPath)) return [];
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const out: CapturedHook[] = [];
  for (const [scenario, { files }] of Object.entries(manifest.scenarios)) {
    for (const f of files) {
      const hook = f.replace(/^\d+-/, '').replace(/\.json$/, '');
      out.push({ scenario, hook, payload: readFileSync(join(dir, scenario, f), 'utf8') });
    }
  }
  return out;
}

/** `npm view <package> version`: the newest release on the registry. */
export function latestVersion(pkg: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['view', pkg, 'version'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', (e) => reject(new Error(`npm view ${pkg} version: ${e.message}`)));
    child.on('close', (code) => (code === 0 && /^\d+\.\d+\.\d+/.test(out.trim()) ? resolve(out.trim()) : reject(new Error(`npm view ${pkg} version failed (exit ${String(code)}): ${err.trim().split('\n').slice(-2).join(' | ') || out.trim()}`))));
  });
}

export interface CertifyOptions {
  integration: string;
  /** An exact version, `latest`, or undefined (the pinned one). */
  version?: string;
  pin?: boolean;
  /** Where the pages go (default `<clone>/reports/certification`). */
  reportsDir?: string;
  implementation: Pick<Implementation, 'parseJsonl' | 'validateStream'>;
  log: (line: string) => void;
  /** Injectable for tests: the lane and the registry lookup. */
  lane?: typeof runLane;
  latest?: (pkg: string) => Promise<string>;
  /** The pinned captures' root (default `<clone>/conformance/fixtures/vendors`). */
  fixturesDir?: string;
  now?: () => Date;
}

export interface CertifyResult {
  code: 0 | 1;
  /** The page paths written (none for a manual integration). */
  pages: string[];
  lines: string[];
}

/** The certification page, in Markdown (pure). */
export function certificationMarkdown(a: { integration: string; pin: Pin; pinned: Pin; checks: readonly Check[]; changes: string[]; used: string[]; captures: string; date: string; ok: boolean }): string {
  const passed = a.checks.filter((c) => c.status === 'pass').length;
  const lines = [
    `# Certification: ${a.integration} against ${a.pin.package}@${a.pin.version}`,
    '',
    `**${a.ok ? 'certified' : 'not certified'}**: ${passed}/${a.checks.length} scenarios pass; ${a.used.length === 0 ? 'no surface the adapter uses changed' : `${a.used.length} change(s) to the surface the adapter uses`} (against the pinned ${a.pinned.version}).`,
    '',
    `- date: ${a.date}`,
    `- release: \`${a.pin.package}@${a.pin.version}\` (binary \`${a.pin.bin}\`); pinned: ${a.pinned.version}`,
    `- captures: \`${a.captures}\``,
    '',
    '## Scenarios',
    '',
    '| scenario | status | detail |',
    '|---|---|---|',
    ...a.checks.map((c) => `| ${c.name} | ${c.status} | ${(c.detail ?? '').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')} |`),
    '',
    '## Hook surface against the pinned release',
    '',
    ...(a.changes.length ? a.changes.map((c) => `- \`${c}\``) : ['No change: the same hooks fired, with the same members and types.']),
    '',
    '## Changes to the surface the adapter uses',
    '',
    ...(a.used.length ? a.used.map((c) => `- \`${c}\``) : ['None.']),
    '',
  ];
  return lines.join('\n');
}

export async function certifyRelease(o: CertifyOptions): Promise<CertifyResult> {
  const vendor = laneVendor(o.integration);
  if (!vendor) return { code: 1, pages: [], lines: manualSteps(o.integration) };
  const pinned = loadPins().find((p) => p.vendor === vendor)!;
  const version = o.version === 'latest' ? await (o.latest ?? latestVersion)(pinned.package) : (o.version ?? pinned.version);
  const pin: Pin = { ...pinned, version };
  const root = projectRoot();
  const reports = o.reportsDir ?? join(root, 'reports', 'certification');
  const base = `${o.integration}@${version}`;
  const captureRoot = join(reports, `${base}.captures`);
  rmSync(captureRoot, { recursive: true, force: true });
  ensureDir(captureRoot);
  const hooks: CapturedHook[] = [];
  o.log(`aep certify: ${o.integration} against ${pin.package}@${version} (pinned ${pinned.version})`);
  const checks = await (o.lane ?? runLane)({
    implementation: o.implementation,
    vendors: [vendor],
    pins: [pin],
    captureDir: captureRoot,
    log: o.log,
    onHooks: (_v, scenario, records) => {
      for (const r of records) hooks.push({ scenario, hook: r.event, payload: r.payload, ...(r.reply !== undefined ? { reply: r.reply } : {}) });
    },
  });
  const fixtures = o.fixturesDir ?? join(root, 'conformance', 'fixtures', 'vendors');
  const before = readCaptureSet(join(fixtures, `${vendor}-${pinned.version}`));
  const diff = diffSurface(surfaceOf(before), surfaceOf(hooks));
  const changes = renderChanges(diff);
  const used = renderChanges({ addedHooks: [], removedHooks: usedChanges(diff).filter((c) => c.member === undefined).map((c) => c.hook), changes: usedChanges(diff).filter((c) => c.member !== undefined) });
  const scenariosOk = checks.length > 0 && checks.every((c) => c.status !== 'fail');
  const ok = scenariosOk && used.length === 0;
  const date = (o.now ?? (() => new Date()))().toISOString().slice(0, 10);
  const md = certificationMarkdown({ integration: o.integration, pin, pinned, checks, changes, used, captures: `${base}.captures/`, date, ok });
  const mdPath = join(reports, `${base}.md`);
  const htmlPath = join(reports, `${base}.html`);
  writeFileSync(mdPath, md);
  writeFileSync(htmlPath, `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(`${o.integration}@${version}`)}</title></head>\n<body><pre>${escapeHtml(md)}</pre></body></html>\n`);
  const shown = changes.length > 6 ? [...changes.slice(0, 6), `and ${changes.length - 6} more (the page lists them)`] : changes;
  const lines = [`${checks.filter((c) => c.status === 'pass').length}/${checks.length} scenarios pass; surface: ${changes.length ? shown.join('; ') : 'unchanged'}; used surface: ${used.length ? used.join('; ') : 'unchanged'}`, `page: ${mdPath}`];
  if (before.length === 0) lines.push(`note: no pinned captures at ${join(fixtures, `${vendor}-${pinned.version}`)}: every hook reads as added`);
  if (o.pin) {
    if (!scenariosOk) lines.push('--pin: not pinned: a scenario failed (fix it, or name it in runners/vendors/known-failures.ts, first)');
    else {
      const file = versionsFile();
      const text = readFileSync(file, 'utf8');
      const next = text.replace(new RegExp(`("${vendor}":\\s*\\{[^}]*"version":\\s*")[^"]+(")`), `$1${version}$2`);
      writeFileSync(file, next);
      const from = join(captureRoot, `${vendor}-${version}`);
      const to = join(fixtures, `${vendor}-${version}`);
      if (version !== pinned.version) rmSync(join(fixtures, `${vendor}-${pinned.version}`), { recursive: true, force: true });
      rmSync(to, { recursive: true, force: true });
      cpSync(from, to, { recursive: true });
      lines.push(`--pin: ${file} now pins ${pin.package}@${version}; fixtures ${to} (review and commit both)`);
    }
  }
  return { code: ok ? 0 : 1, pages: [mdPath, htmlPath], lines };
}
