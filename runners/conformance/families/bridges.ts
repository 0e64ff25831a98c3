/**
 * bridge-mappings (AEP-0002 Annex A, the inbound bridges): every pinned entry of the bridges'
 * mapping files through that bridge's pure mapper, compared on `{type, data, subject?, step?}`
 * as canonical JSON (null = deliberately nothing; arrays compare element by element).
 *
 * Sections read, per file shape:
 * - `records` + `unknown` (`codex-otel`, `vscode-otel`): `{input:{resource, attributes},
 *   companion, primary}`, through `mapRecord(input, {mode})`; checks `<source>/<label> (<mode>)`;
 * - the entry sections `hooks`, `moments`, `events`, `frames` (whichever the file uses) +
 *   `fallback`: `{input, expected, deltas_expected?}` through the source's entry mapper whatever
 *   the section is called: `mapMoment` for `acp` (the delta fork with `{deltas: true, ceiling:
 *   'redacted'}`), `mapEvent` for `openhands` and `agui` (the delta fork with `{deltas: true}`);
 *   checks `<source>/<label>` and `<label> (deltas)`;
 * - `status_transitions` (`openhands`): `{prev, next, expected[]}` through `statusMoments`;
 * - `sse_modes.modes` (any file; `opencode*` / `kilocode*`): `{input?, companion, primary}`
 *   through `applyMode(event, mode)`, the input taken from the entry or from `moments[label]`;
 * - `ws_modes.modes` (any file; `kimi-code*`): `{input, companion, primary}` the same way.
 * Checks are named `bridge-mappings/<source>/<label>[ (<variant>)]` and carry the bridge they
 * exercise (`integration`, bridge-sources.ts). Another section of a bridge's own file is one skip
 * check naming it; a bridge's file that pins no case is one failed check.
 */
import { readJsonFixture, FixtureError } from '../fixtures.js';
import { attributeCases, fail, judgeNow, known, later, skip } from '../check.js';
import { CORE } from '../check-meta.js';
import { BRIDGE_OF_MODE_POLICY, BRIDGE_SECTIONS, ENTRY_SECTIONS, bridgeOfSource } from './bridge-sources.js';
import { plannedFamily } from '../planned.js';
import type { Check, Family, SyncCase } from '../types.js';
import { comparePin, mappingSources, pinShape } from './mappings.js';
import { BRIDGE_INTEGRATIONS } from '../../../impl/integrations/registry.js';
import type { BridgeMappers } from '../../../impl/integrations/mappers.js';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export type { BridgeMappers } from '../../../impl/integrations/mappers.js';

/** Each bridge's `mappers.ts`, loaded through the registry (`bridgeMappers()`), merged. */
const PIECES = (await Promise.all(BRIDGE_INTEGRATIONS.map((i) => i.bridgeMappers()))).filter((p): p is Partial<BridgeMappers> => p !== undefined);
const one = <K extends 'acpMoment' | 'statusMoments'>(key: K): BridgeMappers[K] =>
  PIECES.find((p) => p[key] !== undefined)?.[key] ?? ((() => { throw new Error(`no bridge in the registry gives ${key}`); }) as unknown as BridgeMappers[K]);

export const BRIDGE_MAPPERS: BridgeMappers = {
  otelRecords: Object.assign({}, ...PIECES.map((p) => p.otelRecords ?? {})) as BridgeMappers['otelRecords'],
  acpMoment: one('acpMoment'),
  eventMappers: Object.assign({}, ...PIECES.map((p) => p.eventMappers ?? {})) as BridgeMappers['eventMappers'],
  statusMoments: one('statusMoments'),
  modePolicies: Object.assign({}, ...PIECES.map((p) => p.modePolicies ?? {})) as BridgeMappers['modePolicies'],
};

const shapeOf = (v: unknown): unknown => (Array.isArray(v) ? v.map(pinShape) : pinShape(v));
const same = (expected: unknown, actual: unknown): string | null => comparePin(shapeOf(expected), shapeOf(actual));

