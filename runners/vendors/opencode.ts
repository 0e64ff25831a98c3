/**
 * OpenCode (`opencode-ai`), headless as `opencode serve` (serve-host.ts), with
 * `impl/adapters/opencode/opencode-plugin.js` copied into `.opencode/plugins/`, where a user
 * copies it. The scripted model speaks Chat Completions; its tool is OpenCode's `bash`.
 */
import { createAdapter } from '../../impl/adapters/opencode/adapter.js';
import type { ToolCall } from './model/script.js';
import type { ToolKind, VendorDriver } from './driver.js';
import { launchServeHost } from './serve-host.js';

export const OPENCODE_PLUGIN = 'impl/adapters/opencode/opencode-plugin.js';

/** The tool calls of OpenCode's and Kilo Code's models (same tool set). */
export function serveToolCall(kind: ToolKind, proof: string): ToolCall | null {
  if (kind === 'write-proof') return { name: 'bash', input: { command: `echo hi > ${proof}`, description: 'Write the proof file' } };
  if (kind === 'failing-command') return { name: 'read', input: { filePath: `${proof}.missing-dir/nothing.txt` } };
  if (kind === 'question-form') {
    return { name: 'question', input: { questions: [{ question: 'Which colour?', header: 'Colour', options: [{ label: 'Red', description: 'warm' }, { label: 'Blue', description: 'cool' }] }] } };
  }
  return null;
}

export const opencodeDriver: VendorDriver = {
  vendor: 'opencode',
  adapter: 'opencode',
  mode: 'opencode serve, the prompt over its REST API',
  exampleFile: OPENCODE_PLUGIN,
  plugin: { adapter: () => createAdapter() },
  toolCall: serveToolCall,
  launch: (ctx) => launchServeHost({ pluginFile: OPENCODE_PLUGIN, pluginDir: '.opencode/plugins', configFile: 'opencode.json' }, ctx),
};
