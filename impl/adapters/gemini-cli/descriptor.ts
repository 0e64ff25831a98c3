/** The Gemini CLI adapter's descriptor (impl/integrations/descriptor.ts explains the fields). */
import type { Descriptor } from '../../integrations/descriptor.js';
import { DEVIATIONS } from './deviations.js';

export const descriptor: Descriptor = {
  kind: 'adapter',
  role: 'hook-adapter',
  name: 'gemini-cli',
  aliases: ['gemini'],
  vendor: 'Gemini CLI',
  surface: '`.gemini/settings.json` command hooks through `aep hook` (0.61.0)',
  identity: { session: '`session_id`', run: 'one run minted per BeforeAgent, closed by AfterAgent' },
  classes: ['Emitter'],
  emits: ['session', 'run', 'tool', 'progress'],
  postures: [{ name: 'default', env: {}, summary: 'observe-only: no control block; every command is refused unsupported', accepts: null }],
  forms: [],
  steering: [],
  deviations: DEVIATIONS,
  port: 8379,
  portEnv: 'AEP_GEMINI_CLI_PORT',
  neutral: { reply: '{}', reads: 'json' },
  env: [],
  settings: { homeDir: '.gemini', file: 'settings.json', note: 'Gemini CLI reads it at start' },
  reference: ['adapter-gemini-cli/map-hooks'],
  configs: ['impl/adapters/gemini-cli/settings.example.json'],
  verification: { status: 'captured', detail: 'real Gemini CLI 0.61.0 sessions replayed through the shim (vendor captures)' },
};
