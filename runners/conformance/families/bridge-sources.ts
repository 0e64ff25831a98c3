/**
 * Which mapping files the bridges family (bridges.ts) reads, so the mappings family (adapters)
 * does not report them as unrun. Kept apart from both family files so neither imports the other.
 */

/** Mapping files (`mappings/<source>.json`) whose every section belongs to an inbound bridge. */
export const BRIDGE_SOURCES: readonly string[] = ['codex-otel', 'vscode-otel', 'acp', 'openhands', 'agui', 'opencode-sse', 'kilocode-sse', 'kimi-code-web'];


/** Sections of adapter mapping files that the bridges family reads (the SSE and WebSocket bridges' mode policies). */
export const BRIDGE_SECTIONS: readonly string[] = ['sse_modes', 'ws_modes'];
