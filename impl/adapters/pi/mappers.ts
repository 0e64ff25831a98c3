/** The Pi adapter's pure mappers, as the conformance families call them (impl/integrations/mappers.ts); loaded lazily by the registry. */
import type { SourceMappers } from '../../integrations/mappers.js';
import { mapEvent } from './map-events.js';

export const mappers: SourceMappers = { mapEvent: (input, opts) => mapEvent(input as Parameters<typeof mapEvent>[0], opts) };
