import type { Verb } from './verb.js';

/**
 * Every verb, loaded lazily so `aep validate` never pays for the relay's imports.
 * Adding a verb: one file under impl/cli/ exporting `verb`, plus one line here.
 */
export const VERBS: Record<string, { summary: string; load: () => Promise<Verb> }> = {
  validate: { summary: 'validate a JSONL stream of AEP events (file or -)', load: async () => (await import('./validate.js')).verb },
  conformance: { summary: 'run the conformance fixture corpus and write the report', load: async () => (await import('./conformance.js')).verb },
  adapter: { summary: 'run a vendor adapter daemon (hooks in, AEP events out)', load: async () => (await import('./adapter.js')).verb },
  hook: { summary: 'fail-open hook shim: vendor hook stdin -> adapter daemon -> vendor reply', load: async () => (await import('./hook.js')).verb },
  'check-live': { summary: 'check a running relay (and a control target) against the standard live checks', load: async () => (await import('./check-live.js')).verb },
  'demo-agent': { summary: 'run a synthetic control-capable target (owns a session with an open run)', load: async () => (await import('./demo-agent.js')).verb },
  bridge: { summary: 'run an AEP-0005 bridge: ce / otlp sidecars out, protocol bridges in', load: async () => (await import('./bridge.js')).verb },
  relay: { summary: 'run the collector/relay (HTTP ingest, SSE, WebSocket, control routing)', load: async () => (await import('./relay.js')).verb },
};
