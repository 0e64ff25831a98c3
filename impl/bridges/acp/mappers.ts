/** The acp bridge's pure mappers, as the bridges family calls them (impl/integrations/mappers.ts); loaded lazily by the registry. */
import type { BridgeMappers } from '../../integrations/mappers.js';
import { mapMoment, type AcpMoment } from './map-frames.js';

export const mappers: Partial<BridgeMappers> = { acpMoment: (m, o) => mapMoment(m as AcpMoment, o) };
