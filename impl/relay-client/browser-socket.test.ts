/**
 * The page's socket seen through the transport: a stand-in for the browser's `WebSocket` (an
 * EventTarget with the page API) drives a real `RelayTransport` end to end.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserSocket } from './browser-socket.js';
import { RelayTransport, TransportError } from './transport.js';

class PageWebSocket extends EventTarget {
  static last: PageWebSocket | undefined;
  readyState = 0;
  binaryType = 'blob';
  readonly sent: Array<string | Uint8Array> = [];
  closedWith: unknown[] | undefined;
  constructor(readonly url: string) {
    super();
    PageWebSocket.last = this;
  }
  send(data: string | Uint8Array): void {
    this.sent.push(data);
  }
  close(...args: unknown[]): void {
    this.closedWith = args;
  }
  open(): void {
    this.readyState = 1;
    this.dispatchEvent(new Event('open'));
  }
  message(data: string | ArrayBuffer): void {
    this.dispatchEvent(Object.assign(new Event('message'), { data }));
  }
  end(code: number, reason: string): void {
    this.readyState = 3;
    this.dispatchEvent(Object.assign(new Event('close'), { code, reason }));
  }
}

afterEach(() => vi.unstubAllGlobals());

describe('browserSocket under RelayTransport', () => {
  it('opens, sends exact text, hears text frames as text and binary ones as bytes, and reports the close', async () => {
    vi.stubGlobal('WebSocket', PageWebSocket);
    const t = new RelayTransport({ url: 'ws://console.test/relay/r1/socket', socket: browserSocket });
    const heard: unknown[] = [];
    const closes: unknown[] = [];
    t.onmessage = (m) => heard.push(m);
    t.onclose = (info) => closes.push(info);
    const started = t.start();
    const page = PageWebSocket.last!;
    expect(page.url).toBe('ws://console.test/relay/r1/socket');
    expect(page.binaryType).toBe('arraybuffer');
    page.open();
    await started;
    expect(t.send('{"type":"hello"}')).toBe(true);
    expect(page.sent).toEqual(['{"type":"hello"}']);
    page.message('{"type":"hello","x":"é"}');
    page.message(new Uint8Array([1, 2]).buffer);
    expect(heard).toEqual([
      { raw: '{"type":"hello","x":"é"}', frame: { type: 'hello', x: 'é' } },
      { raw: '\u0001\u0002', frame: undefined, binary: new Uint8Array([1, 2]) },
    ]);
    page.end(4001, 'HTTP 401 from the relay');
    expect(closes).toEqual([{ code: 4001, reason: 'HTTP 401 from the relay' }]);
    expect(t.send('late')).toBe(false);
  });

  it('a socket that never opens rejects start() with the error, as a browser reports it', async () => {
    vi.stubGlobal('WebSocket', PageWebSocket);
    const t = new RelayTransport({ url: 'ws://console.test/relay/r2/socket', socket: browserSocket });
    const started = t.start();
    const page = PageWebSocket.last!;
    page.dispatchEvent(new Event('error'));
    page.end(1006, '');
    const err = await started.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).failure).toMatchObject({ kind: 'unreachable', message: 'the WebSocket to ws://console.test/relay/r2/socket failed' });
  });

  it('close() with a code sends it; close() without one sends none', async () => {
    vi.stubGlobal('WebSocket', PageWebSocket);
    const t = new RelayTransport({ url: 'ws://console.test/s', socket: browserSocket });
    const started = t.start();
    const page = PageWebSocket.last!;
    page.open();
    await started;
    const closing = t.close({ code: 1000, reason: 'bye', graceMs: 50 });
    expect(page.closedWith).toEqual([1000, 'bye']);
    page.end(1000, 'bye');
    await closing;
  });
});
