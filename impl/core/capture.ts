/**
 * AEP-0001 §8.2 down-leveling at a hop (relay fan-out, re-emitter), driven by the payload
 * schemas' `x-aep-capture` annotations (AEP-0002 §5.1).
 *
 * Rules applied by `downlevel`, in order:
 *  1. `evcap = event.capture ?? "metadata"`. A ceiling at or above `evcap` leaves the event
 *     as it is (never up-level, §8.2b).
 *  2. The new level is the ceiling, except §8.2(e): a `redacted` ceiling over a `full` event
 *     lands on `metadata`, because a mechanical hop never mints the `redacted` provenance claim.
 *  3. At `none`, `data` is removed (envelope only).
 *  4. A type without a payload schema (vendor `x.*`, unknown types) loses `data` wholesale:
 *     the hop cannot tell content from structure, and dropping more is always legal.
 *  5. Every field whose annotation ranks above the new level is pruned, recursively through
 *     objects and array items. Unannotated members count as `metadata` (AEP-0002 §5.1 r4).
 *  6. Below `redacted`, the AEP-0002 §5.3 `[metadata*]` fields degrade structurally, since a
 *     hop has no source context to synthesize or classify them (AEP-0006 §Security):
 *     `attention.requested.prompt` becomes `"{agent} requests {kind}: {subject}"` (without
 *     `: {subject}` when there is none); `options[].label`, `fields[].label` and
 *     `fields[].choices[].label` become the item's `id`; `answer.values` on
 *     `attention.answered` and `control.attention.respond` keeps number and boolean entries only.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CAPTURE_ORDER, captureRank, isPlainObject, type AepEvent, type CaptureLevel } from './event.js';

/**
 * Capture annotations of every payload type: `type -> path -> minimum level`.
 *
 * A path names a payload member by its property names joined with `.`; the items of an array
 * are `<array path>[]`. Examples for `attention.requested`: `prompt`, `options`, `options[]`,
 * `options[].label`, `fields[].choices[].label`. Property names containing dots
 * (`gen_ai.evaluation.name`) are used verbatim, which stays unambiguous because lookups build
 * paths the same way. Only annotated members appear; a missing path means `metadata`.
 * A type present with an empty map has a schema and no gated field; an absent type has none.
 */
export type CaptureAnnotations = Readonly<Record<string, Readonly<Record<string, CaptureLevel>>>>;

/**
 * Read every `<type>.schema.json` in `schemaTypesDir` and collect its `x-aep-capture`
 * annotations. Follows `properties`, `items`, `prefixItems`, `allOf`/`anyOf`/`oneOf`,
 * `if`/`then`/`else` and local `$ref`s; when branches disagree on a path, the higher
 * (more restrictive) level wins.
 * @throws Error naming the folder or file when it is missing or not JSON.
 */
export function loadCaptureAnnotations(schemaTypesDir: string): CaptureAnnotations {
  if (!existsSync(schemaTypesDir)) throw new Error(`capture annotations: folder ${schemaTypesDir} does not exist`);
  const out: Record<string, Record<string, CaptureLevel>> = {};
  for (const file of readdirSync(schemaTypesDir).filter((f) => f.endsWith('.schema.json')).sort()) {
    let schema: unknown;
    try {
      schema = JSON.parse(readFileSync(join(schemaTypesDir, file), 'utf8'));
    } catch (err) {
      throw new Error(`capture annotations: ${join(schemaTypesDir, file)} is not valid JSON (${(err as Error).message})`);
    }
    out[file.slice(0, -'.schema.json'.length)] = annotationsOf(schema);
  }
  return out;
}

/** The annotations of one payload schema (the inner map of `CaptureAnnotations`). */
export function annotationsOf(schema: unknown): Record<string, CaptureLevel> {
  const paths: Record<string, CaptureLevel> = {};
  const record = (path: string, level: unknown): void => {
    if (typeof level !== 'string' || !(CAPTURE_ORDER as readonly string[]).includes(level)) return;
    const prev = paths[path];
    if (prev === undefined || captureRank(level as CaptureLevel) > captureRank(prev)) paths[path] = level as CaptureLevel;
  };
  const visit = (node: unknown, path: string, seen: ReadonlySet<unknown>): void => {
    if (!isPlainObject(node) || seen.has(node)) return;
    const within = new Set(seen).add(node);
    if (typeof node.$ref === 'string') visit(resolveRef(schema, node.$ref), path, within);
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
      if (Array.isArray(node[key])) for (const branch of node[key] as unknown[]) visit(branch, path, within);
    }
    for (const key of ['if', 'then', 'else'] as const) visit(node[key], path, within);
    if (isPlainObject(node.properties)) {
      for (const [name, child] of Object.entries(node.properties)) {
        const childPath = path === '' ? name : `${path}.${name}`;
        if (isPlainObject(child)) record(childPath, child['x-aep-capture']);
        visit(child, childPath, within);
      }
    }
    const itemSchemas = [node.items, ...(Array.isArray(node.prefixItems) ? node.prefixItems : [])];
    for (const items of itemSchemas) {
      if (!isPlainObject(items)) continue;
      record(`${path}[]`, items['x-aep-capture']);
      visit(items, `${path}[]`, within);
    }
  };
  visit(schema, '', new Set());
  return paths;
}

function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').filter((s) => s !== '')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = isPlainObject(node) ? node[key] : undefined;
  }
  return node;
}

/** Folder holding this repository's generated payload schemas, found from this module's own URL. */
export function projectSchemaTypesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('capture annotations: no package.json above this module; cannot locate spec/schemas/types');
    dir = parent;
  }
  return join(dir, 'spec', 'schemas', 'types');
}

