/** The OpenCode adapter's pure mappers, as the conformance families call them (impl/integrations/mappers.ts); loaded lazily by the registry. */
import type { SourceMappers } from '../../integrations/mappers.js';
import { mapMoment, diffTodos } from './map-hooks.js';

export const mappers: SourceMappers = { mapMoment: (input) => mapMoment(input), diffTodos: (prev, next) => diffTodos(prev, next) };
