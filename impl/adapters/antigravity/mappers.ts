/** The Antigravity adapter's pure mappers, as the conformance families call them (impl/integrations/mappers.ts); loaded lazily by the registry. */
import type { SourceMappers } from '../../integrations/mappers.js';
import { mapHook, type JoinResult } from './map-hooks.js';

/** An entry's `join` is the daemon's join result for the payload (`{name}`), handed over as is. */
export const mappers: SourceMappers = {
  mapHook: (input, entry) => mapHook(entry?.hook ?? '', input, { join: entry?.join as JoinResult | undefined }),
};
