/**
 * The console's request guard, pure: DNS rebinding (a foreign `Host`), cross-site pages (a
 * foreign `Origin` or `Sec-Fetch-Site`), and the exact bytes of each refusal.
 *
 * The console binds loopback only; a page on another site can still make a browser send
 * requests to it (through a rebinding DNS name, or directly to 127.0.0.1). The Host check
 * refuses the first, the Origin / Sec-Fetch-Site check the second.
 */

/** The Host values the console answers to: its loopback address and `localhost`, on its port. */
export function allowedHosts(port: number): readonly string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/** The origins of the console's own page. */
export function ownOrigins(port: number): readonly string[] {
  return allowedHosts(port).map((h) => `http://${h}`);
}

export type GuardVerdict = { ok: true } | { ok: false; status: 400 | 403 | 421; error: string; detail: string };

export interface GuardInput {
  /** How many Host headers the request carried: anything but one is refused (400). */
  readonly hostCount?: number;
  readonly host: string | undefined;
  readonly origin: string | undefined;
  readonly fetchSite: string | undefined;
}

/**
 * Judge one request. `strictOrigin` (the token endpoint and the socket pipe) also refuses a
 * missing Origin on a WebSocket upgrade, which a browser always sends.
 */
export function judge(input: GuardInput, port: number, opts: { requireOrigin?: boolean } = {}): GuardVerdict {
  if (input.hostCount !== undefined && input.hostCount > 1) {
    return { ok: false, status: 400, error: 'duplicate-host', detail: `the request carries ${input.hostCount} Host headers: send exactly one (RFC 9112 §3.2)` };
  }
  const host = input.host?.toLowerCase();
  if (host === undefined || !allowedHosts(port).includes(host)) {
    return {
      ok: false,
      status: 421,
      error: 'foreign-host',
      detail: `this console answers to Host ${allowedHosts(port).join(' or ')} only (DNS rebinding guard); open http://127.0.0.1:${port}/`,
    };
  }
  if (input.origin !== undefined ? !ownOrigins(port).includes(input.origin.toLowerCase()) : opts.requireOrigin === true) {
    return { ok: false, status: 403, error: 'foreign-origin', detail: `requests from ${input.origin ?? 'an unknown origin'} are refused: only the console's own page (${ownOrigins(port)[0]}) may call it` };
  }
  if (input.fetchSite !== undefined && input.fetchSite !== 'same-origin' && input.fetchSite !== 'none') {
    return { ok: false, status: 403, error: 'foreign-origin', detail: `a ${input.fetchSite} request is refused: only the console's own page may call it` };
  }
  return { ok: true };
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 403: 'Forbidden', 421: 'Misdirected Request' };

/** The whole HTTP response of a refusal, byte for byte (written to the socket as is, then closed). */
export function refusalBytes(v: Extract<GuardVerdict, { ok: false }>): string {
  const body = `${JSON.stringify({ error: v.error, detail: v.detail })}\n`;
  return `HTTP/1.1 ${v.status} ${REASONS[v.status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`;
}
