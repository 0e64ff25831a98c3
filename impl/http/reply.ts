/** Replies every inbound HTTP surface shares: a JSON answer, and a refusal that stops reading the rest of an upload. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Reply with a JSON body (one line and a newline), unless the response already started or the client left. */
export function replyJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), 'cache-control': 'no-store', ...headers });
  res.end(text);
}

/**
 * After a refusal sent mid-upload (413): the rest of the body is discarded unread, and the
 * connection is cut shortly after, so a client still sending costs nothing.
 */
export function discardRest(req: IncomingMessage, graceMs = 2_000): void {
  req.resume();
  const timer = setTimeout(() => req.socket.destroy(), graceMs);
  timer.unref();
  req.socket.once('close', () => clearTimeout(timer));
}

/**
 * After a refusal sent mid-upload, for the bridges (the relay keeps {@link discardRest}): a
 * lingering close. Node ends a `connection: close` reply with `destroySoon()`, a destroy as soon as
 * the reply is flushed; a client still sending then gets a reset, and a reset can discard the reply
 * before the client read it. Here our side is ended instead (FIN), what the client still sends is
 * read and discarded, and the connection is cut after `graceMs` at the latest.
 */
export function lingerClose(req: IncomingMessage, graceMs = 2_000): void {
  const socket = req.socket as IncomingMessage['socket'] & { destroySoon?: () => void };
  socket.destroySoon = function lingering(this: typeof socket): void {
    if (this.writable) this.end();
  };
  req.resume();
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), graceMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
}
