/** The AG-UI bridge's pure mappers, as the bridges family calls them (impl/integrations/mappers.ts); loaded lazily by the registry. */
import type { BridgeMappers } from '../../integrations/mappers.js';
import { mapEvent } from './map-events.js';

export const mappers: Partial<BridgeMappers> = { eventMappers: { agui: (e, o) => mapEvent(e, o) } };
