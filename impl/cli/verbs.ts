import type { Verb } from './verb.js';

/**
 * Every verb, loaded lazily so `aep validate` never pays for the relay's imports.
 * Adding a verb: one file under impl/cli/ exporting `verb`, plus one line here.
 */
export const VERBS: Record<string, { summary: string; load: () => Promise<Verb> }> = {
  validate: { summary: 'validate a JSONL stream of AEP events (file or -)', load: async () => (await import('./validate.js')).verb },
  conformance: { summary: 'run the conformance fixture corpus and write the report', load: async () => (await import('./conformance.js')).verb },
  adapter: { summary: 'run a vendor adapter daemon (hooks in, AEP events out)', load: async () => (await import('./adapter.js')).verb },
  hook: { summary: 'fail-open hook shim: vendor hook stdin -> adapter daemon -> vendor reply', load: async () => (await import('./hook.cjs')).verb },
  'check-live': { summary: 'check a running relay (and a control target) against the standard live checks', load: async () => (await import('./check-live.js')).verb },
  'demo-agent': { summary: 'run a synthetic control-capable target (owns a session with an open run)', load: async () => (await import('./demo-agent.js')).verb },
  bridge: { summary: 'run an AEP-0005 bridge: ce / otlp sidecars out, protocol bridges in', load: async () => (await import('./bridge.js')).verb },
  relay: { summary: 'run the collector/relay (HTTP ingest, SSE, WebSocket, control routing)', load: async () => (await import('./relay.js')).verb },
  respond: { summary: 'answer an attention request over control (exit 0 accepted, 3 nacked, 4 timeout)', load: async () => (await import('./respond.js')).verb },
  tail: { summary: 'follow the relay, one readable line per event; --attention lists open requests', load: async () => (await import('./tail.js')).verb },
  sink: { summary: 'durable JSONL capture per session (fsync before state, crash repair, rotation)', load: async () => (await import('./sink.js')).verb },
  timeline: { summary: "one session's history from a file or the relay's replay; --dag draws the causal tree", load: async () => (await import('./timeline.js')).verb },
  demo: { summary: 'play the five-beat demo (relay, adapter daemon, demo agent, tail, respond, cancel)', load: async () => (await import('./demo.js')).verb },
  replay: { summary: 'replay a capture as new sessions (fresh identity, cause links rewritten, commands skipped)', load: async () => (await import('./replay.js')).verb },
  doctor: { summary: 'diagnose reachability, auth, CORS and the managed daemons (exit 0 clean, 1 findings)', load: async () => (await import('./doctor.js')).verb },
  setup: { summary: 'start/stop the managed daemons (pid files, port catalog) and write vendor hook wiring', load: async () => (await import('./setup.js')).verb },
  mcp: { summary: "MCP stdio server: emit_event and ask_human on the adapters' emission path", load: async () => (await import('./mcp.js')).verb },
  console: { summary: 'serve Mission Control, the web console (lanes, attention inbox, control) on 127.0.0.1', load: async () => (await import('../console/verb.js')).verb },
  certify: { summary: 'certify one of our adapters against a vendor release: scenarios, hook-surface diff, page', load: async () => (await import('./certify.js')).verb },
  cancel: { summary: 'cancel a run or a session over control (exit 0 accepted, 3 nacked, 4 timeout)', load: async () => (await import('./cancel.js')).verb },
};
