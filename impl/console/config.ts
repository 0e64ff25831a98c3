/**
 * `aep console` settings, pure: the port, the relays (each with its own token) and the capture
 * ceiling the page asks for. Reads only the env object, the flag values and the token-file
 * reader it is given.
 *
 * Tokens never come from argv (where `ps` shows them to every user of the machine): a relay's
 * token is read from a file (`--token-file F`, paired in order with `--relay`) or from
 * `AEP_TOKEN`. `--relay URL=TOKEN` is refused with the way to do it instead.
 */
import { CONSOLE_PORT, CONSOLE_PORT_ENV, DEFAULT_RELAY_URL } from '../integrations/registry.js';
import { CAPTURE_ORDER, type CaptureLevel } from '../core/event.js';

/** The console's port when neither `--port` nor its variable is given (the registry's). */
export const DEFAULT_CONSOLE_PORT = CONSOLE_PORT;
/** The relay watched when no `--relay` is given (the relay's own default address). */
export { DEFAULT_RELAY_URL };

export interface ConsoleRelay {
  /** Stable index-based id (`r0`, `r1`, ...): what the page and the console's relay routes name. */
  readonly id: string;
  /** The relay's base URL, normalized (no trailing slash, no query). */
  readonly url: string;
  /** The bearer token for this relay, if any. Stays in the console's server: never sent to the page, logged, or put in a URL. */
  readonly token: string | undefined;
}

export interface ConsoleConfig {
  readonly port: number;
  readonly relays: readonly ConsoleRelay[];
  /** The ceiling the page's subscriptions ask for (`capture=`); undefined: as the relay holds it. */
  readonly capture: CaptureLevel | undefined;
  /** Things the operator should know (a deprecated variable was used); printed at start. */
  readonly warnings: readonly string[];
}

export class ConsoleConfigError extends Error {
  override name = 'ConsoleConfigError';
}

export interface ConsoleFlags {
  readonly relay?: readonly string[] | undefined;
  readonly tokenFile?: readonly string[] | undefined;
  readonly port?: string | undefined;
  readonly capture?: string | undefined;
}

/** Reads a token file's text (I/O, injected); throws with a message when it cannot. */
export type ReadTokenFile = (path: string) => string;

const noFiles: ReadTokenFile = (path) => {
  throw new Error(`cannot read ${path}`);
};

/** A token file's content: one word, surrounding whitespace (a final newline) ignored. */
export function tokenFromFile(path: string, text: string): string {
  const token = text.trim();
  if (token === '' || /\s/.test(token)) throw new ConsoleConfigError(`--token-file ${path}: the file must hold the relay's token as one word (found ${token === '' ? 'nothing' : 'several words'})`);
  return token;
}

/** One `--relay` value: a base URL. A token after `=` is refused (argv is readable by every user). */
export function parseRelaySpec(spec: string, index: number, token: string | undefined): ConsoleRelay {
  const eq = spec.indexOf('=');
  const rawUrl = (eq < 0 ? spec : spec.slice(0, eq)).trim();
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new ConsoleConfigError(`--relay ${JSON.stringify(rawUrl)} is not a URL: give the relay's base URL, e.g. --relay ${DEFAULT_RELAY_URL}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConsoleConfigError(`--relay ${JSON.stringify(rawUrl)}: use an http:// or https:// base URL (the console derives the /stream and /socket endpoints)`);
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new ConsoleConfigError(`--relay ${JSON.stringify(url.origin)}...: give a base URL without query, fragment or credentials; put the token in a file (--token-file F) or AEP_TOKEN`);
  }
  if (eq >= 0) {
    throw new ConsoleConfigError(
      `--relay ${url.origin}=...: a token on the command line is readable by every user of this machine (ps); write it to a file readable by you only and give --relay ${url.origin} --token-file FILE, or set AEP_TOKEN`,
    );
  }
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  return { id: `r${index}`, url: base, token };
}

function port(name: string, raw: string): number {
  const text = raw.trim();
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value > 65_535) throw new ConsoleConfigError(`${name}=${JSON.stringify(raw)} is not valid: expected an integer from 0 to 65535 (0 picks a free port)`);
  return value;
}

const set = (v: string | undefined): v is string => v !== undefined && v !== '';

export function parseConsoleConfig(flags: ConsoleFlags, env: Readonly<Record<string, string | undefined>>, readTokenFile: ReadTokenFile = noFiles): ConsoleConfig {
  const warnings: string[] = [];
  const fallbackToken = set(env.AEP_TOKEN) ? env.AEP_TOKEN : undefined;
  let specs: readonly string[];
  if (flags.relay !== undefined && flags.relay.length > 0) specs = flags.relay;
  else if (set(env.AEP_RELAY_URL)) specs = [env.AEP_RELAY_URL];
  else if (set(env.AEP_RELAY)) {
    specs = [env.AEP_RELAY];
    warnings.push('AEP_RELAY is read as an alias of AEP_RELAY_URL for aep console; set AEP_RELAY_URL instead');
  } else specs = [DEFAULT_RELAY_URL];
  const files = flags.tokenFile ?? [];
  if (files.length > 0 && files.length !== specs.length) {
    throw new ConsoleConfigError(`--token-file is given ${files.length} time(s) for ${specs.length} relay(s): give one --token-file per --relay, in the same order (or none, and AEP_TOKEN for all)`);
  }
  const tokens = files.map((f) => {
    let text: string;
    try {
      text = readTokenFile(f);
    } catch (err) {
      throw new ConsoleConfigError(`--token-file ${f}: ${err instanceof Error ? err.message : String(err)}`);
    }
    return tokenFromFile(f, text);
  });
  const relays = specs.map((s, i) => parseRelaySpec(s, i, tokens[i] ?? fallbackToken));
  const seen = new Set<string>();
  for (const r of relays) {
    if (seen.has(r.url)) throw new ConsoleConfigError(`--relay ${r.url} is given twice: name each relay once`);
    seen.add(r.url);
  }
  const p = flags.port !== undefined ? port('--port', flags.port) : set(env[CONSOLE_PORT_ENV]) ? port(CONSOLE_PORT_ENV, env[CONSOLE_PORT_ENV]) : DEFAULT_CONSOLE_PORT;
  let capture: CaptureLevel | undefined;
  if (flags.capture !== undefined) {
    if (!(CAPTURE_ORDER as readonly string[]).includes(flags.capture)) throw new ConsoleConfigError(`--capture ${JSON.stringify(flags.capture)} is not a capture level: use none, metadata, redacted or full`);
    capture = flags.capture as CaptureLevel;
  }
  return Object.freeze({ port: p, relays: Object.freeze(relays), capture, warnings: Object.freeze(warnings) });
}