function entries(rel: string, section: string, value: unknown): [string, Obj][] {
  if (!isObject(value)) throw new FixtureError(`${rel}: "${section}" must be an object keyed by case label`);
  const out: [string, Obj][] = [];
  for (const [label, entry] of Object.entries(value)) {
    if (label.startsWith('$')) continue;
    if (!isObject(entry)) throw new FixtureError(`${rel}: ${section}.${label} must be an object`);
    out.push([label, entry]);
  }
  return out;
}

function need(rel: string, where: string, entry: Obj, ...keys: string[]): void {
  for (const k of keys) if (!(k in entry)) throw new FixtureError(`${rel}: ${where} needs "${k}"`);
}

/** The mode policy for a file, and the bridge it belongs to: the longest vendor key its name starts with. */
function policyFor(m: BridgeMappers, source: string): { policy: (e: unknown, mode: 'companion' | 'primary') => unknown; bridge: string } | undefined {
  const key = Object.keys(m.modePolicies).filter((k) => source === k || source.startsWith(`${k}-`)).sort((a, b) => b.length - a.length)[0];
  return key ? { policy: m.modePolicies[key]!, bridge: BRIDGE_OF_MODE_POLICY[key] ?? CORE } : undefined;
}

type EntryMapper = (input: unknown, opts: { deltas?: boolean }) => unknown;

/** The mapper every entry section (hooks, moments, events, frames) of a bridge source goes through, whatever the section is called. */
function entryMapperFor(m: BridgeMappers, source: string): EntryMapper | undefined {
  if (source === 'acp' || source.startsWith('acp-')) return (input, o) => m.acpMoment(input, o.deltas ? { deltas: true, ceiling: 'redacted' } : {});
  const eventMapper = Object.prototype.hasOwnProperty.call(m.eventMappers, source) ? m.eventMappers[source] : undefined;
  return eventMapper ? (input, o) => eventMapper(input as Obj, o.deltas ? { deltas: true } : {}) : undefined;
}

/** Sections a bridge file may hold besides its entry sections. */
const OTHER_SECTIONS = ['identity', 'fallback', 'records', 'unknown', 'status_transitions', ...BRIDGE_SECTIONS];

/**
 * Every check of one mapping file (empty when the file holds no bridge section), each attributed
 * to the bridge it exercises: the source's bridge, or for `sse_modes`/`ws_modes` the bridge whose
 * mode policy runs (an adapter's file may pin its SSE bridge's policy).
 */
export function bridgeChecks(m: BridgeMappers, source: string, file: Obj): Check[] {
  return judgeNow(bridgeCases(m, source, file));
}

