/**
 * The page's WebSocket to a relay, through the console (I/O). A browser cannot put a bearer
 * token anywhere on a WebSocket but the URL, and the token must never appear in one; so the
 * page opens `ws://<console>/relay/<id>/socket` (same origin, Host and Origin checked by the
 * caller) and the console opens the relay's `/socket` with `Authorization: Bearer`. Frames pass
 * through unchanged, text as text, both ways; either side closing closes the other.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import type { ConsoleRelay } from './config.js';

export function relaySocketUrl(relay: ConsoleRelay): string {
  return `${relay.url.replace(/^http(s?):/i, 'ws$1:')}/socket`;
}

/** Close codes a peer may send on the wire (1005, 1006 and 1015 are reserved for local use). */
const sendable = (code: number): boolean => (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999);

export class SocketPipes {
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });
  readonly #open = new Set<{ client: WebSocket; upstream: WebSocket }>();

  constructor(private readonly log: (line: string) => void) {}

  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, relay: ConsoleRelay): void {
    this.#wss.handleUpgrade(req, socket, head, (client) => {
      const upstream = new WebSocket(relaySocketUrl(relay), { headers: relay.token === undefined ? {} : { authorization: `Bearer ${relay.token}` }, handshakeTimeout: 5000 });
      const pair = { client, upstream };
      this.#open.add(pair);
      const pending: Array<{ data: WebSocket.RawData; binary: boolean }> = [];
      client.on('message', (data, binary) => {
        if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary });
        else if (upstream.readyState === WebSocket.CONNECTING) pending.push({ data, binary });
      });
      upstream.on('open', () => {
        for (const p of pending.splice(0)) upstream.send(p.data, { binary: p.binary });
      });
      upstream.on('message', (data, binary) => {
        if (client.readyState === WebSocket.OPEN) client.send(data, { binary });
      });
      upstream.on('unexpected-response', (_req, res) => {
        res.resume();
        upstream.terminate();
        this.log(`relay ${relay.url} refused the /socket upgrade: HTTP ${res.statusCode ?? '?'}`);
        client.close(1008, `relay refused the socket: HTTP ${res.statusCode ?? '?'}`.slice(0, 120));
      });
      upstream.on('error', (err) => {
        this.log(`relay ${relay.url} socket: ${err.message}`);
        if (client.readyState === WebSocket.OPEN) client.close(1011, 'relay unreachable');
      });
      upstream.on('close', (code, reason) => {
        this.#open.delete(pair);
        if (client.readyState === WebSocket.OPEN) client.close(sendable(code) ? code : 1011, reason.toString().slice(0, 120));
      });
      client.on('close', () => {
        this.#open.delete(pair);
        if (upstream.readyState === WebSocket.OPEN) upstream.close(1000);
        else upstream.terminate();
      });
      client.on('error', () => client.terminate());
    });
  }

  closeAll(): void {
    for (const { client, upstream } of this.#open) {
      client.close(1001, 'console stopping');
      upstream.close(1001);
    }
    this.#open.clear();
    this.#wss.close();
  }
}
