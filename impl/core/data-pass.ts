/**
 * An Event's payload in one walk (issue 33): the depth verdict and the capture-honesty verdict
 * together. `validateEvent` walks `data` once for both instead of a depth walk and then the
 * honesty walk. Like the other fast paths it builds nothing and reports nothing itself: it says
 * "nothing to find", "the honesty walk may find something", or "too deep", and the reference
 * checks build whatever issues there are (`data-pass.test.ts` holds `validateEvent` to them). Pure.
 */
import type { GateNode } from './honesty.js';
import { MAX_DEPTH } from './json-shape.js';

/** Bits of a {@link dataVerdict}: 0 means within the bound and nothing above the declared level. */
export const MAY_OVER_CAPTURE = 1;
export const TOO_DEEP = 2;

/**
 * Walk `data` (a JSON object at level 2 of its Event) once: `TOO_DEEP` when a container nests
 * past `maxDepth` (exactly `tooDeepAt`'s verdict on the Event), and, when `gate` (the type's
 * annotation tree) is given, `MAY_OVER_CAPTURE` whenever `mayOverCapture(data, gate, rank)` would
 * be true. Recursion never passes `maxDepth + 1`.
 */
export function dataVerdict(data: Record<string, unknown>, gate: GateNode | undefined, rank: number, maxDepth = MAX_DEPTH): number {
  return objectVerdict(data, 2, gate, rank, maxDepth);
}

function objectVerdict(node: Record<string, unknown>, depth: number, gate: GateNode | undefined, rank: number, maxDepth: number): number {
  if (depth > maxDepth) return TOO_DEEP;
  let out = 0;
  for (const name in node) {
    if (!Object.hasOwn(node, name)) continue;
    // Honesty, as mayOverCapture decides it, until something may be found (then depth only).
    let step: GateNode | undefined;
    if (gate !== undefined && out === 0) {
      if (name === '') out = MAY_OVER_CAPTURE;
      else {
        step = gate.members?.get(name);
        if (step === undefined) {
          if (name.includes('.') || name.includes('[]')) out = MAY_OVER_CAPTURE;
        } else if (step.rank > rank) out = MAY_OVER_CAPTURE;
      }
    }
    const value = node[name];
    if (value === null || typeof value !== 'object') continue;
    const inner = out === 0 ? step : undefined;
    out |= Array.isArray(value) ? arrayVerdict(value, depth + 1, inner, rank, maxDepth) : objectVerdict(value as Record<string, unknown>, depth + 1, inner, rank, maxDepth);
    if ((out & TOO_DEEP) !== 0) return out;
  }
  return out;
}

/** An array at `depth`; `step` is the annotation step of the member holding it (its items are `step.items`). */
function arrayVerdict(array: unknown[], depth: number, step: GateNode | undefined, rank: number, maxDepth: number): number {
  if (depth > maxDepth) return TOO_DEEP;
  const items = step?.items;
  let out = items !== undefined && items.rank > rank && array.length > 0 ? MAY_OVER_CAPTURE : 0;
  for (let i = 0; i < array.length; i++) {
    const item: unknown = array[i];
    if (item === null || typeof item !== 'object') continue;
    // mayOverCapture descends into object items only; nested arrays count for depth alone.
    out |= Array.isArray(item) ? arrayVerdict(item, depth + 1, undefined, rank, maxDepth) : objectVerdict(item as Record<string, unknown>, depth + 1, out === 0 ? items : undefined, rank, maxDepth);
    if ((out & TOO_DEEP) !== 0) return out;
  }
  return out;
}
