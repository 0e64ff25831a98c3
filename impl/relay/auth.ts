/**
 * Bearer-token authentication (AEP-0003 §8.1). The token rides `Authorization: Bearer`
 * or, for clients that cannot set headers, the `access_token` query parameter. Pure; the
 * token is compared in constant time and never logged.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * `open`: the relay has no token (observation open, control refused).
 * `ok`: a valid token was presented. `missing`: none was (401). `wrong`: a bad one was (401, `error="invalid_token"`).
 */
export type AuthResult = 'open' | 'ok' | 'missing' | 'wrong';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** The token a request presents, from the header first, then the query string. */
export function presentedToken(headers: IncomingHttpHeaders, url: URL): string | undefined {
  const header = headers.authorization;
  if (typeof header === 'string') {
    const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    if (m) return m[1];
  }
  return url.searchParams.get('access_token') ?? undefined;
}

export function authenticate(token: string | undefined, headers: IncomingHttpHeaders, url: URL): AuthResult {
  if (token === undefined) return 'open';
  const presented = presentedToken(headers, url);
  if (presented === undefined) return 'missing';
  return timingSafeEqual(digest(presented), digest(token)) ? 'ok' : 'wrong';
}

/** `WWW-Authenticate` of a refusal (RFC 6750 §3): a challenge, plus `error="invalid_token"` when a token was presented. */
export function authChallenge(result: 'missing' | 'wrong'): string {
  return result === 'missing' ? 'Bearer realm="aep"' : 'Bearer realm="aep", error="invalid_token"';
}

/**
 * The refusal body and status for a failed authentication (RFC 6750 §3.1): both are 401 with a
 * `WWW-Authenticate` challenge; 403 is reserved for a valid token without the right, which this
 * relay (one token, one right) never has.
 */
export function authRefusal(result: 'missing' | 'wrong'): { status: number; body: Record<string, string>; challenge: string } {
  return result === 'missing'
    ? { status: 401, challenge: authChallenge(result), body: { error: 'unauthorized', detail: 'this relay requires a bearer token: send Authorization: Bearer <token> (or ?access_token= for EventSource clients)' } }
    : { status: 401, challenge: authChallenge(result), body: { error: 'invalid-token', detail: 'the bearer token presented does not match this relay\'s token' } };
}
