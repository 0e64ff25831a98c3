/**
 * The real-vendors lane's captures, replayed by the pure `mappings` family: every payload under
 * `vendors/<vendor>-<version>/<scenario>/NN-<HookEvent>.json` (written by runners/vendors, the
 * exact bytes a real vendor binary sent) goes through that vendor's pure mapper: `mapHook` for
 * hook vendors, `mapMoment` for the plugin moments of OpenCode/Kilo Code (`NN-<kind>.json`, the
 * kind's dots as `_`), `mapEvent` for pi's extension events (`NN-<event name>.json`). Checks
 * `mappings/vendors/<vendor>-<version>/<scenario>/<file>`: the payload is the hook its name says,
 * the mapper neither throws nor returns something other than null, `{type, data}` or an array of
 * them, and each event it maps to is a registered type (or an `x.` extension) whose payload is valid.
 * Each check carries the adapter it exercises (`integration`). Releases of vendors with no adapter
 * here are named in one progress line.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { renderIssue } from '../../../impl/core/issue.js';
import { validatePayload } from '../../../impl/core/payload.js';
import { lookupType } from '../../../spec/registry.js';
import { judgeNow, later } from '../check.js';
import { EARLIER_NAMES } from '../check-meta.js';
import type { Check, Logger, SyncCase } from '../types.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function dirs(path: string): string[] {
  try {
    return readdirSync(path).filter((n) => statSync(join(path, n)).isDirectory()).sort();
  } catch {
    return [];
  }
}

/** Earlier lane vendor names of an adapter (captures made when the lane said `gemini` for `gemini-cli`). */
export const CAPTURE_ADAPTERS: Readonly<Record<string, string>> = EARLIER_NAMES;

/** The adapter a release folder's captures belong to (its manifest's `vendor`, else the name before the version). */
function vendorOf(releaseDir: string, name: string): string {
  const vendor = releaseVendor(releaseDir, name);
  return CAPTURE_ADAPTERS[vendor] ?? vendor;
}

function releaseVendor(releaseDir: string, name: string): string {
  try {
    const manifest: unknown = JSON.parse(readFileSync(join(releaseDir, 'manifest.json'), 'utf8'));
    if (isObject(manifest) && typeof manifest.vendor === 'string') return manifest.vendor;
  } catch {
    // no manifest: fall back to the folder name
  }
  return name.replace(/-\d[^/]*$/, '');
}

export type CaptureShape = 'hook' | 'moment' | 'event';

/** What a capture of `shape` says it is (the name its file carries, dots as `_`). */
function nameOf(input: Record<string, unknown>, shape: CaptureShape): { field: string; value: unknown } {
  if (shape === 'moment') return { field: 'kind', value: input.kind };
  if (shape === 'event') return { field: 'event.type', value: isObject(input.event) ? input.event.type : undefined };
  return { field: 'hook_event_name', value: input.hook_event_name };
}

/** One capture's verdict: null when it maps cleanly. */
export function replayCapture(file: string, text: string, map: (input: Record<string, unknown>) => unknown, shape: CaptureShape = 'hook'): string | null {
  const event = /^\d+-(.+)\.json$/.exec(file)?.[1];
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    return 'the capture is not JSON';
  }
  if (!isObject(input)) return 'the capture is not a JSON object';
  const named = nameOf(input, shape);
  const said = typeof named.value === 'string' ? named.value.replace(/[^A-Za-z0-9_-]/g, '_') : named.value;
  // A hook capture that does not name itself (Cline names its hooks by `hookName`) is taken as its file name says.
  if (event !== undefined && !(shape === 'hook' && named.value === undefined) && said !== event) return `the capture's ${named.field} is ${JSON.stringify(named.value)}, its file name says ${event}`;
  const mapped = map(input);
  if (mapped === null) return null;
  // Multi-event mappers (Cline, Hermes) return an array of {type, data}.
  const list: unknown[] = Array.isArray(mapped) ? mapped : [mapped];
  const problems: string[] = [];
  for (const one of list) {
    if (!isObject(one) || typeof one.type !== 'string' || !isObject(one.data)) return `the mapper returned ${JSON.stringify(mapped)}, expected null, {type, data} or an array of them`;
    if (!one.type.startsWith('x.') && !lookupType(one.type)) return `the mapper emitted ${one.type}, which is neither a registered type nor an x. extension`;
    const issues = validatePayload(one.type, one.data);
    if (issues.length > 0) problems.push(`${one.type}: ${issues.map(renderIssue).join('; ')}`);
  }
  return problems.length === 0 ? null : problems.join(' | ');
}

type CaptureMappers = Readonly<Record<string, { mapHook?(input: Record<string, unknown>): unknown; mapMoment?(input: Record<string, unknown>): unknown; mapEvent?(input: Record<string, unknown>, opts?: { deltas?: boolean }): unknown }>>;

/** Replay every capture under `corpusDir/vendors` whose vendor has a mapper, judged now. */
export function vendorCaptureChecks(corpusDir: string, mappers: CaptureMappers, logger: Logger): Check[] {
  return judgeNow(vendorCaptureCases(corpusDir, mappers, logger));
}

/** Every capture under `corpusDir/vendors` whose vendor has a mapper, named; its replay is the case's judgement. */
export function vendorCaptureCases(
  corpusDir: string,
  mappers: CaptureMappers,
  logger: Logger,
): SyncCase[] {
  const root = join(corpusDir, 'vendors');
  const checks: SyncCase[] = [];
  const unrun: string[] = [];
  for (const release of dirs(root)) {
    const releaseDir = join(root, release);
    const adapter = vendorOf(releaseDir, release);
    const m = Object.prototype.hasOwnProperty.call(mappers, adapter) ? mappers[adapter] : undefined;
    const mapEvent = m?.mapEvent;
    const replay: { shape: CaptureShape; map: (input: Record<string, unknown>) => unknown } | undefined = m?.mapHook
      ? { shape: 'hook', map: m.mapHook }
      : m?.mapMoment
        ? { shape: 'moment', map: m.mapMoment }
        : mapEvent
          ? { shape: 'event', map: (i) => mapEvent(i, { deltas: i.deltas === true }) }
          : undefined;
    if (!replay) {
      unrun.push(release);
      continue;
    }
    for (const scenario of dirs(releaseDir)) {
      const files = readdirSync(join(releaseDir, scenario)).filter((f) => f.endsWith('.json')).sort();
      for (const file of files) {
        // Attributed to the adapter whose mapper replays it (the check name's `vendors` segment is a folder, not an integration).
        const text = readFileSync(join(releaseDir, scenario, file), 'utf8');
        const c = later(`mappings/vendors/${release}/${scenario}/${file}`, () => replayCapture(file, text, replay.map, replay.shape), text);
        checks.push({ name: c.name, judge: () => ({ ...c.judge(), integration: adapter }) });
      }
    }
  }
  if (unrun.length > 0) logger.info(`mappings: vendor captures not replayed: ${unrun.join(', ')} (this implementation has no adapter for these vendors yet)`);
  return checks;
}
