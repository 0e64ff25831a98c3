/**
 * Shorthands for the rows of a descriptor's `deviations` (impl/integrations/descriptor.ts):
 * `deviation(what, record, ours, why)` for a deliberate departure from what the design record
 * (or Annex A) states, `unnamed(what, ours, why)` for a name we chose where the record gives none.
 */
import type { Deviation } from './descriptor.js';

export const deviation = (what: string, record: string, ours: string, why: string): Deviation => ({ what, record, ours, why, kind: 'deviation' });

export const unnamed = (what: string, ours: string, why: string): Deviation => ({ what, record: 'names none', ours, why, kind: 'unnamed' });
