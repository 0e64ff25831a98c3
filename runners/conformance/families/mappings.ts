/**
 * mappings (AEP-0002 Annex A): every entry of `mappings/<source>.json` goes through that
 * source's pure mapper and must equal its pin, compared on `{type, data, subject?, step?}` as
 * canonical JSON (`null` = the mapping deliberately emits nothing).
 *
 * Sections read from a mapping file:
 * - `hooks`: `{<label>: {input, expected}}`, through `mapHook(input)`; check `mappings/<source>/<label>`;
 * - `fallback`: `{input, expected}`, the same way; check `mappings/<source>/fallback`;
 * - `ask_user_question` / `elicitation`: `{input, expected_data, expected_data_metadata}`, the two
 *   form mappings assembled as `{kind:"form", ...mapping, respond_via:["control"]}`, at redacted+
 *   and at metadata; checks `mappings/<source>/<section>` and `... (metadata)`;
 * - `moments` (plugin-shaped sources): `{<label>: {input, expected}}`, through `mapMoment(input)`;
 *   `fallback` then goes through `mapMoment` too;
 * - `todos`: `{input: {prev, next}, expected: [...]}` (or labeled entries of that shape), through
 *   `diffTodos(prev, next)`, each result compared as `{type, data, subject?}`; check `mappings/<source>/todos[/<label>]`;
 * - `events` (event-shaped sources): `{<label>: {input, expected, deltas_expected?}}`, through
 *   `mapEvent(input)` and, for `deltas_expected`, `mapEvent(input, {deltas: true})` (check `... (deltas)`);
 *   `fallback` then goes through `mapEvent`.
 * `$`-prefixed members are comments and `identity` is read by the live runner only. Files of
 * sources this implementation has no adapter for, and sections it has no reader for, produce no
 * checks: they are listed in one progress line each, saying why.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from '../../../impl/core/canonical.js';
import { ADAPTER_INTEGRATIONS } from '../../../impl/integrations/registry.js';
import type { SourceMappers } from '../../../impl/integrations/mappers.js';
import { attributeCases, fail, known, later, skip } from '../check.js';
import { CORE } from '../check-meta.js';
import { jsonDiff } from '../compare.js';
import { FixtureError, filesExist, readJsonFixture } from '../fixtures.js';
import { plannedFamily } from '../planned.js';
import type { Check, Family, Logger, SyncCase } from '../types.js';
import { vendorCaptureCases } from './vendor-captures.js';
import { BRIDGE_SECTIONS, bridgeOfSource } from './bridge-sources.js';

export type { SourceMappers } from '../../../impl/integrations/mappers.js';

/**
 * This implementation's adapters, keyed by mapping file name (`<source>.json`): each adapter's
 * `mappers.ts`, loaded through the registry (impl/integrations/registry.ts `mappers()`).
 */
export const ADAPTER_MAPPERS: Readonly<Record<string, SourceMappers>> = Object.fromEntries(
  (await Promise.all(ADAPTER_INTEGRATIONS.map(async (i) => [i.name, await i.mappers()] as const))).filter((e): e is readonly [string, SourceMappers] => e[1] !== undefined),
);

/** One pinned hook mapping. */
export interface HookEntry {
  /** Check-name suffix: the case label, or `fallback`. */
  name: string;
  input: Record<string, unknown>;
  /** The pin: `{type, data, subject?, step?}` or null, or an array of those (array mappers). */
  expected: unknown;
  /** The hook name, for sources whose payloads do not carry it (the entry's `hook` member). */
  hook?: string;
  /** The daemon's join result the entry is mapped with (the entry's `join` member: Antigravity's `{name}`). */
  join?: unknown;
}

/** One pinned form mapping (`ask_user_question` or `elicitation`). */
export interface FormEntry {
  section: 'ask_user_question' | 'elicitation';
  input: Record<string, unknown>;
  expectedData: unknown;
  expectedDataMetadata: unknown;
}

/** One pinned todo snapshot diff. */
export interface TodoEntry {
  /** Check-name suffix: `todos`, or `todos/<label>`. */
  name: string;
  prev: unknown;
  next: unknown;
  expected: unknown[];
}

