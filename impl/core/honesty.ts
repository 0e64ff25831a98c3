/**
 * Capture honesty (AEP-0001 §8.2(a), AEP-0002 §5.1 rule 1): an Event carries no content above
 * its declared `capture` (default `metadata`). Pure. This is the one implementation of the rule:
 * `validateEvent` reports every finding as `capture.field.level`, and a relay asks
 * `isOverDeclared` at admission, which stops at the first.
 *
 * A type's annotations are compiled once. A type whose highest annotation is at or below the
 * declared level cannot be over-declared, so its payload is not walked at all; otherwise the
 * walk descends only where something below is annotated, which also bounds its depth.
 */
import { annotationsOf } from './capture.js';
import { captureRank, isPlainObject, type AepEvent, type CaptureLevel } from './event.js';
import { childPath } from './issue.js';
import { schemaForType } from './payload.js';
import { lookupType } from '../../spec/registry.js';

/** One payload type's capture annotations, compiled for the walk. Immutable once built. */
export interface CaptureGates {
  /** Annotated path (capture.ts path syntax, e.g. `documents[].content`) -> its level; absent means `metadata`. */
  readonly levels: ReadonlyMap<string, CaptureLevel>;
  /** Every path with an annotated descendant: the only places the walk descends. */
  readonly parents: ReadonlySet<string>;
  /** The highest rank of any level (at least `metadata`'s). */
  readonly top: number;
  /** The same annotations as a tree of member names, for the walk that allocates nothing (`mayOverCapture`). */
  readonly tree: GateNode;
}

/**
 * One step of an annotated path: the rank its own annotation requires (-1 when it has none), and
 * the steps below it: members by name (`a.b`), and the items of an array (`a[]`).
 */
export interface GateNode {
  readonly rank: number;
  readonly members: Map<string, GateNode> | undefined;
  readonly items: GateNode | undefined;
}

interface MutableGateNode {
  rank: number;
  members: Map<string, MutableGateNode> | undefined;
  items: MutableGateNode | undefined;
}

const node = (): MutableGateNode => ({ rank: -1, members: undefined, items: undefined });

/** The step below `at` for member `name`, made when missing. */
function member(at: MutableGateNode, name: string): MutableGateNode {
  const members = (at.members ??= new Map());
  let next = members.get(name);
  if (next === undefined) members.set(name, (next = node()));
  return next;
}

/**
 * Put annotation path `path` (capture.ts syntax: names joined by `.`, `[]` for an array's items)
 * in the tree: a key `walk` builds from names without `.` or `[]` is read back into those names.
 */
function plant(root: MutableGateNode, path: string, rank: number): void {
  let at = root;
  let i = 0;
  let named = false; // whether the last step was a name or `[]` (then a `.` separates)
  while (i < path.length) {
    if (path.startsWith('[]', i)) {
      at = at.items ??= node();
      i += 2;
      named = true;
    } else if (named && path[i] === '.') {
      i++;
      named = false;
    } else {
      let end = i;
      while (end < path.length && path[end] !== '.' && !path.startsWith('[]', end)) end++;
      at = member(at, path.slice(i, end));
      i = end;
      named = true;
    }
  }
  at.rank = rank;
}

/** A payload member, or an item of a payload array, annotated above the declared level. */
export interface CaptureFinding {
  /** JSON path of the member or item, rooted at the Event: `$.data.message`, `$.data.notes[0]`. */
  readonly path: string;
  /** The level its annotation requires, always above the declared one. */
  readonly level: CaptureLevel;
  /** Set when the finding is an array item (the annotation is on the items): the array's JSON path. */
  readonly array?: string;
}

/** Options of {@link findOverCapture}. */
export interface OverCaptureOptions {
  /** Stop at the first finding (at most one is returned). Default `false`: every finding, in document order. */
  readonly first?: boolean;
}

const METADATA = captureRank('metadata');

/** Compile one type's annotations (the inner map of `CaptureAnnotations`). May be called at any time. */
export function compileGates(annotations: Readonly<Record<string, CaptureLevel>>): CaptureGates {
  const levels = new Map<string, CaptureLevel>();
  const parents = new Set<string>();
  let top = METADATA;
  const tree = node();
  for (const [path, level] of Object.entries(annotations)) {
    levels.set(path, level);
    plant(tree, path, captureRank(level));
    top = Math.max(top, captureRank(level));
    for (let i = 0; i < path.length; i++) {
      if (path[i] === '.' || path.startsWith('[]', i)) parents.add(path.slice(0, i));
    }
  }
  return { levels, parents, top, tree };
}

/** Built from the schema the payload is validated against (`schemaForType`), once per type. */
const gatesByType = new Map<string, CaptureGates>();

/**
 * The compiled annotations of a type's payload schema, cached. A type without a payload schema
 * (vendor, unregistered, payload-less) has no annotations: nothing in it is ever above `metadata`.
 */
export function gatesForType(type: string): CaptureGates {
  let gates = gatesByType.get(type);
  if (gates === undefined) {
    gates = compileGates(annotationsOf(schemaForType(type)));
    gatesByType.set(type, gates);
  }
  return gates;
}

