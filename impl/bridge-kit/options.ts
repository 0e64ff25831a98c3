/**
 * Flags and environment shared by every inbound bridge, pure:
 *
 * | setting | flag | environment | default |
 * |---|---|---|---|
 * | port | `--port N` | the bridge's own (its descriptor's `portEnv`) | the bridge's reference port |
 * | relay | `--relay URL` | `AEP_RELAY_URL` (old name `AEP_RELAY`) | the relay's default URL; `none` disables |
 * | token | `--token T` | `AEP_TOKEN` | none |
 * | home | | `AEP_HOME` | `~/.aep` |
 * | capture | | `AEP_CAPTURE`, `AEP_CAPTURE_ATTENTION` | metadata, redacted |
 */
import { postureFromEnv } from '../adapter-kit/capture.js';
import { DEFAULT_RELAY_URL, relayUrlFromEnv } from '../integrations/registry.js';
import { aepHome } from '../adapter-kit/store.js';
import type { Posture } from '../adapter-kit/types.js';

export interface InboundOptions {
  port: number;
  relay?: string;
  token?: string;
  home: string;
  posture: Posture;
}

/** The options of one inbound bridge, or an error string naming the bad flag or variable. */
export function inboundOptions(values: Record<string, unknown>, env: Record<string, string | undefined>, defaultPort: number, portEnv: string): InboundOptions | string {
  const rawPort = typeof values.port === 'string' ? values.port : env[portEnv];
  let port = defaultPort;
  if (rawPort !== undefined && rawPort !== '') {
    if (!/^[0-9]+$/.test(rawPort) || Number(rawPort) > 65535) return `${typeof values.port === 'string' ? '--port' : portEnv} must be a port number 0-65535, got '${rawPort}'`;
    port = Number(rawPort);
  }
  const posture = postureFromEnv(env);
  if (typeof posture === 'string') return posture;
  const relay = typeof values.relay === 'string' ? values.relay : (relayUrlFromEnv(env).url ?? DEFAULT_RELAY_URL);
  if (relay !== 'none') {
    try {
      const u = new URL(relay);
      if (!['http:', 'https:', 'ws:', 'wss:'].includes(u.protocol)) throw new Error();
    } catch {
      return `--relay must be an http(s) or ws(s) URL such as ${DEFAULT_RELAY_URL} (or 'none'), got '${relay}'`;
    }
  }
  const token = typeof values.token === 'string' ? values.token : env.AEP_TOKEN;
  return { port, ...(relay === 'none' ? {} : { relay }), ...(token ? { token } : {}), home: aepHome(env), posture };
}
