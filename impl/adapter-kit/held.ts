/**
 * Helpers over `Held` (types.ts): a held request's id travels with its settlement promise, so a
 * wrapper that changes the settlement (a test's deliberately broken adapter, a dismissing
 * context) must keep the id. Pure.
 */
import type { AepEvent } from '../core/event.js';
import type { Held, Settlement } from './types.js';

type Outcome = { request: AepEvent; settlement: Settlement };

/** `held` with its outcome passed through `f`; the request id is kept. */
export function mapHeld(held: Held, f: (out: Outcome) => Outcome | Promise<Outcome>): Held {
  return Object.assign(held.then(f), { requestId: held.requestId });
}