/** One pinned bus event mapping, with its deltas fork when the entry has one. */
export interface EventEntry extends HookEntry {
  /** The pin under the deltas opt-in; undefined when the entry does not fork. */
  deltasExpected?: unknown;
}

/** A mapping file, read: where `run.ts` and the live runner both start. */
export interface MappingFile {
  source: string;
  identity: { session_from?: string; run_from?: string };
  hooks: HookEntry[];
  forms: FormEntry[];
  /** `moments` entries (and the `fallback` of a file that has moments). */
  moments: EventEntry[];
  todos: TodoEntry[];
  /** `events` and `frames` entries (and the `fallback` of a file that has either). */
  events: EventEntry[];
  /** Sections present that no reader handles. */
  unread: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The mapping files (`<source>.json`) present in `corpusDir/mappings`, sorted; [] when none. */
export function mappingSources(corpusDir: string): string[] {
  try {
    return readdirSync(join(corpusDir, 'mappings')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
  } catch {
    return [];
  }
}

function hookEntry(rel: string, name: string, entry: unknown): HookEntry {
  if (!isObject(entry) || !isObject(entry.input) || !('expected' in entry)) throw new FixtureError(`${rel}: entry "${name}" needs an "input" object and an "expected" pin (or null)`);
  const out: HookEntry = { name, input: entry.input, expected: entry.expected };
  if (typeof entry.hook === 'string') out.hook = entry.hook;
  if (entry.join !== undefined) out.join = entry.join;
  return out;
}

/** Read `mappings/<source>.json`. Throws FixtureError on a malformed file. */
export function readMappingFile(corpusDir: string, source: string): MappingFile {
  const rel = `mappings/${source}.json`;
  const file = readJsonFixture(corpusDir, rel);
  if (!isObject(file)) throw new FixtureError(`${rel}: expected a JSON object`);
  const out: MappingFile = { source, identity: isObject(file.identity) ? (file.identity as MappingFile['identity']) : {}, hooks: [], forms: [], moments: [], todos: [], events: [], unread: [] };
  for (const [key, value] of Object.entries(file)) {
    if (key.startsWith('$') || key === 'identity') continue;
    if (key === 'moments' || key === 'events' || key === 'frames') {
      if (!isObject(value)) throw new FixtureError(`${rel}: "${key}" must be an object keyed by case label`);
      for (const [label, entry] of Object.entries(value)) {
        if (label.startsWith('$')) continue;
        const read = hookEntry(rel, label, entry);
        const withFork: EventEntry = isObject(entry) && 'deltas_expected' in entry ? { ...read, deltasExpected: entry.deltas_expected } : read;
        (key === 'moments' ? out.moments : out.events).push(withFork);
      }
    } else if (key === 'todos') {
      if (!isObject(value)) throw new FixtureError(`${rel}: "todos" must be {input: {prev, next}, expected: [...]} or labeled entries of that shape`);
      const entries = 'input' in value ? [['', value] as const] : Object.entries(value).filter(([l]) => !l.startsWith('$'));
      for (const [label, entry] of entries) {
        if (!isObject(entry) || !isObject(entry.input) || !Array.isArray(entry.expected)) throw new FixtureError(`${rel}: todos entry "${label || 'todos'}" needs "input": {prev, next} and an "expected" array`);
        out.todos.push({ name: label ? `todos/${label}` : 'todos', prev: entry.input.prev, next: entry.input.next, expected: entry.expected });
      }
    } else if (key === 'fallback' && (isObject(file.moments) || isObject(file.events) || isObject(file.frames))) {
      (isObject(file.moments) ? out.moments : out.events).push(hookEntry(rel, 'fallback', value));
    } else if (key === 'hooks') {
      if (!isObject(value)) throw new FixtureError(`${rel}: "hooks" must be an object keyed by case label`);
      for (const [label, entry] of Object.entries(value)) if (!label.startsWith('$')) out.hooks.push(hookEntry(rel, label, entry));
    } else if (key === 'fallback') {
      out.hooks.push(hookEntry(rel, 'fallback', value));
    } else if (key === 'ask_user_question' || key === 'elicitation') {
      if (!isObject(value) || !isObject(value.input) || !('expected_data' in value) || !('expected_data_metadata' in value)) {
        throw new FixtureError(`${rel}: "${key}" needs "input", "expected_data" and "expected_data_metadata"`);
      }
      out.forms.push({ section: key, input: value.input, expectedData: value.expected_data, expectedDataMetadata: value.expected_data_metadata });
    } else {
      out.unread.push(key);
    }
  }
  return out;
}

/** `{type, data, subject?, step?}` of a mapping result or pin (each element of an array); null stays null. */
export function pinShape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pinShape);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = { type: value.type, data: value.data };
  if (value.subject !== undefined) out.subject = value.subject;
  if (value.step !== undefined) out.step = value.step;
  return out;
}

