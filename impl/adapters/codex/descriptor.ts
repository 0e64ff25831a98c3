/** The Codex adapter's descriptor (impl/integrations/descriptor.ts explains the fields). */
import type { Descriptor } from '../../integrations/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'adapter',
  role: 'hook-adapter',
  name: 'codex',
  vendor: 'Codex CLI',
  surface: '`hooks.json` command hooks through `aep hook` (the 12 hooks of 0.171.0)',
  identity: { session: '`session_id`', run: '`turn_id`, verbatim; closed by Stop / Interrupt / StopFailure' },
  classes: ['Emitter', 'Control-capable'],
  emits: ['session', 'run', 'tool', 'attention', 'delegation', 'control'],
  postures: [{ name: 'default', env: {}, summary: 'PermissionRequest held allow/deny (20 s window, before Codex shows its own prompt)', accepts: ['control.attention.respond'] }],
  forms: [],
  steering: ['SessionStart', 'SubagentStart', 'PreToolUse', 'PostToolUse', 'UserPromptSubmit'],
  deviations: DEVIATIONS,
  port: 8378,
  portEnv: 'AEP_CODEX_PORT',
  holdMs: 20000,
  neutral: { reply: '', reads: 'json' },
  env: [],
  settings: { dirEnv: 'CODEX_HOME', homeDir: '.codex', file: 'hooks.json', note: 'Codex skips new or edited hooks until they are trusted: open /hooks inside Codex and trust them' },
  reference: ['adapter-codex/map-hooks'],
  configs: ['impl/adapters/codex/hooks.example.json'],
  verification: { status: 'captured', detail: 'real Codex 0.171.0 sessions replayed through the adapter (vendor captures)' },
};
