/**
 * The vendor reply routes of the OpenCode plugin family (OpenCode and its fork Kilo Code): where
 * an answer to a bus-surface ask (`permission.asked`, `question.asked`) is delivered, since nothing
 * vendor-side is held there. The daemon learns the server address from the plugin's
 * `PluginInput.serverUrl`, forwarded on every plugin POST as `server_url`; only loopback
 * addresses are accepted (a plugin moment must not make the daemon write to another host).
 *
 * Routes (the real binary wins over the standard's pin: against OpenCode 1.18.33 the pinned
 * session route answers 200 but drops a reject's message, while the v2 route hands it to the model
 * as the user's feedback; `@kilocode/sdk` 7.3.1 types the same v2 route):
 * - permission: `POST /permission/{requestID}/reply` `{reply, message?}`; on a 404 (a server
 *   without the v2 route) the standard's pinned `POST /session/{sessionID}/permissions/{permissionID}`
 *   `{response, message?}`;
 * - question: `POST /question/{requestID}/reply` `{answers: string[][]}`.
 */

/** One permission reply: the vendor enum value, and the reject's guidance text. */
export interface PermissionReply {
  server: string;
  session: string;
  id: string;
  reply: 'once' | 'always' | 'reject';
  message?: string;
}

/** One question reply: the vendor labels (or free text) per question, in order. */
export interface QuestionReply {
  server: string;
  id: string;
  answers: string[][];
}

/** The outcome of a delivery: the route that answered, or why none did. */
export type ReplyOutcome = { ok: true; route: string } | { ok: false; route: string; detail: string };

/** The delivery client a plugin-family adapter uses; the default is `httpReplies()`. */
export interface VendorReplies {
  permission(reply: PermissionReply): Promise<ReplyOutcome>;
  question(reply: QuestionReply): Promise<ReplyOutcome>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** The server base URL when it is an http(s) loopback URL, else null. */
export function loopbackServer(value: string): URL | null {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK.has(url.hostname) ? url : null;
  } catch {
    return null;
  }
}

/** Replies over HTTP with `fetchImpl` (default the global `fetch`), each request bounded by `timeoutMs`. */
export function httpReplies(opts: { fetchImpl?: typeof fetch; timeoutMs?: number } = {}): VendorReplies {
  const fetchImpl = opts.fetchImpl ?? ((input, init) => fetch(input, init));
  const timeoutMs = opts.timeoutMs ?? 5000;

  async function post(server: string, path: string, body: unknown): Promise<{ status: number; route: string } | { error: string; route: string }> {
    const base = loopbackServer(server);
    const route = `POST ${path}`;
    if (!base) return { route, error: `the server URL ${JSON.stringify(server)} is not an http(s) loopback URL` };
    try {
      const res = await fetchImpl(new URL(path, base), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.arrayBuffer().catch(() => undefined);
      return { status: res.status, route };
    } catch (err) {
      const e = err as Error;
      return { route, error: e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : `unreachable: ${e.message}` };
    }
  }

  const outcome = (r: Awaited<ReturnType<typeof post>>): ReplyOutcome => {
    if ('error' in r) return { ok: false, route: r.route, detail: r.error };
    return r.status >= 200 && r.status < 300 ? { ok: true, route: r.route } : { ok: false, route: r.route, detail: `the vendor answered HTTP ${r.status}` };
  };

  return {
    async permission(reply) {
      const message = reply.message === undefined ? {} : { message: reply.message };
      const v2 = await post(reply.server, `/permission/${encodeURIComponent(reply.id)}/reply`, { reply: reply.reply, ...message });
      if ('status' in v2 && v2.status === 404) {
        return outcome(await post(reply.server, `/session/${encodeURIComponent(reply.session)}/permissions/${encodeURIComponent(reply.id)}`, { response: reply.reply, ...message }));
      }
      return outcome(v2);
    },
    async question(reply) {
      return outcome(await post(reply.server, `/question/${encodeURIComponent(reply.id)}/reply`, { answers: reply.answers }));
    },
  };
}

/** A delivery client that accepts every reply and records it (the offline and live corpus runs, tests). */
export function recordingReplies(): VendorReplies & { sent: Array<{ kind: 'permission' | 'question'; reply: PermissionReply | QuestionReply }> } {
  const sent: Array<{ kind: 'permission' | 'question'; reply: PermissionReply | QuestionReply }> = [];
  return {
    sent,
    permission: async (reply) => (sent.push({ kind: 'permission', reply }), { ok: true, route: 'recorded' }),
    question: async (reply) => (sent.push({ kind: 'question', reply }), { ok: true, route: 'recorded' }),
  };
}
