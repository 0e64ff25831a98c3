/**
 * Every `aep relay` setting in one place: names, defaults, and parsing with clear errors.
 * Pure: reads only the env object and flag values it is given.
 */
import { CONSOLE_PORT, RELAY_PORT } from '../integrations/registry.js';

/** The relay's settings. Every member has a default; see `DEFAULTS`. */
export interface RelayConfig {
  /** Interface to bind. `--host` / `AEP_HOST`, default `127.0.0.1`. */
  readonly host: string;
  /** TCP port. `--port` / `AEP_PORT`, default the registry's `RELAY_PORT`; `0` binds an ephemeral port. */
  readonly port: number;
  /**
   * Bearer token. `AEP_TOKEN`, default unset. Unset: observation is open and the relay is
   * watch-only (every command is refused `unauthorized`). Set: every endpoint except
   * `/healthz`, discovery and CORS preflight requires it, and commands are routed.
   */
  readonly token: string | undefined;
  /** Replay buffer depth, in events per session. `AEP_BUFFER`, default `10000`. */
  readonly buffer: number;
  /** Sessions held at once; the least recently written is evicted. `AEP_MAX_SESSIONS`, default `500`. */
  readonly maxSessions: number;
  /** Largest POST body, and largest WebSocket frame, in bytes. `AEP_MAX_BODY`, default 16 MiB. */
  readonly maxBody: number;
  /** Most events in one NDJSON batch. `AEP_MAX_BATCH`, default `10000`. */
  readonly maxBatch: number;
  /** Most resume positions in one `from`. `AEP_MAX_FROM`, default = `maxSessions`. */
  readonly maxFrom: number;
  /** Most concurrent subscriptions on one WebSocket. `AEP_MAX_SUBS`, default `64`. */
  readonly maxSubscriptions: number;
  /** SSE `: ping` interval in ms. `AEP_HEARTBEAT_MS`, default `15000` (the spec asks for at most 30 s). */
  readonly heartbeatMs: number;
  /**
   * Origins a browser page may read the relay from (CORS). `AEP_CORS_ORIGINS`, a comma-separated
   * list of origins such as the console's (`http://127.0.0.1:` and its port). Unset: `*` (any origin; the
   * bearer token still guards). Set: the request's Origin is echoed when listed, and the first
   * listed origin is named otherwise, so no other page can read a reply.
   */
  readonly corsOrigins?: readonly string[] | undefined;
}

export const DEFAULTS: RelayConfig = Object.freeze({
  host: '127.0.0.1',
  port: RELAY_PORT,
  token: undefined,
  buffer: 10_000,
  maxSessions: 500,
  maxBody: 16 * 1024 * 1024,
  maxBatch: 10_000,
  maxFrom: 500,
  maxSubscriptions: 64,
  heartbeatMs: 15_000,
});

/** A bad setting: names the variable or flag, the value, and what is allowed. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Flag values as parsed by the verb; each overrides its environment variable. */
export interface RelayFlags {
  readonly host?: string | undefined;
  readonly port?: string | undefined;
}

const INTEGER = /^\d+$/;

function integer(name: string, raw: string | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (raw === undefined || raw === '') return fallback;
  const text = raw.trim();
  const value = INTEGER.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer from ${min} to ${max}`;
    throw new ConfigError(`${name}=${JSON.stringify(raw)} is not valid: expected ${range}`);
  }
  return value;
}

/**
 * Build the configuration from the environment and flags. Throws ConfigError on the first
 * bad value. Call once at start; the result is frozen.
 */
export function parseRelayConfig(env: Readonly<Record<string, string | undefined>>, flags: RelayFlags = {}): RelayConfig {
  const host = flags.host ?? env.AEP_HOST ?? DEFAULTS.host;
  if (host.trim() === '') throw new ConfigError(`${flags.host !== undefined ? '--host' : 'AEP_HOST'} is empty: give an interface address such as 127.0.0.1`);
  const port = integer(flags.port !== undefined ? '--port' : 'AEP_PORT', flags.port ?? env.AEP_PORT, DEFAULTS.port, 0, 65_535);
  const token = env.AEP_TOKEN === undefined || env.AEP_TOKEN === '' ? undefined : env.AEP_TOKEN;
  if (token !== undefined && /\s/.test(token)) throw new ConfigError('AEP_TOKEN contains whitespace: a bearer token is one word');
  const maxSessions = integer('AEP_MAX_SESSIONS', env.AEP_MAX_SESSIONS, DEFAULTS.maxSessions, 1);
  return Object.freeze({
    host: host.trim(),
    port,
    token,
    buffer: integer('AEP_BUFFER', env.AEP_BUFFER, DEFAULTS.buffer, 1),
    maxSessions,
    maxBody: integer('AEP_MAX_BODY', env.AEP_MAX_BODY, DEFAULTS.maxBody, 1024),
    maxBatch: integer('AEP_MAX_BATCH', env.AEP_MAX_BATCH, DEFAULTS.maxBatch, 1),
    maxFrom: integer('AEP_MAX_FROM', env.AEP_MAX_FROM, maxSessions, 1),
    maxSubscriptions: integer('AEP_MAX_SUBS', env.AEP_MAX_SUBS, DEFAULTS.maxSubscriptions, 1),
    heartbeatMs: integer('AEP_HEARTBEAT_MS', env.AEP_HEARTBEAT_MS, DEFAULTS.heartbeatMs, 10, 30_000),
    corsOrigins: corsOrigins(env.AEP_CORS_ORIGINS),
  });
}

/** `AEP_CORS_ORIGINS`: undefined when unset or empty; otherwise each entry must be a bare origin. */
function corsOrigins(raw: string | undefined): readonly string[] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const list = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const o of list) {
    let origin: string | undefined;
    try {
      origin = new URL(o).origin;
    } catch {
      origin = undefined;
    }
    if (origin !== o.replace(/\/$/, '') || origin === 'null') {
      throw new ConfigError(`AEP_CORS_ORIGINS entry ${JSON.stringify(o)} is not an origin: give scheme://host[:port] with nothing after it, e.g. http://127.0.0.1:${CONSOLE_PORT}`);
    }
  }
  return Object.freeze(list.map((o) => o.replace(/\/$/, '')));
}
