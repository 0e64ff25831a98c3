/**
 * What an integration's `mappers.ts` exports (`mappers`), loaded lazily by the registry
 * (registry.ts `Integration.mappers()`): the pure mappers the conformance families and the live
 * replays call. Types only: the registry imports no mapper.
 */

/** The pure mappers of one source. Members may be called any number of times, in any order. */
export interface SourceMappers {
  /**
   * One vendor hook payload → `{type, data, subject?, step?}` or null (or an array of those, for
   * the array mappers), at the default posture. `entry` carries the entry's own `hook` name and
   * `join` (the daemon's join result), for mappers whose payloads do not name their hook (Antigravity).
   */
  mapHook?(input: Record<string, unknown>, entry?: { hook?: string; join?: unknown }): unknown;
  /** One plugin moment (`moments` sections) → the same, or null. */
  mapMoment?(input: Record<string, unknown>): unknown;
  /** Two todo snapshots (`todos` sections) → the list of transition events. */
  diffTodos?(prev: unknown, next: unknown): unknown;
  /** One bus event (`events` sections) → the same, or null; `deltas` is the stream-update opt-in. */
  mapEvent?(input: Record<string, unknown>, opts?: { deltas?: boolean }): unknown;
  /** AEP-0006 form mappings (`{prompt, fields}`), for sources that have them. */
  mapAskUserQuestion?(questions: unknown, opts: { agent: string; contentOk: boolean }): unknown;
  mapElicitation?(message: unknown, requestedSchema: unknown, opts: { agent: string; contentOk: boolean }): unknown;
}

/** The inbound bridges' pure mappers, as the bridges family calls them. Every member may be called any number of times, in any order. */
export interface BridgeMappers {
  /** OTel log record mappers, by mapping file (`codex-otel`, `vscode-otel`). */
  otelRecords: Readonly<Record<string, (record: unknown, opts: { mode: 'companion' | 'primary' }) => unknown>>;
  acpMoment(moment: unknown, opts: { deltas?: boolean; ceiling?: 'redacted' }): unknown;
  /** Event mappers, by mapping file (`openhands`, `agui`). */
  eventMappers: Readonly<Record<string, (event: Record<string, unknown>, opts: { deltas?: boolean }) => unknown>>;
  statusMoments(prev: string | null, next: string): unknown;
  /** SSE/WS mode policies, chosen by the file name's vendor prefix. */
  modePolicies: Readonly<Record<string, (event: unknown, mode: 'companion' | 'primary') => unknown>>;
}
