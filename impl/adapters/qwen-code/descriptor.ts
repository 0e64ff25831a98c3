/** The Qwen Code adapter's descriptor (impl/integrations/descriptor.ts explains the fields). */
import type { Descriptor } from '../../integrations/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'adapter',
  role: 'hook-adapter',
  name: 'qwen-code',
  vendor: 'Qwen Code',
  surface: '`.qwen/settings.json` hooks: native http hooks to the daemon, or command hooks through `aep hook`',
  identity: { session: '`session_id`', run: 'one run per UserPromptSubmit, closed by Stop / StopFailure' },
  classes: ['Emitter', 'Control-capable'],
  emits: ['session', 'run', 'tool', 'attention', 'delegation', 'progress', 'control'],
  postures: [{ name: 'default', env: {}, summary: 'PermissionRequest held allow/deny, on by default', accepts: ['control.attention.respond'] }],
  forms: [],
  steering: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SubagentStart', 'PreCompact'],
  deviations: DEVIATIONS,
  port: 8380,
  portEnv: 'AEP_QWEN_CODE_PORT',
  neutral: { reply: '{}', reads: 'json' },
  env: [],
  settings: { homeDir: '.qwen', file: 'settings.json', note: 'Qwen Code reads it at start' },
  reference: ['adapter-qwen-code/map-hooks'],
  configs: ['impl/adapters/qwen-code/settings.example.json', 'impl/adapters/qwen-code/settings.command.example.json'],
  verification: { status: 'documented', detail: 'mapped from the vendor documentation and the standard pin; no captured session' },
};
