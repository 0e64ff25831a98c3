/**
 * Which mapping files the bridges family (bridges.ts) reads, and which integration each of its
 * checks exercises, so the mappings family (adapters) does not report them as unrun. Kept apart
 * from both family files so neither imports the other. Derived from the registry: each bridge's
 * descriptor names its corpus files (`corpus`).
 */
import { BRIDGE_INTEGRATIONS } from '../../../impl/integrations/registry.js';

/**
 * Mapping files (`mappings/<source>.json`) whose every section belongs to an inbound bridge, and
 * the bridge (its registry name) whose mapper they pin: each bridge's descriptor `corpus.sources`.
 */
export const BRIDGE_OF_SOURCE: Readonly<Record<string, string>> = Object.fromEntries(
  BRIDGE_INTEGRATIONS.flatMap((i) => (i.descriptor.corpus?.sources ?? []).map((source) => [source, i.name] as const)),
);

export const BRIDGE_SOURCES: readonly string[] = Object.keys(BRIDGE_OF_SOURCE);

/** The bridge a source file belongs to: its own entry, or that of the source it extends (`acp-zed` is `acp`'s). */
export function bridgeOfSource(source: string): string | undefined {
  if (Object.prototype.hasOwnProperty.call(BRIDGE_OF_SOURCE, source)) return BRIDGE_OF_SOURCE[source];
  const base = Object.keys(BRIDGE_OF_SOURCE).filter((k) => source.startsWith(`${k}-`)).sort((a, b) => b.length - a.length)[0];
  return base === undefined ? undefined : BRIDGE_OF_SOURCE[base];
}

/** The SSE and WebSocket bridges' mode policies, by the vendor prefix of the file that pins them, and the bridge each belongs to (descriptor `corpus.modePolicies`). */
export const BRIDGE_OF_MODE_POLICY: Readonly<Record<string, string>> = Object.fromEntries(
  BRIDGE_INTEGRATIONS.flatMap((i) => (i.descriptor.corpus?.modePolicies ?? []).map((prefix) => [prefix, i.name] as const)),
);

/** Sections of adapter mapping files that the bridges family reads (the SSE and WebSocket bridges' mode policies). */
export const BRIDGE_SECTIONS: readonly string[] = ['sse_modes', 'ws_modes'];

/**
 * The sections that hold one pinned entry per case (`{<label>: {input, expected, ...}}`), in
 * whichever layout a source's file uses; each goes through the source's entry mapper.
 */
export const ENTRY_SECTIONS: readonly string[] = ['hooks', 'moments', 'events', 'frames'];
