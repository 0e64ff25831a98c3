/**
 * Daemon configuration from flags and environment, pure (the CLI verbs pass `process.env`).
 *
 * | setting | flag | environment | default |
 * |---|---|---|---|
 * | port | `--port` | `AEP_<AGENT>_PORT` (the descriptor's `portEnv`), then `AEP_ADAPTER_PORT` | the adapter's port (impl/integrations/registry.ts) |
 * | relay | `--relay` | `AEP_RELAY_URL` (the deprecated `AEP_RELAY` when unset) | the relay's default URL (impl/integrations/registry.ts); `none` disables the link |
 * | token | `--token` | `AEP_TOKEN` | none |
 * | home | | `AEP_HOME` | `~/.aep` |
 * | capture | | `AEP_CAPTURE`, `AEP_CAPTURE_ATTENTION` | `metadata`, `redacted` |
 * | hold | | `AEP_<AGENT>_HOLD_MS` (e.g. `AEP_CODEX_HOLD_MS`), then `AEP_ATTENTION_TIMEOUT_MS` | the adapter's `holdMs` (Codex 20 000), else 55 000 |
 * | link grace | | `AEP_LINK_GRACE_MS` (0: a request raised while the relay link is down is answered neutrally at once) | 10 000 |
 * | steering | | `AEP_INSTRUCT=1` (`0` or empty: off; anything else is an error) | off |
 */
import { DEFAULT_RELAY_URL, relayUrlFromEnv } from '../integrations/registry.js';
import { postureFromEnv } from './capture.js';
import { DEFAULT_LINK_GRACE_MS } from './held-requests.js';
import { aepHome } from './store.js';
import type { AdapterOptions } from './daemon.js';

export type Env = Record<string, string | undefined>;

/** An agent's port variable, `AEP_<AGENT>_PORT` (the rule every descriptor's `portEnv` follows; tested). */
export function portEnvName(agent: string): string {
  return `AEP_${agent.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_PORT`;
}

function parsePort(value: string, what: string): number | string {
  if (!/^[0-9]+$/.test(value) || Number(value) > 65535) return `${what} must be a port number 0-65535, got '${value}'`;
  return Number(value);
}

/** The daemon port for an agent; an error string for a malformed value. */
export function resolvePort(agent: string, defaultPort: number, flag: string | undefined, env: Env): number | string {
  if (flag !== undefined) return parsePort(flag, '--port');
  const specific = env[portEnvName(agent)];
  if (specific) return parsePort(specific, portEnvName(agent));
  if (env.AEP_ADAPTER_PORT) return parsePort(env.AEP_ADAPTER_PORT, 'AEP_ADAPTER_PORT');
  return defaultPort;
}

/** The hold window when neither the environment nor the adapter names one. */
export const DEFAULT_HOLD_MS = 55_000;

/** `codex` → `AEP_CODEX_HOLD_MS`. */
export function holdEnvName(agent: string): string {
  return `AEP_${agent.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_HOLD_MS`;
}

/** A positive integer of milliseconds from `env[name]`; undefined when unset or empty; an error string when malformed. */
function readMs(env: Env, name: string): number | string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1) return `${name} must be a positive integer of milliseconds, got '${raw}'`;
  return Number(raw);
}

/** `AEP_ATTENTION_TIMEOUT_MS`, else `fallback` (default 55 000); an error string when it is not a positive integer. */
export function attentionTimeout(env: Env, fallback: number = DEFAULT_HOLD_MS): number | string {
  return readMs(env, 'AEP_ATTENTION_TIMEOUT_MS') ?? fallback;
}

/**
 * The hold window of an adapter: `AEP_<AGENT>_HOLD_MS`, then `AEP_ATTENTION_TIMEOUT_MS`, then the
 * adapter's own default (`AdapterDef.holdMs`), then 55 000. An error string names the bad variable.
 */
export function holdWindow(agent: string, defaultMs: number | undefined, env: Env): number | string {
  return readMs(env, holdEnvName(agent)) ?? attentionTimeout(env, defaultMs ?? DEFAULT_HOLD_MS);
}

/**
 * `AEP_LINK_GRACE_MS`: how long a held request raised while the relay link is down waits for the
 * link before the neutral reply (a whole number of ms, 0 allowed); default 10 000; an error string
 * when malformed.
 */
export function linkGraceFromEnv(env: Env): number | string {
  const raw = env.AEP_LINK_GRACE_MS;
  if (raw === undefined || raw === '') return DEFAULT_LINK_GRACE_MS;
  if (!/^[0-9]+$/.test(raw)) return `AEP_LINK_GRACE_MS must be a whole number of milliseconds (0 answers at once), got '${raw}'`;
  return Number(raw);
}

/** `AEP_INSTRUCT`: `1` on; unset, empty or `0` off; an error string for anything else. */
export function instructFromEnv(env: Env): boolean | string {
  const raw = env.AEP_INSTRUCT;
  if (raw === undefined || raw === '' || raw === '0') return false;
  if (raw === '1') return true;
  return `AEP_INSTRUCT must be 1 (accept steering) or 0 (refuse it, the default), got '${raw}'`;
}

/** Everything `startAdapter` needs, from flags and environment; an error string on a bad value. */
export function daemonOptions(
  agent: string,
  defaultPort: number,
  flags: { port?: string; relay?: string; token?: string },
  env: Env,
  defaultHoldMs?: number,
): Omit<AdapterOptions, 'log' | 'onEmit'> | string {
  const port = resolvePort(agent, defaultPort, flags.port, env);
  if (typeof port === 'string') return port;
  const posture = postureFromEnv(env);
  if (typeof posture === 'string') return posture;
  const attentionTimeoutMs = holdWindow(agent, defaultHoldMs, env);
  if (typeof attentionTimeoutMs === 'string') return attentionTimeoutMs;
  const instruct = instructFromEnv(env);
  if (typeof instruct === 'string') return instruct;
  const linkGraceMs = linkGraceFromEnv(env);
  if (typeof linkGraceMs === 'string') return linkGraceMs;
  const relay = flags.relay ?? relayUrlFromEnv(env).url ?? DEFAULT_RELAY_URL;
  if (relay !== 'none') {
    try {
      const u = new URL(relay);
      if (!['http:', 'https:', 'ws:', 'wss:'].includes(u.protocol)) return `--relay must be an http(s) or ws(s) URL, got '${relay}'`;
    } catch {
      return `--relay must be a URL such as ${DEFAULT_RELAY_URL}, got '${relay}'`;
    }
  }
  const token = flags.token ?? env.AEP_TOKEN;
  return {
    port,
    ...(relay === 'none' ? {} : { relay }),
    ...(token ? { token } : {}),
    home: aepHome(env),
    posture,
    attentionTimeoutMs,
    linkGraceMs,
    instruct,
  };
}
