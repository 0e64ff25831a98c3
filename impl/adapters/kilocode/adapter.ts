/**
 * The Kilo Code adapter definition for the kit (daemon port: its descriptor's): the plugin family's runtime
 * (adapter-kit/plugin-host.ts) under the `kilocode` identity. The vendor-side half is
 * `kilocode-plugin.js` (the fork's `{ server }` module), registered in the config's `plugin` array or dropped into `.kilo/plugin/`.
 */
import { definePluginAdapter } from '../../adapter-kit/plugin-host.js';
import { recordingReplies, type VendorReplies } from '../../adapter-kit/plugin-rest.js';
import { AGENT } from './map-hooks.js';
import { descriptor } from './descriptor.js';

export const DEFAULT_PORT = descriptor.port;

/** A Kilo Code adapter; `replies` overrides where bus-surface answers are delivered (tests, the corpus runs). */
export function createAdapter(replies?: VendorReplies) {
  return definePluginAdapter({ agent: AGENT, defaultPort: DEFAULT_PORT, ...(replies ? { replies } : {}) });
}

export const adapter = createAdapter();

/** What the offline control-loop scenarios drive: bus-surface answers go to an accepting recorder, not a vendor server (the REST client is tested against a stub server in its own tests). */
export const scenarioAdapter = createAdapter(recordingReplies());
