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
import { RelayTransport, TransportError } from '../relay-client/transport.js';
import type { ConsoleRelay } from './config.js';

export function relaySocketUrl(relay: ConsoleRelay): string {
  return `${relay.url.replace(/^http(s?):/i, 'ws$1:')}/socket`;
}

/** Close codes a peer may send on the wire (1005, 1006 and 1015 are reserved for local use). */
const sendable = (code: number): boolean => (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999);

/** A frame as the relay client sends it: text as its exact text, binary as bytes. */
const frameOf = (data: WebSocket.RawData, binary: boolean): string | Uint8Array => {
  const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
  return binary ? bytes : bytes.toString();
};

export class SocketPipes {
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });
  readonly #open = new Set<{ client: WebSocket; upstream: RelayTransport }>();

  constructor(private readonly log: (line: string) => void) {}

  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, relay: ConsoleRelay): void {
    this.#wss.handleUpgrade(req, socket, head, (client) => this.#pipe(client, relay));
  }

  #pipe(client: WebSocket, relay: ConsoleRelay): void {
    const upstream = new RelayTransport({ url: relaySocketUrl(relay), ...(relay.token === undefined ? {} : { token: relay.token }), handshakeTimeout: 5000 });
    const pair = { client, upstream };
    this.#open.add(pair);
    let opening = true;
    const pending: Array<string | Uint8Array> = [];
    client.on('message', (data, binary) => {
      if (upstream.isOpen) upstream.send(frameOf(data, binary));
      else if (opening) pending.push(frameOf(data, binary));
    });
    upstream.onmessage = (m) => {
      if (client.readyState === WebSocket.OPEN) client.send(m.binary ?? m.raw, { binary: m.binary !== undefined });
    };
    upstream.onerror = (err) => this.#unreachable(relay, client, err.message);
    upstream.onclose = ({ code, reason }) => {
      this.#open.delete(pair);
      if (client.readyState === WebSocket.OPEN) client.close(sendable(code) ? code : 1011, reason.slice(0, 120));
    };
    upstream.start().then(
      () => {
        opening = false;
        for (const p of pending.splice(0)) upstream.send(p);
      },
      (err: unknown) => {
        opening = false;
        this.#open.delete(pair);
        const f = err instanceof TransportError ? err.failure : { kind: 'unreachable' as const, message: String(err) };
        if (f.kind === 'refused') {
          this.log(`relay ${relay.url} refused the /socket upgrade: HTTP ${f.status}`);
          client.close(1008, `relay refused the socket: HTTP ${f.status}`.slice(0, 120));
        } else if (f.kind === 'unreachable') this.#unreachable(relay, client, f.message);
        else if (client.readyState === WebSocket.OPEN) client.close(sendable(f.code) ? f.code : 1011, f.reason.slice(0, 120));
      },
    );
    client.on('close', () => {
      this.#open.delete(pair);
      void upstream.close(upstream.isOpen ? { code: 1000, graceMs: 5000 } : {});
    });
    client.on('error', () => client.terminate());
  }

  #unreachable(relay: ConsoleRelay, client: WebSocket, message: string): void {
    this.log(`relay ${relay.url} socket: ${message}`);
    if (client.readyState === WebSocket.OPEN) client.close(1011, 'relay unreachable');
  }

  closeAll(): void {
    for (const { client, upstream } of this.#open) {
      client.close(1001, 'console stopping');
      void upstream.close({ code: 1001, graceMs: 5000 });
    }
    this.#open.clear();
    this.#wss.close();
  }
}
