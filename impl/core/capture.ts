/**
 * AEP-0001 §8.2 down-leveling at a hop (relay fan-out, re-emitter), driven by the payload
 * schemas' `x-aep-capture` annotations (AEP-0002 §5.1).
 *
 * Rules applied by `downlevel`, in order:
 *  1. `evcap = event.capture ?? "metadata"`. A `full` ceiling leaves the event as it is. A
 *     ceiling at or above `evcap` keeps the level (never up-level, §8.2b) but still judges the
 *     payload against it (rule 7): the ceiling is a promise to its subscriber, not a trust in
 *     the declaration.
 *  2. Otherwise the new level is the ceiling, except §8.2(e): a `redacted` ceiling over a `full`
 *     event lands on `metadata`, because a mechanical hop never mints the `redacted` provenance claim.
 *  3. At `none`, `data` is removed (envelope only).
 *  4. A type without a payload schema (vendor `x.*`, unknown types) loses `data` wholesale
 *     below `full`, whatever it declares: the hop cannot tell content from structure, and
 *     dropping more is always legal (§8.2b). The one exception is a `redacted` source at a
 *     `redacted` ceiling: that claim was minted at the source (§8.2e) and passes unchanged.
 *  5. Every field whose annotation ranks above the new level is pruned, through objects and
 *     array items.
 *  6. Below `redacted`, and only when the level is lowered, the AEP-0002 §5.3 `[metadata*]`
 *     fields degrade structurally, since a hop has no source context to synthesize or classify
 *     them (AEP-0006 §Security):
 *     `attention.requested.prompt` becomes `"{agent} requests {kind}: {subject}"` (without
 *     `: {subject}` when there is none); `options[].label`, `fields[].label` and
 *     `fields[].choices[].label` become the item's `id`; `answer.values` on
 *     `attention.answered` and `control.attention.respond` keeps number and boolean entries only.
 *  7. Fail closed on shape and on what no annotation names. A value whose shape is not the
 *     annotated one (an array where the schema annotates members, an object where it annotates
 *     items) is dropped whole, never walked as something else. Below `redacted`, a member no
 *     annotation names (AEP-0002 §5.1 rule 4 defaults it to `metadata`, an emitter's claim the
 *     hop cannot check) keeps a number, a boolean or null and loses a string, object or array:
 *     the hop cannot tell an id from prose there. `__proto__`, `constructor` and `prototype`
 *     are ordinary member names (copied as own data properties, never as prototype links).
 *     Nothing is walked deeper than `MAX_DEPTH`, and every walk is iterative.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CAPTURE_ORDER, captureRank, isPlainObject, type AepEvent, type CaptureLevel } from './event.js';
import { MAX_DEPTH, cloneJson, defineMember } from './json-shape.js';

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
    defineMember(out, file.slice(0, -'.schema.json'.length), annotationsOf(schema));
  }
  return out;
}

/** The annotations of one payload schema (the inner map of `CaptureAnnotations`). */
export function annotationsOf(schema: unknown): Record<string, CaptureLevel> {
  const paths: Record<string, CaptureLevel> = {};
  const record = (path: string, level: unknown): void => {
    if (typeof level !== 'string' || !(CAPTURE_ORDER as readonly string[]).includes(level)) return;
    const prev = paths[path];
    if (prev === undefined || captureRank(level as CaptureLevel) > captureRank(prev)) defineMember(paths, path, level);
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
  get: (_t, key) => (Object.prototype.hasOwnProperty.call(ours(), key) ? ours()[key as string] : undefined),
  has: (_t, key) => Object.prototype.hasOwnProperty.call(ours(), key),
  ownKeys: () => Object.keys(ours()),
  getOwnPropertyDescriptor: (_t, key) =>
    Object.prototype.hasOwnProperty.call(ours(), key) ? { value: ours()[key as string], enumerable: true, configurable: true, writable: false } : undefined,
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
  const { data, ...envelope } = event;
  if (ceiling === 'full') return data === undefined ? { ...event } : { ...event, data: cloneJson(data, MAX_DEPTH - 1) };

  // Rule 1: a ceiling at or above the declared level keeps the level (never up-level, §8.2b),
  // but the payload is still judged against it (fail closed, rule 7).
  const lowering = captureRank(ceiling) < captureRank(evcap);
  const target: CaptureLevel = !lowering ? evcap : ceiling === 'redacted' && evcap === 'full' ? 'metadata' : ceiling;
  // Not lowering: members keep their order (so an untouched event re-serializes byte-identically).
  const out: AepEvent = lowering ? { ...envelope, capture: target } : { ...event };
  if (target === 'none' || !isPlainObject(data)) {
    delete out.data;
    return out;
  }
  // This project's annotations are read from the loaded table, not through the proxy (one trap call and a descriptor less per event).
  const table = annotations === CAPTURE_ANNOTATIONS ? ours() : annotations;
  const typeAnnotations = Object.prototype.hasOwnProperty.call(table, event.type) ? table[event.type] : undefined;
  if (typeAnnotations === undefined) {
    // Rule 4: no schema to tell content from structure. Only a `redacted` source claim at a
    // `redacted` ceiling survives (the claim was minted at the source, §8.2e).
    if (target === 'redacted') out.data = cloneJson(data, MAX_DEPTH - 1);
    else delete out.data;
    return out;
  }
  const pruned = prune(data, compiled(typeAnnotations), target);
  out.data = lowering && captureRank(target) < captureRank('redacted') ? degradeStarred(event, pruned) : pruned;
  return out;
}

/** One type's annotations with the container shape each path must have. */
interface Compiled {
  /** Own annotations only: a path named `__proto__` or `constructor` never finds Object.prototype's members. */
  readonly levels: ReadonlyMap<string, CaptureLevel>;
  /** Paths with an annotated `path.member` below: their value must be an object. */
  readonly objects: ReadonlySet<string>;
  /** Paths with an annotated `path[]` below: their value must be an array. */
  readonly arrays: ReadonlySet<string>;
}

const compiledCache = new WeakMap<object, Compiled>();

function compiled(ann: Readonly<Record<string, CaptureLevel>>): Compiled {
  let c = compiledCache.get(ann);
  if (c === undefined) {
    const objects = new Set<string>();
    const arrays = new Set<string>();
    for (const path of Object.keys(ann)) {
      for (let i = 0; i < path.length; i++) {
        if (path.startsWith('[]', i)) arrays.add(path.slice(0, i));
        else if (path[i] === '.') objects.add(path.slice(0, i));
      }
    }
    c = { levels: new Map(Object.entries(ann)), objects, arrays };
    compiledCache.set(ann, c);
  }
  return c;
}

const DROP = Symbol('drop');

/**
 * Rules 5 and 7, iteratively (an explicit stack, so no payload depth can overflow the call stack):
 * a member annotated above `target` is dropped; a member whose value does not have the container
 * shape its annotations describe (an array where members are annotated, an object where items
 * are) is dropped whole; below `redacted`, a member no annotation names keeps only a number, a
 * boolean or null, because the hop cannot tell an id from prose in a string or a structure it
 * has no annotation for. Keys are copied as own data properties (`__proto__` stays a member).
 */
function prune(data: Record<string, unknown>, ann: Compiled, target: CaptureLevel): Record<string, unknown> {
  const max = captureRank(target);
  const strict = max < captureRank('redacted');
  const root: Record<string, unknown> = {};
  type Task = { readonly src: Record<string, unknown> | unknown[]; readonly dst: Record<string, unknown> | unknown[]; readonly path: string; readonly depth: number };
  const stack: Task[] = [{ src: data, dst: root, path: '', depth: 2 }];
  const judge = (value: unknown, path: string, depth: number): unknown => {
    const level = ann.levels.get(path);
    if (level !== undefined && captureRank(level) > max) return DROP;
    const wantsArray = ann.arrays.has(path);
    const wantsObject = ann.objects.has(path);
    if (wantsArray || wantsObject) {
      if (depth + 1 > MAX_DEPTH) return DROP;
      if (wantsArray && Array.isArray(value)) {
        const dst: unknown[] = [];
        stack.push({ src: value, dst, path, depth: depth + 1 });
        return dst;
      }
      if (wantsObject && isPlainObject(value)) {
        const dst: Record<string, unknown> = {};
        stack.push({ src: value, dst, path, depth: depth + 1 });
        return dst;
      }
      return DROP;
    }
    if (level === undefined && strict) return value === null || typeof value === 'number' || typeof value === 'boolean' ? value : DROP;
    return cloneJson(value, MAX_DEPTH - depth);
  };
  while (stack.length > 0) {
    const { src, dst, path, depth } = stack.pop()!;
    if (Array.isArray(src)) {
      const items = `${path}[]`;
      for (const item of src) {
        const kept = judge(item, items, depth);
        if (kept !== DROP) (dst as unknown[]).push(kept);
      }
      continue;
    }
    for (const key of Object.keys(src)) {
      const value = src[key];
      if (value === undefined) continue;
      const kept = judge(value, path === '' ? key : `${path}.${key}`, depth);
      if (kept !== DROP) defineMember(dst as Record<string, unknown>, key, kept);
    }
  }
  return root;
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