/**
 * The members (and array items) of `data` annotated above `declared`. Unannotated members count
 * as `metadata`; a finding is not descended into; an empty array carries no item. `none` and an
 * unknown level yield nothing: at `none` any content is the finding (`isOverDeclared`,
 * `capture.none.data`), and an unknown level is an envelope error. Paths are rooted at `$.data`.
 */
export function findOverCapture(
  data: Record<string, unknown>,
  gates: CaptureGates,
  declared: CaptureLevel,
  options?: OverCaptureOptions,
): CaptureFinding[] {
  const rank = captureRank(declared);
  const found: CaptureFinding[] = [];
  if (rank > 0 && gates.top > rank && mayOverCapture(data, gates.tree, rank)) walk(data, '', { gates, rank, first: options?.first === true, found, at: [] });
  return found;
}

/**
 * Whether `event` carries content above its declared `capture`: any `data` member at `none`,
 * or, for a registered type with a payload, a finding of {@link findOverCapture}. Vendor and
 * unregistered types are judged only at `none`. Exactly what `validateEvent` reports as
 * `capture.none.data` or `capture.field.level`, for an event whose envelope is valid
 * (`validateEnvelope` returned no issue): call it only with such an event.
 */
export function isOverDeclared(event: AepEvent): boolean {
  const data = event.data;
  if (event.capture === 'none') return isPlainObject(data) && Object.keys(data).length > 0;
  if (!isPlainObject(data)) return false;
  const type = event.type;
  if (type.startsWith('x.') || lookupType(type)?.payload !== true) return false;
  return findOverCapture(data, gatesForType(type), event.capture ?? 'metadata', { first: true }).length > 0;
}

/**
 * Whether `walk` could find anything in `node` (annotation step `gate`) at declared rank `rank`:
 * the same descent over the tree of names, building no key, path or finding. `false` proves there
 * is no finding. `true` when there is one, or when a member name could make the string keys
 * `walk` compares differ from the tree's steps (empty, or holding `.` or `[]`): `walk` then decides.
 */
function mayOverCapture(node: Record<string, unknown>, gate: GateNode, rank: number): boolean {
  const members = gate.members;
  for (const name in node) {
    if (!Object.hasOwn(node, name)) continue;
    if (name === '') return true;
    const step = members?.get(name);
    // A name holding `.` or `[]` is never a step of the tree (plant splits there), but as a key it may match one.
    if (step === undefined) {
      if (name.includes('.') || name.includes('[]')) return true;
      continue;
    }
    if (step.rank > rank) return true;
    const value = node[name];
    if (isPlainObject(value)) {
      if (mayOverCapture(value, step, rank)) return true;
    } else if (Array.isArray(value)) {
      const items = step.items;
      if (items === undefined) continue;
      if (items.rank > rank) {
        if (value.length > 0) return true;
        continue;
      }
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (isPlainObject(item) && mayOverCapture(item, items, rank)) return true;
      }
    }
  }
  return false;
}

interface Walk {
  readonly gates: CaptureGates;
  readonly rank: number;
  readonly first: boolean;
  readonly found: CaptureFinding[];
  /** The member names and item indexes from `$.data` down to the node being walked: paths are built from it only for a finding. */
  readonly at: Array<string | number>;
}

/** The JSON path of `at` (below `$.data`), then `last` when given. */
function pathOf(at: ReadonlyArray<string | number>, last?: string | number): string {
  let path = '$.data';
  for (const step of at) path = childPath(path, step);
  return last === undefined ? path : childPath(path, last);
}

/** The level of annotation path `key` when it ranks above the declared one. */
function above(key: string, w: Walk): CaptureLevel | undefined {
  const level = w.gates.levels.get(key);
  return level !== undefined && captureRank(level) > w.rank ? level : undefined;
}

/** Walks `node` (annotation path `prefix`, JSON path `w.at`); returns true once it must stop. */
function walk(node: Record<string, unknown>, prefix: string, w: Walk): boolean {
  // for...in filtered to own names: Object.keys' names in Object.keys' order, without the array.
  for (const name in node) {
    if (!Object.hasOwn(node, name)) continue;
    const key = prefix === '' ? name : `${prefix}.${name}`;
    const level = above(key, w);
    if (level !== undefined) {
      w.found.push({ path: pathOf(w.at, name), level });
      if (w.first) return true;
      continue;
    }
    if (!w.gates.parents.has(key)) continue;
    const value = node[name];
    if (isPlainObject(value)) {
      w.at.push(name);
      if (walk(value, key, w)) return true;
      w.at.pop();
    } else if (Array.isArray(value)) {
      const items = `${key}[]`;
      const itemLevel = above(items, w);
      if (itemLevel === undefined && !w.gates.parents.has(items)) continue;
      w.at.push(name);
      let array: string | undefined;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (itemLevel !== undefined) {
          array ??= pathOf(w.at);
          w.found.push({ path: childPath(array, i), level: itemLevel, array });
          if (w.first) return true;
        } else if (isPlainObject(item)) {
          w.at.push(i);
          if (walk(item, items, w)) return true;
          w.at.pop();
        }
      }
      w.at.pop();
    }
  }
  return false;
}
