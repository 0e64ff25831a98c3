/**
 * Kilo Code (`@kilocode/cli`), headless as `kilo serve` (serve-host.ts), with
 * `impl/adapters/kilocode/kilocode-plugin.js` copied into `.kilo/plugin/`, where a user copies it.
 * Same tools as OpenCode (its fork); the `question` tool is the form loop.
 */
import { createAdapter } from '../../impl/adapters/kilocode/adapter.js';
import type { VendorDriver } from './driver.js';
import { serveToolCall } from './opencode.js';
import { launchServeHost } from './serve-host.js';

export const KILOCODE_PLUGIN = 'impl/adapters/kilocode/kilocode-plugin.js';

export const kilocodeDriver: VendorDriver = {
  vendor: 'kilocode',
  adapter: 'kilocode',
  mode: 'kilo serve, the prompt over its REST API',
  exampleFile: KILOCODE_PLUGIN,
  plugin: { adapter: () => createAdapter() },
  toolCall: serveToolCall,
  launch: (ctx) => launchServeHost({ pluginFile: KILOCODE_PLUGIN, pluginDir: '.kilo/plugin', configFile: 'kilo.json' }, ctx),
};
