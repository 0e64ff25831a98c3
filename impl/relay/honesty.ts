/**
 * Capture honesty at the relay (AEP-0001 §8.2(a), AEP-0002 §5.1 rule 1): does an accepted
 * event carry content above its declared `capture`? Pure.
 *
 * This answers exactly what `validateEvent` reports as `capture.none.data` or
 * `capture.field.level` for an event whose envelope is valid, without running the rest of
 * `validateEvent` (registry and prose rules, the payload schema), and it stops at the first
 * finding. Most events cost two lookups: a type whose highest annotation is at or below the
 * declared level cannot be over-declared, so its payload is not walked at all.
 */
import { annotationsOf } from '../core/capture.js';
import { captureRank, isPlainObject, type AepEvent, type CaptureLevel } from '../core/event.js';
import { schemaForType } from '../core/payload.js';
import { lookupType } from '../../spec/registry.js';

/** One payload type's capture annotations, compiled for the walk. */
export interface Gates {
  /** Annotated path (capture.ts path syntax) -> rank of its level; absent means `metadata`. */
  readonly ranks: ReadonlyMap<string, number>;
  /** Every path with an annotated descendant: the only places the walk descends. */
  readonly parents: ReadonlySet<string>;
  /** The highest rank of any path (at least `metadata`'s). */
  readonly top: number;
}

const METADATA = captureRank('metadata');

/** Compile one type's annotations (the inner map of `CaptureAnnotations`). */
export function compileGates(annotations: Readonly<Record<string, CaptureLevel>>): Gates {
  const ranks = new Map<string, number>();
  const parents = new Set<string>();
  let top = METADATA;
  for (const [path, level] of Object.entries(annotations)) {
    const rank = captureRank(level);
    ranks.set(path, rank);
    if (rank > top) top = rank;
    for (let i = 0; i < path.length; i++) {
      if (path[i] === '.' || path.startsWith('[]', i)) parents.add(path.slice(0, i));
    }
  }
  return { ranks, parents, top };
}

/** Built from the same schema `validateEvent` judges by (`schemaForType`), once per type. */
const gatesByType = new Map<string, Gates>();

function gatesFor(type: string): Gates {
  let gates = gatesByType.get(type);
  if (gates === undefined) {
    gates = compileGates(annotationsOf(schemaForType(type)));
    gatesByType.set(type, gates);
  }
  return gates;
}

/**
 * Whether `event` carries content above its declared `capture` (default `metadata`): any
 * `data` member at `none`, or, for a registered type with a payload, a member (or array items)
 * annotated above the declared level. Vendor and unregistered types are never judged.
 * Call only with an event whose envelope is valid (`validateEnvelope` returned no issue).
 */
export function isOverDeclared(event: AepEvent): boolean {
  const data = event.data;
  if (event.capture === 'none') return isPlainObject(data) && Object.keys(data).length > 0;
  if (!isPlainObject(data)) return false;
  const type = event.type;
  if (type.startsWith('x.') || lookupType(type)?.payload !== true) return false;
  return carriesAbove(data, gatesFor(type), event.capture ?? 'metadata');
}

/**
 * Whether `data` holds a member, or array items, annotated above `declared`: the walk of
 * `validateEvent`'s capture-honesty check, stopping at the first finding. Unannotated
 * members count as `metadata`; the walk descends only where something below is annotated.
 * `none` is not judged here (any content is over it; see `isOverDeclared`).
 */
export function carriesAbove(data: Record<string, unknown>, gates: Gates, declared: CaptureLevel): boolean {
  const rank = captureRank(declared);
  return rank > 0 && gates.top > rank && exceeds(data, '', gates, rank);
}

function exceeds(node: Record<string, unknown>, prefix: string, gates: Gates, declared: number): boolean {
  for (const name of Object.keys(node)) {
    const key = prefix === '' ? name : `${prefix}.${name}`;
    if ((gates.ranks.get(key) ?? METADATA) > declared) return true;
    if (!gates.parents.has(key)) continue;
    const value = node[name];
    if (isPlainObject(value)) {
      if (exceeds(value, key, gates, declared)) return true;
    } else if (Array.isArray(value)) {
      const items = `${key}[]`;
      if ((gates.ranks.get(items) ?? METADATA) > declared) {
        if (value.length > 0) return true;
      } else if (gates.parents.has(items)) {
        for (const item of value) if (isPlainObject(item) && exceeds(item, items, gates, declared)) return true;
      }
    }
  }
  return false;
}
