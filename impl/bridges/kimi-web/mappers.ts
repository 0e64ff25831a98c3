/** The Kimi web bridge's pure mappers, as the bridges family calls them (impl/integrations/mappers.ts); loaded lazily by the registry. */
import type { BridgeMappers } from '../../integrations/mappers.js';
import { applyMode } from './mode-policy.js';

/** The standard's `kimi-code.json` and our `kimi-web.json` both pin this policy. */
export const mappers: Partial<BridgeMappers> = { modePolicies: { 'kimi-code': (e, m) => applyMode(e, m), 'kimi-web': (e, m) => applyMode(e, m) } };