/** {@link bridgeChecks}, named now and judged when the run calls each case's `judge()`. */
export function bridgeCases(m: BridgeMappers, source: string, file: Obj): SyncCase[] {
  const rel = `mappings/${source}.json`;
  const name = (label: string, variant?: string): string => `bridge-mappings/${source}/${label}${variant ? ` (${variant})` : ''}`;
  const bridge = bridgeOfSource(source);
  const own: SyncCase[] = [];
  const otel = Object.prototype.hasOwnProperty.call(m.otelRecords, source) ? m.otelRecords[source] : undefined;
  if (otel && file.records !== undefined) {
    const all = entries(rel, 'records', file.records);
    if (isObject(file.unknown)) all.push(['unknown', file.unknown]);
    for (const [label, e] of all) {
      need(rel, label, e, 'input', 'companion', 'primary');
      for (const mode of ['companion', 'primary'] as const) own.push(later(name(label, mode), () => same(e[mode], otel(e.input, { mode })), { input: e.input, expected: e[mode] }));
    }
  }
  const entryMapper = entryMapperFor(m, source);
  if (entryMapper) {
    const all: [string, Obj][] = [];
    for (const section of ENTRY_SECTIONS) if (file[section] !== undefined) all.push(...entries(rel, section, file[section]));
    if (isObject(file.fallback)) all.push(['fallback', file.fallback]);
    for (const [label, e] of all) {
      need(rel, label, e, 'input', 'expected');
      own.push(later(name(label), () => same(e.expected, entryMapper(e.input, {})), { input: e.input, expected: e.expected }));
      if ('deltas_expected' in e) own.push(later(name(label, 'deltas'), () => same(e.deltas_expected, entryMapper(e.input, { deltas: true })), { input: e.input, expected: e.deltas_expected }));
    }
  }
  if (file.status_transitions !== undefined) {
    for (const [label, e] of entries(rel, 'status_transitions', file.status_transitions)) {
      need(rel, `status_transitions.${label}`, e, 'prev', 'next', 'expected');
      own.push(later(name(`status/${label}`), () => same(e.expected, m.statusMoments(e.prev as string | null, e.next as string)), e));
    }
  }
  const checks: SyncCase[] = bridge ? attributeCases(own, bridge) : own;
  // A bridge's own file: a section no reader above handles is reported, not dropped.
  if (bridge) {
    for (const key of Object.keys(file)) {
      if (key.startsWith('$') || ENTRY_SECTIONS.includes(key) || OTHER_SECTIONS.includes(key)) continue;
      checks.push(known({ ...skip(name(key), `skipped: ${rel} section "${key}" has no reader in this runner`), integration: bridge }));
    }
  }
  for (const section of BRIDGE_SECTIONS) {
    const block = file[section];
    if (block === undefined) continue;
    if (!isObject(block)) throw new FixtureError(`${rel}: "${section}" must be an object with "modes"`);
    const found = policyFor(m, source);
    const moments = isObject(file.moments) ? file.moments : {};
    const modeChecks: SyncCase[] = [];
    for (const [label, e] of entries(rel, `${section}.modes`, block.modes)) {
      need(rel, `${section}.modes.${label}`, e, 'companion', 'primary');
      const input = 'input' in e ? e.input : isObject(moments[label]) ? (moments[label] as Obj).input : undefined;
      for (const mode of ['companion', 'primary'] as const) {
        modeChecks.push(later(name(`${section}/${label}`, mode), () => {
          if (!found) return `no ${section} mode policy for the source "${source}"`;
          if (input === undefined) return `${section}.modes.${label} has no "input" and "moments.${label}" has none either`;
          return same(e[mode], found.policy(input, mode));
        }, { input, expected: e[mode] }));
      }
    }
    checks.push(...(found ? attributeCases(modeChecks, found.bridge) : modeChecks));
  }
  return checks;
}

/** Whether a mapping file holds anything this family reads: it is a bridge's own file, or it pins a mode policy. */
export function readsFile(source: string, file: unknown): boolean {
  return bridgeOfSource(source) !== undefined || (isObject(file) && BRIDGE_SECTIONS.some((s) => file[s] !== undefined));
}

function readFile(corpusDir: string, source: string): Obj {
  const file = readJsonFixture(corpusDir, `mappings/${source}.json`);
  if (!isObject(file)) throw new FixtureError(`mappings/${source}.json: expected a JSON object`);
  return file;
}

export function bridgesFamily(m: BridgeMappers): Family {
  return plannedFamily({
    name: 'bridge-mappings',
    description: 'AEP-0002 Annex A pins of the inbound bridges: OTel records, ACP moments, OpenHands and AG-UI events, status transitions, SSE/WS modes',
    // Selected only when the corpus holds a file this family reads (a corpus of adapter files alone does not select it).
    detect: (dir) => {
      try {
        return mappingSources(dir).some((source) => bridgeOfSource(source) !== undefined || readsFile(source, readJsonFixture(dir, `mappings/${source}.json`)));
      } catch {
        return false;
      }
    },
    plan({ corpusDir }) {
      const checks: SyncCase[] = [];
      for (const source of mappingSources(corpusDir)) {
        const file = readFile(corpusDir, source);
        if (!readsFile(source, file)) continue;
        const own = bridgeCases(m, source, file);
        // A file this family reads that pins nothing is a failure of that file, not of the family.
        if (own.length === 0) checks.push(known({ ...fail(`bridge-mappings/${source}`, `mappings/${source}.json holds no case this family reads: an empty mapping file proves nothing`), integration: bridgeOfSource(source) ?? CORE }));
        else checks.push(...own);
      }
      return checks;
    },
  });
}

export const family: Family = bridgesFamily(BRIDGE_MAPPERS);
