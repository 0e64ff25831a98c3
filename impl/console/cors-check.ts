/**
 * `aep doctor`'s console lane: does the relay let pages of other sites read it? (The console
 * itself needs no CORS any more: its page reaches the relays through the console's server.)
 * `judgeConsoleCors` is pure (the preflight's allow-origin in, a line out); `consoleCorsLines`
 * sends the one preflight, with the console's origin (port from the console's port variable, impl/integrations/registry.ts).
 */
import type { Line } from '../operator/doctor-findings.js';
import { CONSOLE_PORT_ENV } from '../integrations/registry.js';
import { DEFAULT_CONSOLE_PORT } from './config.js';

export function consoleOrigin(env: Readonly<Record<string, string | undefined>>): string {
  const raw = env[CONSOLE_PORT_ENV];
  const port = raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : DEFAULT_CONSOLE_PORT;
  return `http://127.0.0.1:${port}`;
}

/**
 * The verdict on a preflight from the console's origin: `allowOrigin` is its
 * access-control-allow-origin, or undefined when absent or unreachable. The console no longer
 * needs CORS (its page reaches the relays through the console's server, which holds the
 * tokens), so a relay that names no page is fine; `*` lets every site's page read it.
 */
export function judgeConsoleCors(origin: string, allowOrigin: string | undefined, error?: string): Line {
  if (error !== undefined) return { level: 'info', lane: 'cors', message: `console origin ${origin}: not checked (${error})` };
  if (allowOrigin === '*') {
    return {
      level: 'warning',
      lane: 'cors',
      message: 'the relay lets any page read it (access-control-allow-origin: *); aep console does not need CORS (it reads the relay from its own server)',
      remedy: 'start the relay with AEP_CORS_ORIGINS naming only the origins of pages that must read it (the console needs none)',
    };
  }
  if (allowOrigin === undefined) return { level: 'ok', lane: 'cors', message: `no other page may read the relay; the console at ${origin} reads it from its own server (no CORS needed)` };
  if (allowOrigin === origin) return { level: 'ok', lane: 'cors', message: `the relay names the console's origin ${origin} only (the console reads it from its own server: no CORS needed)` };
  return { level: 'info', lane: 'cors', message: `the relay lets the page at ${allowOrigin} read it (the console needs no CORS)` };
}

export async function consoleCorsLines(relay: string, env: Readonly<Record<string, string | undefined>>): Promise<Line[]> {
  const origin = consoleOrigin(env);
  try {
    const res = await fetch(`${relay.replace(/\/+$/, '')}/stream`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      signal: AbortSignal.timeout(3000),
    });
    await res.arrayBuffer().catch(() => undefined);
    return [judgeConsoleCors(origin, res.headers.get('access-control-allow-origin') ?? undefined)];
  } catch (err) {
    return [judgeConsoleCors(origin, undefined, err instanceof Error ? err.message : String(err))];
  }
}
