/** The OpenHands bridge's pure mappers, as the bridges family calls them (impl/integrations/mappers.ts); loaded lazily by the registry. */
import type { BridgeMappers } from '../../integrations/mappers.js';
import { mapEvent, statusMoments } from './map-events.js';

export const mappers: Partial<BridgeMappers> = { eventMappers: { openhands: (e, o) => mapEvent(e, o) }, statusMoments: (p, n) => statusMoments(p, n) };
