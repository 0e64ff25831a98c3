/**
 * The Cline hub endpoint from the environment (the Cline design record, "Gates").
 *
 * | variable | meaning | default |
 * |---|---|---|
 * | `AEP_CLINE_HUB=1` | the hub tap (observe the approval loop) | off |
 * | `AEP_CLINE_HUB_CONTROL=1` | hub control (implies the tap) | off |
 * | `AEP_CLINE_HUB_URL` + `AEP_CLINE_HUB_TOKEN` | the hub WebSocket and its bearer token | `ws://127.0.0.1:25463/hub` |
 * | `AEP_CLINE_HUB_DISCOVERY=<path>` | read `url` + `authToken` from the vendor's discovery JSON | none |
 * | `AEP_CLINE_HUB_ACK_GUARD_MS` | how long a command waits for the hub's reply | 8000 |
 *
 * The adapter never searches for the vendor's discovery file itself: the owner-scoped file name is
 * keyed by a hash of the launching program, and a fail-open observer does not guess files.
 */
import { readFileSync } from 'node:fs';

export interface HubConfig {
  url: string;
  token: string;
  /** Guard on a forwarded command's reply, in ms. */
  ackGuardMs: number;
  /** Delay before reconnecting after a lost connection, in ms. */
  reconnectMs: number;
}

export const DEFAULT_HUB_URL = 'ws://127.0.0.1:25463/hub';
export const DEFAULT_ACK_GUARD_MS = 8000;

/** The hub configuration, or an error string naming the variable to fix. */
export function hubConfigFromEnv(env: Record<string, string | undefined>): HubConfig | string {
  const guardRaw = env.AEP_CLINE_HUB_ACK_GUARD_MS;
  if (guardRaw !== undefined && guardRaw !== '' && !/^[0-9]+$/.test(guardRaw)) return `AEP_CLINE_HUB_ACK_GUARD_MS must be a whole number of milliseconds, got '${guardRaw}'`;
  const ackGuardMs = guardRaw ? Number(guardRaw) : DEFAULT_ACK_GUARD_MS;
  let url = env.AEP_CLINE_HUB_URL;
  let token = env.AEP_CLINE_HUB_TOKEN;
  if (!token && env.AEP_CLINE_HUB_DISCOVERY) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(env.AEP_CLINE_HUB_DISCOVERY, 'utf8'));
    } catch (err) {
      return `AEP_CLINE_HUB_DISCOVERY: cannot read the hub discovery file ${env.AEP_CLINE_HUB_DISCOVERY}: ${(err as Error).message}`;
    }
    const d = (parsed ?? {}) as Record<string, unknown>;
    if (typeof d.authToken !== 'string' || d.authToken === '') return `AEP_CLINE_HUB_DISCOVERY: ${env.AEP_CLINE_HUB_DISCOVERY} has no "authToken" string`;
    token = d.authToken;
    if (!url && typeof d.url === 'string') url = d.url;
  }
  if (!token) return 'the Cline hub tap needs a token: set AEP_CLINE_HUB_TOKEN (with AEP_CLINE_HUB_URL, default ws://127.0.0.1:25463/hub) or AEP_CLINE_HUB_DISCOVERY=<path of the hub discovery JSON>';
  url = url || DEFAULT_HUB_URL;
  try {
    const u = new URL(url);
    if (u.protocol !== 'ws:' && u.protocol !== 'wss:') return `AEP_CLINE_HUB_URL must be a ws:// or wss:// URL, got '${url}'`;
  } catch {
    return `AEP_CLINE_HUB_URL must be a URL such as ${DEFAULT_HUB_URL}, got '${url}'`;
  }
  return { url, token, ackGuardMs, reconnectMs: 1000 };
}
