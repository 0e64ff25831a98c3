import { RELAY_PORT } from '../integrations/registry.js';

/**
 * The ports fetch refuses to connect to (the Fetch standard's "bad port" list, which Node's fetch
 * applies): a URL on one of them fails with the bare "fetch failed: bad port". Pure.
 */
export const FETCH_BAD_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139,
  143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659,
  4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** Why fetch cannot reach `url` before trying it (a blocked port), in words; undefined when it may. */
export function blockedPort(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  const port = u.port === '' ? (u.protocol === 'https:' ? 443 : 80) : Number(u.port);
  if (!FETCH_BAD_PORTS.has(port)) return undefined;
  return `${url} is on port ${port}, which fetch refuses to connect to (a blocked "bad port" of the Fetch standard, like 1, 9, 25 or 6000): serve the target on another port, e.g. ${RELAY_PORT}`;
}
