/** The OpenCode SSE bridge's pure mappers, as the bridges family calls them (impl/integrations/mappers.ts); loaded lazily by the registry. */
import type { BridgeMappers } from '../../integrations/mappers.js';
import { applyMode } from './mode-policy.js';

export const mappers: Partial<BridgeMappers> = { modePolicies: { opencode: applyMode } };
