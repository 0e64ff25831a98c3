/**
 * The real-vendors lane: every scenario against every pinned vendor binary, one check each,
 * named `vendors/<vendor>/<scenario>`. Installs missing pins into the vendor cache first
 * (cache.ts). `vendorsFamily` makes the lane a conformance family for `aep conformance --vendors`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCENARIO_ADAPTERS } from '../conformance/families/control-loop.js';
import { describeThrown, fail, pass } from '../conformance/check.js';
import type { Check, Family, Implementation } from '../conformance/types.js';
import { binaryPath, cacheRoot, ensureVendor } from './cache.js';
import { claudeCodeDriver } from './claude-code.js';
import { codexDriver } from './codex.js';
import type { VendorDriver } from './driver.js';
import { geminiDriver } from './gemini.js';
import { qwenCodeDriver } from './qwen-code.js';
import { clineDriver } from './cline.js';
import { kilocodeDriver } from './kilocode.js';
import { opencodeDriver } from './opencode.js';
import { piDriver } from './pi.js';
import { entriesFor, excuse, KNOWN_FAILURES, staleEntries, type KnownFailure } from './known-failures.js';
import { runVendorScenario } from './run-scenario.js';
import { SCENARIOS, type Scenario } from './scenarios.js';
import { loadPins, type Pin, type Vendor } from './versions.js';
import type { HookRecord } from './recorder.js';

export const DRIVERS: Readonly<Record<Vendor, VendorDriver>> = { 'claude-code': claudeCodeDriver, codex: codexDriver, 'gemini-cli': geminiDriver, 'qwen-code': qwenCodeDriver, cline: clineDriver, opencode: opencodeDriver, kilocode: kilocodeDriver, pi: piDriver };

export interface LaneOptions {
  implementation: Pick<Implementation, 'parseJsonl' | 'validateStream'>;
  /** Only these vendors (default: every pinned vendor). */
  vendors?: readonly string[];
  /** Only these scenarios (default: all). */
  scenarios?: readonly string[];
  /** Only these `vendor` or `vendor/scenario` selections (`--only`), on top of the two above. */
  only?: readonly string[];
  /** Vendor cache root (default: AEP_VENDORS_CACHE or ~/.cache/aep-vendors). */
  cache?: string;
  /** Where captured payloads go; undefined: not saved. */
  captureDir?: string;
  knownFailures?: readonly KnownFailure[];
  log?: (line: string) => void;
  now?: () => Date;
  /** The releases to run (default: versions.json's pins); `aep certify` runs one vendor at another version. */
  pins?: readonly Pin[];
  /** Every scenario's hook calls as the vendor made them, replies included (`aep certify`'s surface). */
  onHooks?: (vendor: string, scenario: string, hooks: readonly HookRecord[]) => void;
}

/** The clone's root (this file lives in runners/vendors, or dist/runners/vendors). */
export function projectRoot(): string {
  const here = fileURLToPath(new URL('.', import.meta.url));
  return here.replace(/\/(?:dist\/)?runners\/vendors\/?$/, '');
}

/** A check from a scenario's problems, honouring the known-failures entries that apply to it. */
export function verdict(name: string, problems: readonly string[], entries: readonly KnownFailure[]): { check: Check; used: Set<KnownFailure> } {
  const { excused, open } = excuse(problems, entries);
  const used = new Set(excused.map((e) => e.entry));
  if (open.length > 0) return { check: fail(name, open.join('; ') + (excused.length ? ` (also ${excused.length} known failure(s))` : '')), used };
  if (excused.length > 0) {
    const reasons = [...used].map((k) => k.reason);
    return { check: { name, status: 'skip', excusedBy: 'runners/vendors/known-failures.ts', detail: `known failure (runners/vendors/known-failures.ts): ${reasons.join(' | ')}; observed: ${excused.map((e) => e.problem).join('; ')}` }, used };
  }
  return { check: pass(name), used };
}

/** Whether `--only` selections (`vendor` or `vendor/scenario`; none: everything) take this scenario. */
export function selected(only: readonly string[] | undefined, vendor: string, scenario: string): boolean {
  if (!only || only.length === 0) return true;
  return only.some((o) => o === vendor || o === `${vendor}/${scenario}`);
}

