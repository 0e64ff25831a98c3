/**
 * Captured hook payloads as dated fixtures: `<dir>/<vendor>-<version>/<scenario>/NN-<HookEvent>.json`
 * (the exact bytes the vendor sent, with the run's temporary root rewritten to `/aep-run`), and
 * `<dir>/<vendor>-<version>/manifest.json` naming the release, the capture date, the mode and
 * each scenario's files. `normalizePayload` and `fixtureNames` are pure.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HookRecord } from './recorder.js';
import type { Pin } from './versions.js';
import { ensureDir } from '../../impl/adapter-kit/ensure-dir.js';

export const RUN_ROOT_PLACEHOLDER = '/aep-run';

/** The payload with every spelling of the run root (a path, and the vendors' dash-encoded project folder names) rewritten. */
export function normalizePayload(payload: string, root: string): string {
  const dashed = root.replace(/[^A-Za-z0-9]/g, '-');
  const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // One pass, so a replacement is never matched again.
  return payload.replace(new RegExp(`${escape(root)}|${escape(dashed)}`, 'g'), (m) => (m === root ? RUN_ROOT_PLACEHOLDER : RUN_ROOT_PLACEHOLDER.replace(/[^A-Za-z0-9]/g, '-')));
}

/** `01-SessionStart.json`, `02-UserPromptSubmit.json`, ... in firing order. */
export function fixtureNames(hooks: readonly HookRecord[]): string[] {
  return hooks.map((h, i) => `${String(i + 1).padStart(2, '0')}-${h.event.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
}

export interface Manifest {
  $comment: string;
  vendor: string;
  package: string;
  version: string;
  /** Date (UTC, YYYY-MM-DD) of the latest capture in this folder. */
  captured: string;
  scenarios: Record<string, { mode: string; captured: string; files: string[] }>;
}

/** Write one scenario's capture and update the release's manifest; returns the scenario folder. */
export function writeCapture(dir: string, pin: Pin, scenario: string, mode: string, hooks: readonly HookRecord[], root: string, now: Date): string {
  const release = join(dir, `${pin.vendor}-${pin.version}`);
  const target = join(release, scenario);
  rmSync(target, { recursive: true, force: true });
  ensureDir(target);
  const names = fixtureNames(hooks);
  hooks.forEach((h, i) => writeFileSync(join(target, names[i]!), normalizePayload(h.payload, root)));
  const date = now.toISOString().slice(0, 10);
  const manifestPath = join(release, 'manifest.json');
  const manifest: Manifest = existsSync(manifestPath)
    ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest)
    : {
        $comment: 'Hook payloads the real vendor binary sent in the real-vendors lane (runners/vendors), one folder per scenario, NN-<HookEvent>.json in firing order, exact bytes except the run root rewritten to /aep-run. Replayed by the mappings family.',
        vendor: pin.vendor,
        package: pin.package,
        version: pin.version,
        captured: date,
        scenarios: {},
      };
  manifest.captured = date;
  manifest.scenarios[scenario] = { mode, captured: date, files: names };
  manifest.scenarios = Object.fromEntries(Object.entries(manifest.scenarios).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return target;
}
