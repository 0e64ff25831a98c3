/**
 * The options every operator verb shares (`--relay`, `--token`) and the wording of the errors
 * they all raise, pure: flag values in, a checked config or a message out.
 */
import { UsageError } from '../contract/cli.js';
import { DEFAULT_RELAY_URL, RELAY_URL_ALIAS, RELAY_URL_ENV, relayUrlFromEnv } from '../integrations/registry.js';

export const DEFAULT_RELAY = DEFAULT_RELAY_URL;

export interface RelayTarget {
  /** Base URL without a trailing slash. */
  relay: string;
  token?: string;
}

/** Why the flags could not be used; the verb turns it into a usage error (exit 2). */
export class RelayOptionError extends Error {
  override name = 'RelayOptionError';
}

/** `--relay` (else AEP_RELAY_URL, else the deprecated AEP_RELAY, else the default relay URL) and `--token` (else AEP_TOKEN). Never echoes the token. */
export function relayTarget(values: Record<string, unknown>, env: NodeJS.ProcessEnv): RelayTarget {
  const raw = typeof values.relay === 'string' ? values.relay : relayUrlFromEnv(env).url || DEFAULT_RELAY;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RelayOptionError(`--relay '${raw}' is not a URL; expected e.g. ${DEFAULT_RELAY}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RelayOptionError(`--relay must be an http:// or https:// URL, got '${raw}'`);
  const token = tokenOf(values, env);
  return { relay: raw.replace(/\/+$/, ''), ...(token ? { token } : {}) };
}

/** The bearer token: a non-empty `--token`, else a non-empty `AEP_TOKEN`, else none. */
export function tokenOf(values: Record<string, unknown>, env: NodeJS.ProcessEnv): string | undefined {
  return typeof values.token === 'string' && values.token !== '' ? values.token : env.AEP_TOKEN || undefined;
}

/** {@link relayTarget} for a verb: a flag that cannot be used is a usage error (exit 2). */
export function target(values: Record<string, unknown>, env: NodeJS.ProcessEnv): RelayTarget {
  try {
    return relayTarget(values, env);
  } catch (err) {
    if (err instanceof RelayOptionError) throw new UsageError(err.message);
    throw err;
  }
}

/** The shared flag definitions, spread into a verb's `options`. */
export const RELAY_FLAGS = {
  relay: { type: 'string' },
  token: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export const RELAY_HELP = `  --relay URL    relay base URL (default ${DEFAULT_RELAY}; env ${RELAY_URL_ENV})
  --token T      bearer token (default: the AEP_TOKEN environment variable)
  --json         machine output: one JSON object per line on stdout`;

/** The help's environment section for a verb that takes {@link RELAY_FLAGS}. */
export const RELAY_ENV_HELP = `environment:
  AEP_TOKEN       bearer token when --token is not given
  ${RELAY_URL_ENV}   relay URL when --relay is not given (${RELAY_URL_ALIAS}: the old name, read with a notice)`;

export function authHeaders(t: RelayTarget): Record<string, string> {
  return t.token ? { authorization: `Bearer ${t.token}` } : {};
}

/** The message for a relay that cannot be reached: names the URL and the doctor command. */
export function unreachable(t: RelayTarget, reason: string): string {
  return `cannot reach the relay at ${t.relay} (${reason}). Is it running? Start one with 'aep relay', or diagnose with 'aep doctor --relay ${t.relay}'`;
}

/**
 * The message for an HTTP refusal (401/403 name the token problem without echoing it). A relay
 * answers a wrong token 401 (RFC 6750 §3.1, `invalid_token`; ours does) or 403 (AEP-0003 §3.2
 * allows either): with a token given, either status means that token is wrong.
 */
export function refused(t: RelayTarget, status: number, what: string): string {
  if (status === 401 && t.token !== undefined) status = 403;
  if (status === 401) return `the relay at ${t.relay} requires a token for ${what} (HTTP 401): pass --token or set AEP_TOKEN`;
  if (status === 403) return `the relay at ${t.relay} refused the token for ${what}: the token given by ${t.token === undefined ? 'nobody' : '--token/AEP_TOKEN'} is wrong; check it against the relay's AEP_TOKEN`;
  return `the relay at ${t.relay} answered ${what} with HTTP ${status}; run 'aep doctor --relay ${t.relay}'`;
}

/** A one-line reason for a fetch/socket error, without a stack. */
export function describeNetError(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause;
    // fetch's own refusal of a blocked port, before any connection: say what it means.
    if (cause instanceof Error && cause.message === 'bad port') return 'fetch refuses this port: it is a blocked "bad port" of the Fetch standard (like 1, 9, 25 or 6000); use another port';
    if (cause instanceof Error) return (cause as Error & { code?: string }).code ?? cause.message;
    return (err as Error & { code?: string }).code ?? err.message;
  }
  return String(err);
}