let loaded: CaptureAnnotations | undefined;
function ours(): CaptureAnnotations {
  loaded ??= loadCaptureAnnotations(projectSchemaTypesDir());
  return loaded;
}

/**
 * The annotations of this project's own schemas (`spec/schemas/types`), read on first use
 * (any property access, `in`, or key listing) and then cached for the process lifetime.
 */
export const CAPTURE_ANNOTATIONS: CaptureAnnotations = new Proxy({} as CaptureAnnotations, {
  get: (_t, key) => (typeof key === 'string' ? ours()[key] : undefined),
  has: (_t, key) => typeof key === 'string' && key in ours(),
  ownKeys: () => Object.keys(ours()),
  getOwnPropertyDescriptor: (_t, key) =>
    typeof key === 'string' && key in ours() ? { value: ours()[key], enumerable: true, configurable: true, writable: false } : undefined,
});

/**
 * Down-level `event` to `ceiling` (see the module comment for the rules). Returns a new event
 * and never mutates its input; the result's `data` shares nothing with the input's.
 * An unrecognized `event.capture` is treated as `full` (fail closed).
 * @param annotations default `CAPTURE_ANNOTATIONS` (this project's schemas).
 * @throws RangeError when `ceiling` is not a capture level: reject it where it enters (e.g. at
 *   subscribe, as `invalid-filter`) rather than guessing.
 */
export function downlevel(event: AepEvent, ceiling: CaptureLevel, annotations: CaptureAnnotations = CAPTURE_ANNOTATIONS): AepEvent {
  if (!(CAPTURE_ORDER as readonly string[]).includes(ceiling)) {
    throw new RangeError(`downlevel: ceiling ${JSON.stringify(ceiling)} is not one of ${CAPTURE_ORDER.join(', ')}`);
  }
  const declared = event.capture ?? 'metadata';
  const evcap: CaptureLevel = (CAPTURE_ORDER as readonly string[]).includes(declared) ? declared : 'full';
  if (captureRank(ceiling) >= captureRank(evcap)) return { ...event, ...(event.data === undefined ? {} : { data: cloneJson(event.data) }) };

  const target: CaptureLevel = ceiling === 'redacted' && evcap === 'full' ? 'metadata' : ceiling;
  const { data, ...envelope } = event;
  const out: AepEvent = { ...envelope, capture: target };
  const typeAnnotations = Object.prototype.hasOwnProperty.call(annotations, event.type) ? annotations[event.type] : undefined;
  if (target === 'none' || !isPlainObject(data) || typeAnnotations === undefined) return out;

  const pruned = prune(data, '', typeAnnotations, captureRank(target));
  out.data = captureRank(target) < captureRank('redacted') ? degradeStarred(event, pruned) : pruned;
  return out;
}

function prune(obj: Record<string, unknown>, prefix: string, ann: Readonly<Record<string, CaptureLevel>>, max: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (captureRank(ann[path] ?? 'metadata') > max) continue;
    if (value === undefined) continue;
    out[key] = pruneValue(value, path, ann, max);
  }
  return out;
}

function pruneValue(value: unknown, path: string, ann: Readonly<Record<string, CaptureLevel>>, max: number): unknown {
  if (Array.isArray(value)) {
    if (captureRank(ann[`${path}[]`] ?? 'metadata') > max) return [];
    return value.map((item) => pruneValue(item, `${path}[]`, ann, max));
  }
  if (isPlainObject(value)) return prune(value, path, ann, max);
  return value;
}

/**
 * The AEP-0002 §5.3 `[metadata*]` fields `downlevel` degrades (type -> annotation paths).
 * Our generated schemas mark the same paths with `x-aep-capture-exception`; a test keeps the two equal.
 */
export const STARRED_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'attention.requested': ['prompt', 'options[].label', 'fields[].label', 'fields[].choices[].label'],
  'attention.answered': ['answer.values'],
  'control.attention.respond': ['answer.values'],
};

/** AEP-0002 §5.3 `[metadata*]` fields, degraded structurally for a level below `redacted`. */
function degradeStarred(event: AepEvent, data: Record<string, unknown>): Record<string, unknown> {
  if (event.type === 'attention.requested') {
    if ('prompt' in data) {
      const kind = typeof data.kind === 'string' ? data.kind : 'attention';
      const subject = typeof event.subject === 'string' && event.subject !== '' ? `: ${event.subject}` : '';
      data.prompt = `${event.agent} requests ${kind}${subject}`;
    }
    if (Array.isArray(data.options)) data.options = data.options.map(labelToId);
    if (Array.isArray(data.fields)) {
      data.fields = data.fields.map((field, i) => {
        const degraded = labelToId(field, i);
        if (isPlainObject(degraded) && Array.isArray(degraded.choices)) degraded.choices = degraded.choices.map(labelToId);
        return degraded;
      });
    }
  }
  if ((event.type === 'attention.answered' || event.type === 'control.attention.respond') && isPlainObject(data.answer) && 'values' in data.answer) {
    const values = data.answer.values;
    if (isPlainObject(values)) {
      data.answer.values = Object.fromEntries(
        Object.entries(values).filter(([, v]) => typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))),
      );
    } else {
      delete data.answer.values;
    }
  }
  return data;
}

/** A label becomes its item's id (or the 1-based index when the item has no usable id). */
function labelToId(item: unknown, index: number): unknown {
  if (!isPlainObject(item) || !('label' in item)) return item;
  const id = item.id;
  return { ...item, label: typeof id === 'string' || typeof id === 'number' ? String(id) : String(index + 1) };
}

function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cloneJson(v)])) as T;
  return value;
}
