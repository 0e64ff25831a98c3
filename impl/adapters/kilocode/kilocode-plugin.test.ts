import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import { pluginFileSuite } from '../../test-utils/plugin-suite.js';

describe('kilocode-plugin.js under a fake Kilo Code host (the fork module shape)', () => {
  pluginFileSuite({
    file: join(dirname(fileURLToPath(import.meta.url)), 'kilocode-plugin.js'),
    portEnv: 'AEP_KILOCODE_PORT',
    exports: ['default'],
    plugin: (mod) => {
      const module = mod.default as { id: string; server: never };
      if (module.id !== 'aep-kilocode') throw new Error(`the module id is ${module.id}`);
      return module.server;
    },
    hooks: ['event', 'permission.ask', 'tool.execute.after', 'tool.execute.before'],
  });
});
