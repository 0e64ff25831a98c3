/**
 * The transport's socket in a browser: the page's `WebSocket` seen through the `RelaySocket`
 * shape the {@link RelayTransport} drives (the `ws` package's events), so the console's page
 * opens its relay pipe through the same transport as every Node client.
 *
 * What a browser cannot give: upgrade headers (the console adds the token on its side) and a
 * refused upgrade's HTTP status (a browser reports an error, then a close with code 1006), so
 * `unexpected-response` never fires here. Text frames reach the transport as their UTF-8 bytes.
 */
import type { RelaySocket, SocketFactory } from './transport.js';

const UTF8 = new TextEncoder();

type Listener = (...args: never[]) => void;

/** The part of a page's `WebSocket` used here (declared, so Node's type check needs no DOM types). */
interface PageSocket {
  readonly readyState: number;
  readonly url: string;
  binaryType: string;
  send(data: string | Uint8Array): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (e: { data: string | ArrayBuffer }) => void): void;
  addEventListener(type: 'close', listener: (e: { code: number; reason: string }) => void): void;
}

const PageWebSocket = (): new (url: string) => PageSocket => (globalThis as unknown as { WebSocket: new (url: string) => PageSocket }).WebSocket;

class BrowserRelaySocket {
  readonly #ws: PageSocket;

  constructor(url: string) {
    this.#ws = new (PageWebSocket())(url);
    this.#ws.binaryType = 'arraybuffer';
  }

  get readyState(): number {
    return this.#ws.readyState;
  }

  send(data: string | Uint8Array): void {
    this.#ws.send(data);
  }

  close(code?: number, reason?: string): void {
    if (code === undefined) this.#ws.close();
    else this.#ws.close(code, reason);
  }

  /** A browser has no abrupt close: the close handshake starts and the socket is given up. */
  terminate(): void {
    this.#ws.close();
  }

  on(event: string, listener: Listener): this {
    const call = listener as (...args: unknown[]) => void;
    const ws = this.#ws;
    if (event === 'open') ws.addEventListener('open', () => call());
    else if (event === 'message') {
      ws.addEventListener('message', (e) => (typeof e.data === 'string' ? call(UTF8.encode(e.data), false) : call(new Uint8Array(e.data), true)));
    } else if (event === 'error') ws.addEventListener('error', () => call(new Error(`the WebSocket to ${ws.url} failed`)));
    else if (event === 'close') ws.addEventListener('close', (e) => call(e.code, UTF8.encode(e.reason)));
    return this;
  }
}

/** Opens a browser `WebSocket` (the init's headers cannot be sent from a page and are ignored). */
export const browserSocket: SocketFactory = (url) => new BrowserRelaySocket(url) as unknown as RelaySocket;
