/**
 * `aep console` settings, pure: the port, the relays (each with its own token) and the capture
 * ceiling the page asks for. Reads only the env object and flag values it is given.
 */
import { CONSOLE_PORT, CONSOLE_PORT_ENV, DEFAULT_RELAY_URL, relayUrlFromEnv } from '../integrations.js';
import { CAPTURE_ORDER, type CaptureLevel } from '../core/event.js';

/** The console's port when neither `--port` nor its variable is given (the registry's). */
export const DEFAULT_CONSOLE_PORT = CONSOLE_PORT;
/** The relay watched when no `--relay` is given (the relay's own default address). */
export { DEFAULT_RELAY_URL };

export interface ConsoleRelay {
  /** Stable index-based id (`r0`, `r1`, ...): what the page and the socket pipe path name. */
  readonly id: string;
  /** The relay's base URL, normalized (no trailing slash, no query). */
  readonly url: string;
  /** The bearer token for this relay, if any. Never logged, never put in a URL. */
  readonly token: string | undefined;
}

export interface ConsoleConfig {
  readonly port: number;
  readonly relays: readonly ConsoleRelay[];
  /** The ceiling the page's subscriptions ask for (`capture=`); undefined: as the relay holds it. */
  readonly capture: CaptureLevel | undefined;
}

export class ConsoleConfigError extends Error {
  override name = 'ConsoleConfigError';
}

export interface ConsoleFlags {
  readonly relay?: readonly string[] | undefined;
  readonly port?: string | undefined;
  readonly capture?: string | undefined;
}

/**
 * One `--relay` value: `URL` or `URL=TOKEN` (split at the first `=`; a relay base URL has no
 * query). A relay given without a token uses `fallbackToken` (AEP_TOKEN) when set.
 */
export function parseRelaySpec(spec: string, index: number, fallbackToken: string | undefined): ConsoleRelay {
  const eq = spec.indexOf('=');
  const rawUrl = (eq < 0 ? spec : spec.slice(0, eq)).trim();
  const rawToken = eq < 0 ? undefined : spec.slice(eq + 1);
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new ConsoleConfigError(`--relay ${JSON.stringify(rawUrl)} is not a URL: give the relay's base URL, e.g. --relay ${DEFAULT_RELAY_URL} (append =TOKEN for its token)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConsoleConfigError(`--relay ${JSON.stringify(rawUrl)}: use an http:// or https:// base URL (the console derives the /stream and /socket endpoints)`);
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new ConsoleConfigError(`--relay ${JSON.stringify(url.origin)}...: give a base URL without query, fragment or credentials; the token goes after "=" (--relay URL=TOKEN)`);
  }
  if (rawToken !== undefined && (rawToken === '' || /\s/.test(rawToken))) throw new ConsoleConfigError(`--relay ${url.origin}=...: the token after "=" must be one non-empty word`);
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  return { id: `r${index}`, url: base, token: rawToken ?? fallbackToken };
}

function port(name: string, raw: string): number {
  const text = raw.trim();
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value > 65_535) throw new ConsoleConfigError(`${name}=${JSON.stringify(raw)} is not valid: expected an integer from 0 to 65535 (0 picks a free port)`);
  return value;
}

export function parseConsoleConfig(flags: ConsoleFlags, env: Readonly<Record<string, string | undefined>>): ConsoleConfig {
  const fallbackToken = env.AEP_TOKEN === undefined || env.AEP_TOKEN === '' ? undefined : env.AEP_TOKEN;
  const specs = flags.relay !== undefined && flags.relay.length > 0 ? flags.relay : [relayUrlFromEnv(env).url || DEFAULT_RELAY_URL];
  const relays = specs.map((s, i) => parseRelaySpec(s, i, fallbackToken));
  const seen = new Set<string>();
  for (const r of relays) {
    if (seen.has(r.url)) throw new ConsoleConfigError(`--relay ${r.url} is given twice: name each relay once`);
    seen.add(r.url);
  }
  const p = flags.port !== undefined ? port('--port', flags.port) : env[CONSOLE_PORT_ENV] !== undefined && env[CONSOLE_PORT_ENV] !== '' ? port(CONSOLE_PORT_ENV, env[CONSOLE_PORT_ENV]) : DEFAULT_CONSOLE_PORT;
  let capture: CaptureLevel | undefined;
  if (flags.capture !== undefined) {
    if (!(CAPTURE_ORDER as readonly string[]).includes(flags.capture)) throw new ConsoleConfigError(`--capture ${JSON.stringify(flags.capture)} is not a capture level: use none, metadata, redacted or full`);
    capture = flags.capture as CaptureLevel;
  }
  return Object.freeze({ port: p, relays: Object.freeze(relays), capture });
}
