/** The Claude Code adapter's descriptor (impl/integrations/descriptor.ts explains the fields). */
import type { Descriptor } from '../../integrations/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'adapter',
  role: 'hook-adapter',
  name: 'claude-code',
  vendor: 'Claude Code',
  surface: 'settings.json hooks: http hooks POSTed to the daemon, or command hooks through `aep hook` (2.1.197)',
  identity: { session: '`session_id`', run: 'one run per UserPromptSubmit, named by `prompt_id` (a ULID when absent); closed by Stop / StopFailure' },
  classes: ['Emitter', 'Control-capable'],
  emits: ['session', 'run', 'tool', 'attention', 'delegation', 'progress', 'agent', 'control'],
  postures: [{ name: 'default', env: {}, summary: 'PermissionRequest held allow/deny; AskUserQuestion and Elicitation held as forms', accepts: ['control.attention.respond'] }],
  forms: ['AskUserQuestion (PermissionRequest)', 'Elicitation'],
  steering: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'SubagentStart'],
  deviations: DEVIATIONS,
  port: 8377,
  portEnv: 'AEP_CLAUDE_CODE_PORT',
  neutral: { reply: '{}', reads: 'json' },
  env: [],
  settings: { homeDir: '.claude', file: 'settings.json', note: 'Claude Code reads it at start; an interactive session runs no settings-file hooks until the folder is trusted' },
  reference: ['adapter-claude-code/map-ask-user-question', 'adapter-claude-code/map-elicitation'],
  configs: ['impl/adapters/claude-code/settings.example.json', 'impl/adapters/claude-code/settings.command.example.json'],
  verification: { status: 'captured', detail: 'real Claude Code 2.1.197 sessions replayed through the adapter (vendor captures)' },
};
