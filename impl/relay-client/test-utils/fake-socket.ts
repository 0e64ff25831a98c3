/**
 * A fake relay socket for tests (test-only): implements `RelaySocket` in memory, records every
 * frame sent, and lets a test play the relay: open, refuse the upgrade, answer frames, close.
 */
import { EventEmitter } from 'node:events';
import type { RelaySocket, SocketFactory, SocketInit } from '../transport.js';

export class FakeSocket extends EventEmitter implements RelaySocket {
  readyState = 0;
  /** Frames sent, as sent (text, or bytes for a binary frame). */
  readonly sent: Array<string | Uint8Array> = [];
  /** The close frames sent: `[code, reason]` as given to `close`. */
  readonly closes: Array<[number | undefined, string | undefined]> = [];
  terminated = false;

  constructor(
    readonly url: string,
    readonly init: SocketInit,
  ) {
    super();
  }

  send(data: string | Uint8Array): void {
    if (this.readyState !== 1) throw new Error('FakeSocket.send while not open');
    this.sent.push(data);
  }

  /** The text frames sent, parsed. */
  sentJson(): unknown[] {
    return this.sent.filter((f): f is string => typeof f === 'string').map((f) => JSON.parse(f) as unknown);
  }

  close(code?: number, reason?: string): void {
    this.closes.push([code, reason]);
    if (this.readyState === 1) this.readyState = 2;
  }

  terminate(): void {
    this.terminated = true;
    if (this.readyState !== 3) this.peerClose(1006);
  }

  /** The relay accepts the upgrade. */
  open(): void {
    this.readyState = 1;
    this.emit('open');
  }

  /** The relay answers the upgrade with an HTTP status instead. */
  refuse(status: number): void {
    this.emit('unexpected-response', {}, { statusCode: status, resume: () => undefined });
  }

  /** A network error. */
  fail(message: string): void {
    this.emit('error', new Error(message));
  }

  /** The relay sends one text frame (an object is JSON-encoded), or bytes as a binary frame. */
  receive(frame: string | Record<string, unknown> | Uint8Array): void {
    if (frame instanceof Uint8Array) this.emit('message', Buffer.from(frame), true);
    else this.emit('message', Buffer.from(typeof frame === 'string' ? frame : JSON.stringify(frame)), false);
  }

  /** The connection ends. */
  peerClose(code = 1000, reason = ''): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.emit('close', code, Buffer.from(reason));
  }
}

/** A factory that records every socket it makes; `next()` waits for the next one. */
export function fakeSockets(): { factory: SocketFactory; sockets: FakeSocket[]; next(): Promise<FakeSocket> } {
  const sockets: FakeSocket[] = [];
  const waiters: Array<(s: FakeSocket) => void> = [];
  return {
    sockets,
    factory: (url, init) => {
      const s = new FakeSocket(url, init);
      sockets.push(s);
      waiters.shift()?.(s);
      return s;
    },
    next: () => new Promise((resolve) => waiters.push(resolve)),
  };
}
