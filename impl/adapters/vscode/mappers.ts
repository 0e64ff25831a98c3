/** The VS Code adapter's pure mappers, as the conformance families call them (impl/integrations/mappers.ts); loaded lazily by the registry. */
import type { SourceMappers } from '../../integrations/mappers.js';
import { mapHook } from './map-hooks.js';

export const mappers: SourceMappers = { mapHook: (input) => mapHook(input) };
