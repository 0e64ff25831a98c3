import { CheckFailure, CheckSkip } from './check.js';
import type { CheckContext } from './context.js';
import { parseObject, type Json } from './events.js';
import type { SseConn } from './sse-client.js';
import type { SseItem, SseMessage } from './sse.js';
import { WsOpenError, type WsConn, type WsFrame } from './ws-client.js';

/** Shared probe steps used by several checks. */

export const isMessage = (i: SseItem): i is SseMessage => i.kind === 'message';

/** The messages of an SSE log whose data parses to an object, with the parse. */
export function sseEvents(conn: SseConn, since = 0): Array<{ msg: SseMessage; event: Json }> {
  const out: Array<{ msg: SseMessage; event: Json }> = [];
  for (const item of conn.log.items.slice(since)) {
    if (!isMessage(item)) continue;
    const event = parseObject(item.data);
    if (event) out.push({ msg: item, event });
  }
  return out;
}

/** Waits for an SSE message carrying the event with `id`. */
export async function sseWaitId(conn: SseConn, id: string, ms: number, what: string): Promise<SseMessage> {
  const { item } = await conn.log.waitFor((i) => isMessage(i) && parseObject(i.data)?.id === id, ms, what);
  return item as SseMessage;
}

/** Waits for an event frame (type with a dot) carrying `id` on a socket. */
export async function wsWaitId(conn: WsConn, id: string, ms: number, what: string, since = 0): Promise<WsFrame> {
  return (await conn.log.waitFor((f) => f.json?.id === id && isEventFrame(f), ms, what, since)).item;
}

export function isEventFrame(f: WsFrame): boolean {
  return typeof f.json?.type === 'string' && (f.json.type as string).includes('.');
}

/** Subscribes on an open socket and demands `subscribed` with the same id. */
export async function wsSubscribe(conn: WsConn, frame: Json): Promise<void> {
  const since = conn.log.mark();
  conn.send({ type: 'subscribe', ...frame });
  const { item } = await conn.log.waitFor(
    (f) => (f.json?.type === 'subscribed' || f.json?.type === 'error') && f.json.id === frame.id,
    5000,
    `the answer to subscribe '${String(frame.id)}'`,
    since,
  );
  if (item.json?.type !== 'subscribed') throw new CheckFailure(`a valid subscribe was refused: ${item.raw.slice(0, 200)}`);
}

/** The socket endpoint or a skip; an upgrade refused for lack of a token is a skip on tokenless runs. */
export async function requireSocket(ctx: CheckContext): Promise<string> {
  const d = await ctx.discovery();
  if (!d.socket) throw new CheckSkip('skipped: no socket endpoint advertised (AEP-0003 §3.4 endpoints.socket)');
  return d.socket;
}

/** Opens a socket, turning a 401/403 on a tokenless run into a skip that says how to proceed. */
export async function openOrSkip<T>(ctx: CheckContext, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (err) {
    if (err instanceof WsOpenError && (err.status === 401 || err.status === 403) && !ctx.opts.token) {
      throw new CheckSkip(`skipped: the socket endpoint requires authentication (HTTP ${err.status}); rerun with --token`);
    }
    if (err instanceof WsOpenError) throw new CheckFailure(err.message);
    throw err;
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