/** null when `actual` equals `expected` as canonical JSON, else where they differ. */
export function comparePin(expected: unknown, actual: unknown): string | null {
  if (actual === undefined) return `the mapper returned undefined; expected ${JSON.stringify(expected)}`;
  if (canonicalJson(expected) === canonicalJson(actual)) return null;
  return jsonDiff(expected, actual) ?? `expected ${canonicalJson(expected)}, got ${canonicalJson(actual)}`;
}

/** `{kind:"form", ...mapping, respond_via:["control"]}`, the attention.requested data of a form. */
export function formData(mapping: unknown): unknown {
  return isObject(mapping) ? { kind: 'form', ...mapping, respond_via: ['control'] } : mapping;
}

function formCases(source: string, agent: string, mappers: SourceMappers, form: FormEntry): SyncCase[] {
  const run = (contentOk: boolean): unknown => {
    const opts = { agent, contentOk };
    if (form.section === 'ask_user_question') {
      if (!mappers.mapAskUserQuestion) throw new Error(`the ${source} adapter has no AskUserQuestion form mapper`);
      return formData(mappers.mapAskUserQuestion(form.input.questions, opts));
    }
    if (!mappers.mapElicitation) throw new Error(`the ${source} adapter has no elicitation form mapper`);
    return formData(mappers.mapElicitation(form.input.message, form.input.requestedSchema ?? form.input.requested_schema, opts));
  };
  return [
    later(`mappings/${source}/${form.section}`, () => comparePin(form.expectedData, run(true)), { input: form.input, expected: form.expectedData }),
    later(`mappings/${source}/${form.section} (metadata)`, () => comparePin(form.expectedDataMetadata, run(false)), { input: form.input, expected: form.expectedDataMetadata }),
  ];
}

/** One line naming what a corpus holds that this implementation does not run, and why. */
export function reportUnrun(logger: Logger, sources: string[], implemented: readonly string[]): void {
  const skipped = sources.filter((s) => !implemented.includes(s) && bridgeOfSource(s) === undefined);
  if (skipped.length > 0) logger.info(`mappings: not run: ${skipped.map((s) => `${s}.json`).join(', ')} (this implementation has no adapter for these sources)`);
}

/** One skip check per mapping file with no adapter here: the report says what it did not run. */
export function unrunChecks(sources: readonly string[], implemented: readonly string[]): Check[] {
  // No integration of ours is exercised: the skip is filed under `core`, never under the foreign source's name.
  return sources.filter((s) => !implemented.includes(s) && bridgeOfSource(s) === undefined).map((s) => ({ ...skip(`mappings/${s}`, `skipped: mappings/${s}.json has no adapter in this implementation`), integration: CORE }));
}

type EntryCall = (entry: HookEntry, deltas: boolean) => unknown;

/** What a pinned entry's check reads: its input, the pin, and the hook name and join table when it has them. */
function entryFixture(entry: HookEntry, expected: unknown): unknown {
  return { input: entry.input, expected, hook: entry.hook, join: entry.join };
}

/**
 * The mapper an entry section goes through: the one its layout names (`hooks` → `mapHook`,
 * `moments` → `mapMoment`, `events`/`frames` → `mapEvent`), else the source's only entry mapper,
 * whatever the section is called (the standard pins pi's `{session, event}` inputs under
 * `moments`; they are exactly what its `mapEvent` takes). The deltas fork needs a mapper with the
 * opt-in (`mapEvent`).
 */
