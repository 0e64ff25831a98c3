/**
 * The WebSocket writer under one `subscribe` (AEP-0003 §3.5, §6.5): each event is one text
 * frame, each exhaustion marker a `replay-exhausted` frame naming the subscription. The
 * sequence, the queue behind the replay and the slow-consumer rule are the hub's
 * `Subscription` (subscription.ts); this file only encodes, writes and paces.
 */
import type { WebSocket } from 'ws';
import type { CaptureLevel } from '../core/event.js';
import type { Received } from './buffer.js';
import { frame } from './frames.js';
import type { Position } from './positions.js';
import { renderAt } from './render.js';
import type { EndReason, ExhaustedMarker, Subscription, SubscriptionWriter } from './subscription.js';

/** While more than this many bytes wait unsent, a replay waits for the next frame to go out. */
export const REPLAY_HIGH_WATER = 1024 * 1024;

/** What a writer needs from its connection. */
export interface SocketConnection {
  readonly ws: WebSocket;
  /** Sends one text frame unless the connection is closing. */
  send(text: string): void;
  /** Orderly close of the whole connection: a `closing` frame with the delivered positions, then `code`. */
  shutdown(reason: string, code: number): void;
  log(line: string): void;
}

/** One subscription of a connection: its id, and the hub's subscription once opened. */
export interface SocketSubscription {
  readonly id: string | number | undefined;
  readonly sub: Subscription;
}

export class SocketWriter implements SubscriptionWriter {
  readonly #high: number;
  #drained: Promise<void> | undefined;

  /** `slowBytes` also caps the replay's high-water mark. */
  constructor(
    private readonly conn: SocketConnection,
    private readonly id: string | number | undefined,
    private readonly ceiling: CaptureLevel | undefined,
    slowBytes: number,
  ) {
    this.#high = Math.min(REPLAY_HIGH_WATER, slowBytes);
  }

  bufferedBytes(): number {
    return this.conn.ws.bufferedAmount;
  }

  exhausted(markers: readonly ExhaustedMarker[]): void {
    for (const m of markers) this.conn.send(this.#marker(m.session, m.earliest));
  }

  /** Over the high-water mark the frame goes out with a callback, and `drained` waits for it. */
  replay(rec: Received, gap: Position | undefined): boolean {
    if (this.conn.ws.bufferedAmount <= this.#high) {
      this.#write(rec, gap);
      return true;
    }
    this.#drained = new Promise<void>((resolve) => this.#write(rec, gap, () => resolve()));
    return false;
  }

  replayEnd(): boolean {
    return true;
  }

  drained(): Promise<void> {
    const d = this.#drained ?? Promise.resolve();
    this.#drained = undefined;
    return d;
  }

  live(rec: Received, gap: Position | undefined): void {
    this.#write(rec, gap);
  }

  end(reason: EndReason, err?: unknown): void {
    if (reason === 'slow-consumer') return this.conn.shutdown('slow-consumer', 1013);
    if (reason === 'failed') {
      this.conn.log(`replay failed: ${err instanceof Error ? err.message : String(err)}`);
      return this.conn.shutdown('internal', 1011);
    }
    // 'replay-complete' never comes: a WebSocket subscription is always live.
  }

  #marker(session: string, earliest: Position): string {
    return frame({ type: 'replay-exhausted', ...(this.id === undefined ? {} : { sub: this.id }), session, earliest: { epoch: earliest.epoch, seq: earliest.seq } });
  }

  #write(rec: Received, gap: Position | undefined, sent?: () => void): void {
    const ws = this.conn.ws;
    if (ws.readyState !== ws.OPEN) return sent?.();
    if (gap && typeof rec.event.session === 'string') ws.send(this.#marker(rec.event.session, gap));
    ws.send(renderAt(rec, this.ceiling), sent && (() => sent()));
  }
}