export async function runLane(opts: LaneOptions): Promise<Check[]> {
  const log = opts.log ?? (() => {});
  const root = projectRoot();
  const cache = opts.cache ?? cacheRoot();
  const pins = (opts.pins ?? loadPins()).filter((p) => !opts.vendors || opts.vendors.includes(p.vendor));
  const checks: Check[] = [];
  const known = opts.knownFailures ?? KNOWN_FAILURES;
  const applicable = new Set<KnownFailure>();
  const used = new Set<KnownFailure>();
  for (const pin of pins) {
    const driver = DRIVERS[pin.vendor];
    const scenarios: Scenario[] = SCENARIOS.filter((s) => s.vendors.includes(pin.vendor) && (!opts.scenarios || opts.scenarios.includes(s.name)) && selected(opts.only, pin.vendor, s.name));
    if (scenarios.length === 0) continue;
    let binary: string;
    try {
      binary = await ensureVendor(pin, cache, log);
    } catch (err) {
      for (const s of scenarios) checks.push(fail(`vendors/${pin.vendor}/${s.name}`, `${pin.package}@${pin.version} is not installed at ${binaryPath(pin, cache)}: ${(err as Error).message}`));
      continue;
    }
    // Record-only until the implementation has the adapter and its example file (Gemini today).
    const vendorDef = existsSync(join(root, driver.exampleFile)) ? SCENARIO_ADAPTERS[driver.adapter] : undefined;
    for (const scenario of scenarios) {
      const name = `vendors/${pin.vendor}/${scenario.name}`;
      const adapterDef = driver.plugin ? driver.plugin.adapter({ ...(driver.plugin.env ?? {}), ...(scenario.pluginEnv ?? {}) }) : vendorDef;
      const started = Date.now();
      try {
        const result = await runVendorScenario(driver, scenario, {
          projectRoot: root,
          pin,
          binary,
          adapterDef,
          ...(driver.recordingConfig ? { recordingConfig: driver.recordingConfig() } : {}),
          implementation: opts.implementation,
          ...(opts.captureDir ? { captureDir: opts.captureDir } : {}),
          log,
          now: opts.now ?? (() => new Date()),
        });
        opts.onHooks?.(pin.vendor, scenario.name, result.hooks);
        const entries = entriesFor(pin.vendor, scenario.name, known);
        for (const e of entries) applicable.add(e);
        const { check, used: hit } = verdict(name, result.problems, entries);
        for (const e of hit) used.add(e);
        log(`${check.status === 'pass' ? 'ok  ' : check.status === 'skip' ? 'skip' : 'FAIL'} ${name} (${pin.version}, ${((Date.now() - started) / 1000).toFixed(1)} s, ${result.hooks.length} hooks)${check.detail ? `: ${check.detail}` : ''}`);
        if (check.status === 'fail' && result.transcript) log(`  ${name}: the vendor's last output:\n${result.transcript.split('\n').filter((l) => l.trim() !== '').slice(-25).map((l) => `    ${l.length > 400 ? `${l.slice(0, 400)}...` : l}`).join('\n')}`);
        checks.push(check);
      } catch (err) {
        log(`FAIL ${name}: ${describeThrown(err)}`);
        checks.push(fail(name, describeThrown(err)));
      }
    }
  }
  for (const entry of staleEntries(applicable, used)) {
    checks.push(fail(`vendors/${entry.vendor}/known-failures`, `the entry "${entry.reason.slice(0, 80)}..." excused nothing in this run: the defect looks fixed, remove the entry from runners/vendors/known-failures.ts`));
  }
  return checks;
}

/** The lane as a conformance family (`aep conformance --vendors`); captures go to `captureDir`. */
export function vendorsFamily(captureDir: string | undefined = defaultCaptureDir()): Family {
  return {
    name: 'vendors',
    description: 'the real vendor CLIs (pinned in runners/vendors/versions.json) against scripted model servers, hooks into the adapters',
    detect: () => true,
    run: ({ implementation, logger }) => runLane({ implementation, log: (l) => logger.info(l), ...(captureDir ? { captureDir } : {}) }),
  };
}

/** Default capture folder: reports/vendors in the clone (ignored by git). */
export function defaultCaptureDir(): string {
  return join(projectRoot(), 'reports', 'vendors');
}