export function entryMapper(source: string, m: SourceMappers, section: 'hooks' | 'moments' | 'events'): EntryCall {
  const { mapHook, mapMoment, mapEvent } = m;
  const hook: EntryCall | undefined = mapHook && ((e, deltas) => (deltas ? noDeltas(source, 'hook') : mapHook(e.input, e)));
  const moment: EntryCall | undefined = mapMoment && ((e, deltas) => (deltas ? noDeltas(source, 'moment') : mapMoment(e.input)));
  const event: EntryCall | undefined = mapEvent && ((e, deltas) => (deltas ? mapEvent(e.input, { deltas: true }) : mapEvent(e.input)));
  const named = section === 'hooks' ? hook : section === 'moments' ? moment : event;
  const chosen = named ?? hook ?? moment ?? event;
  if (!chosen) return () => {
    throw new Error(`the ${source} adapter has no hook, moment or event mapper for its "${section}" entries`);
  };
  return chosen;
}

function noDeltas(source: string, what: string): never {
  throw new Error(`the ${source} adapter's ${what} mapper has no deltas opt-in, but the entry pins a "deltas_expected" fork`);
}

/** The family over a mapper table; the default instance uses this implementation's adapters. */
export function mappingsFamily(mappers: Readonly<Record<string, SourceMappers>>): Family {
  const implemented = Object.keys(mappers);
  return plannedFamily({
    name: 'mappings',
    description: "AEP-0002 Annex A pins: every mapping entry through the adapter's pure mapper (sources with an adapter here)",
    detect: (dir) => implemented.some((s) => filesExist(dir, `mappings/${s}.json`)),
    plan({ corpusDir, logger }) {
      const sources = mappingSources(corpusDir);
      reportUnrun(logger, sources, implemented);
      const checks: SyncCase[] = unrunChecks(sources, implemented).map(known);
      for (const source of sources.filter((s) => implemented.includes(s))) {
        const file = readMappingFile(corpusDir, source);
        // Sections the bridges family reads (bridge-sources.ts) are not this family's to skip.
        const unread = file.unread.filter((s) => !BRIDGE_SECTIONS.includes(s));
        if (unread.length > 0) logger.info(`mappings: ${source}.json: section(s) ${unread.map((s) => `"${s}"`).join(', ')} not run (no reader for them in this runner)`);
        for (const section of unread) checks.push(known({ ...skip(`mappings/${source}/${section}`, `skipped: mappings/${source}.json section "${section}" has no reader in this runner`), integration: source }));
        const m = mappers[source]!;
        const call = <F>(fn: F | undefined, what: string): F => {
          if (!fn) throw new Error(`the ${source} adapter has no ${what} mapper`);
          return fn;
        };
        const own: SyncCase[] = [];
        for (const [section, list] of [['hooks', file.hooks], ['moments', file.moments], ['events', file.events]] as const) {
          const map = entryMapper(source, m, section);
          for (const entry of list) {
            own.push(later(`mappings/${source}/${entry.name}`, () => comparePin(pinShape(entry.expected), pinShape(map(entry, false))), entryFixture(entry, entry.expected)));
            const fork = (entry as EventEntry).deltasExpected;
            if (fork !== undefined) own.push(later(`mappings/${source}/${entry.name} (deltas)`, () => comparePin(pinShape(fork), pinShape(map(entry, true))), entryFixture(entry, fork)));
          }
        }
        for (const entry of file.todos) {
          own.push(later(`mappings/${source}/${entry.name}`, () => {
            const got = call(m.diffTodos, 'todo diff')(entry.prev, entry.next);
            return comparePin(entry.expected.map(pinShape), Array.isArray(got) ? got.map(pinShape) : got);
          }, entry));
        }
        for (const form of file.forms) own.push(...formCases(source, source, m, form));
        // An adapter's file with no case this family reads (sections the bridges family reads aside) proves nothing: it fails, alone.
        const bridgeOnly = BRIDGE_SECTIONS.some((s) => file.unread.includes(s));
        if (own.length === 0 && unread.length === 0 && !bridgeOnly) own.push(known(fail(`mappings/${source}`, `mappings/${source}.json holds no case: an empty mapping file proves nothing`)));
        checks.push(...attributeCases(own, source));
      }
      // The real vendors' captured payloads (vendors/<vendor>-<version>/, runners/vendors): vendor-captures.ts.
      checks.push(...vendorCaptureCases(corpusDir, mappers, logger));
      return checks;
    },
  });
}

export const family: Family = mappingsFamily(ADAPTER_MAPPERS);
