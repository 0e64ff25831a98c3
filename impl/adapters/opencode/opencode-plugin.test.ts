import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import { pluginFileSuite } from '../../test-utils/plugin-suite.js';

describe('opencode-plugin.js under a fake OpenCode host', () => {
  pluginFileSuite({
    file: join(dirname(fileURLToPath(import.meta.url)), 'opencode-plugin.js'),
    portEnv: 'AEP_OPENCODE_PORT',
    exports: ['AepOpenCodePlugin'],
    plugin: (mod) => mod.AepOpenCodePlugin as never,
    hooks: ['dispose', 'event', 'permission.ask', 'tool.execute.after', 'tool.execute.before'],
  });
});
