/**
 * The link from a live record to the buffer's record of the same event, so both render through one
 * cache (`render.ts`): a down-levelled copy is made once per event and ceiling. The link goes from
 * the short-lived record to the held one, never back, so it keeps nothing alive. Pure.
 */
import type { Received } from './received.js';

/** Where a live record points at the held record (non-enumerable: invisible to copies and JSON). */
const SHARED = Symbol('render-shared');

/** Make `from` render through `to`'s cache; a record already linked (admitted again after an eviction) keeps its link. */
export function shareRendering(from: Received, to: Received): void {
  if (Object.isExtensible(from) && !Object.hasOwn(from, SHARED)) Object.defineProperty(from, SHARED, { value: to, enumerable: false, writable: false, configurable: false });
}

/** The record whose cache renders `rec`: its held record when linked, else itself. */
export function renderKey(rec: Received): Received {
  return (rec as { [SHARED]?: Received })[SHARED] ?? rec;
}
