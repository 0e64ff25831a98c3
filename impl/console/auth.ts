/**
 * The console's launch secret, pure (Jupyter's way): a random secret in the URL the console
 * prints, exchanged for an `HttpOnly`, `SameSite=Strict` cookie on the first visit. Every
 * route that says anything about the relays (`/api/...`, `/relay/...`, the socket pipe) and
 * the page itself answer only a request carrying that cookie; anything else gets a 403,
 * whatever its Origin. Cookies are not separated by port, so the cookie's name carries it:
 * two consoles on one machine never overwrite each other's.
 */
import { timingSafeEqual } from 'node:crypto';

/** The query parameter the printed URL carries the secret in. */
export const SECRET_PARAM = 'token';

export const cookieName = (port: number): string => `aep-console-${port}`;

/** The `Set-Cookie` value that keeps the secret with this browser for the tab's session (no Max-Age). */
export function sessionCookie(port: number, secret: string): string {
  return `${cookieName(port)}=${secret}; Path=/; HttpOnly; SameSite=Strict`;
}

export function sameSecret(given: string | undefined, secret: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The value of the console's cookie in a `Cookie` header, if present. */
export function cookieSecret(cookieHeader: string | undefined, port: number): string | undefined {
  if (cookieHeader === undefined) return undefined;
  const name = cookieName(port);
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** What the guard says to a request without the secret. */
export const NO_SECRET = {
  error: 'launch-secret-required',
  detail: "this console answers only the page opened from the URL 'aep console' printed (it carries a per-launch secret); open that URL",
} as const;
