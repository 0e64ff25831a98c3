/**
 * Daemon configuration from flags and environment, pure (the CLI verbs pass `process.env`).
 *
 * | setting | flag | environment | default |
 * |---|---|---|---|
 * | port | `--port` | `AEP_<AGENT>_PORT` (e.g. `AEP_CLAUDE_CODE_PORT`), then `AEP_ADAPTER_PORT` | the adapter's port (8377 Claude Code, 8378 Codex) |
 * | relay | `--relay` | `AEP_RELAY_URL` | `http://127.0.0.1:8787`; `none` disables the link |
 * | token | `--token` | `AEP_TOKEN` | none |
 * | home | | `AEP_HOME` | `~/.aep` |
 * | capture | | `AEP_CAPTURE`, `AEP_CAPTURE_ATTENTION` | `metadata`, `redacted` |
 * | hold | | `AEP_ATTENTION_TIMEOUT_MS` | 55 000 |
 * | steering | | `AEP_INSTRUCT=1` | off |
 */
import { postureFromEnv } from './capture.js';
import { aepHome } from './store.js';
import type { AdapterOptions } from './daemon.js';

export type Env = Record<string, string | undefined>;

/** `claude-code` → `AEP_CLAUDE_CODE_PORT`. */
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

/** `AEP_ATTENTION_TIMEOUT_MS` (default 55 000); an error string when it is not a positive integer. */
export function attentionTimeout(env: Env): number | string {
  const raw = env.AEP_ATTENTION_TIMEOUT_MS;
  if (raw === undefined || raw === '') return 55_000;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1) return `AEP_ATTENTION_TIMEOUT_MS must be a positive integer of milliseconds, got '${raw}'`;
  return Number(raw);
}

/** Everything `startAdapter` needs, from flags and environment; an error string on a bad value. */
export function daemonOptions(
  agent: string,
  defaultPort: number,
  flags: { port?: string; relay?: string; token?: string },
  env: Env,
): Omit<AdapterOptions, 'log' | 'onEmit'> | string {
  const port = resolvePort(agent, defaultPort, flags.port, env);
  if (typeof port === 'string') return port;
  const posture = postureFromEnv(env);
  if (typeof posture === 'string') return posture;
  const attentionTimeoutMs = attentionTimeout(env);
  if (typeof attentionTimeoutMs === 'string') return attentionTimeoutMs;
  const relay = flags.relay ?? env.AEP_RELAY_URL ?? 'http://127.0.0.1:8787';
  if (relay !== 'none') {
    try {
      const u = new URL(relay);
      if (!['http:', 'https:', 'ws:', 'wss:'].includes(u.protocol)) return `--relay must be an http(s) or ws(s) URL, got '${relay}'`;
    } catch {
      return `--relay must be a URL such as http://127.0.0.1:8787, got '${relay}'`;
    }
  }
  const instruct = env.AEP_INSTRUCT ?? '';
  if (!['', '0', '1'].includes(instruct)) return `AEP_INSTRUCT must be 1 (accept steering) or 0 (refuse it, the default), got '${instruct}'`;
  const token = flags.token ?? env.AEP_TOKEN;
  return {
    port,
    ...(relay === 'none' ? {} : { relay }),
    ...(token ? { token } : {}),
    home: aepHome(env),
    posture,
    attentionTimeoutMs,
    instruct: env.AEP_INSTRUCT === '1',
  };
}
