/**
 * `aep doctor`'s console lane: may the console's page read the relay, and nothing wider?
 * `judgeConsoleCors` is pure (the preflight's allow-origin in, a line out); `consoleCorsLines`
 * sends the one preflight, with the console's origin (port from the console's port variable, impl/integrations.ts).
 */
import type { Line } from '../operator/doctor-findings.js';
import { CONSOLE_PORT_ENV } from '../integrations.js';
import { DEFAULT_CONSOLE_PORT } from './config.js';

export function consoleOrigin(env: Readonly<Record<string, string | undefined>>): string {
  const raw = env[CONSOLE_PORT_ENV];
  const port = raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : DEFAULT_CONSOLE_PORT;
  return `http://127.0.0.1:${port}`;
}

/** The verdict on a preflight from the console's origin: `allowOrigin` is its access-control-allow-origin, or undefined when absent or unreachable. */
export function judgeConsoleCors(origin: string, allowOrigin: string | undefined, error?: string): Line {
  const remedy = `start the relay with AEP_CORS_ORIGINS=${origin} (the console's origin; add others comma-separated)`;
  if (error !== undefined) return { level: 'info', lane: 'cors', message: `console origin ${origin}: not checked (${error})` };
  if (allowOrigin === origin) return { level: 'ok', lane: 'cors', message: `the console at ${origin} may read the relay, and the relay names that origin only` };
  if (allowOrigin === '*') return { level: 'warning', lane: 'cors', message: `the relay lets any page read it (access-control-allow-origin: *), wider than the console at ${origin} needs`, remedy };
  return { level: 'finding', lane: 'cors', message: `the console at ${origin} cannot read the relay (access-control-allow-origin: ${allowOrigin ?? 'absent'})`, remedy };
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
