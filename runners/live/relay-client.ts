/**
 * The live runner's own connection to the relay's `/socket`: one tokened WebSocket that says
 * hello, subscribes to every live event, keeps every frame it receives (exact text and parse),
 * and sends commands. Valid from `open()` until `close()`.
 */
import WebSocket from 'ws';
import { socketUrl } from '../../impl/adapter-kit/relay-link.js';

/** One received frame: its exact text and its parse (undefined when it is not a JSON object). */
export interface Frame {
  raw: string;
  json: Record<string, unknown> | undefined;
}

export class RelayClient {
  /** Every frame received after our subscription was confirmed, in arrival order. */
  readonly frames: Frame[] = [];

  private constructor(private readonly ws: WebSocket) {}

  /**
   * Connect, exchange hellos and subscribe to all live events. Rejects (naming the URL) when the
   * socket cannot be opened or the relay does not answer within `timeoutMs` (default 5000).
   */
  static open(base: string, token: string | undefined, timeoutMs = 5000): Promise<RelayClient> {
    return new Promise((resolve, reject) => {
      const url = socketUrl(base);
      const ws = new WebSocket(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
      const client = new RelayClient(ws);
      let stage: 'hello' | 'subscribe' | 'live' = 'hello';
      const timer = setTimeout(() => {
        ws.terminate();
        reject(new Error(`the relay at ${url} did not complete hello + subscribe within ${timeoutMs} ms`));
      }, timeoutMs);
      ws.on('error', (err) => {
        clearTimeout(timer);
        reject(new Error(`cannot connect to the relay at ${url}: ${err.message}`));
      });
      ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', versions: ['0.1'], role: 'both', identity: { agent: 'aep-conformance' } })));
      ws.on('message', (data) => {
        const raw = data.toString();
        let json: Record<string, unknown> | undefined;
        try {
          const value: unknown = JSON.parse(raw);
          if (typeof value === 'object' && value !== null && !Array.isArray(value)) json = value as Record<string, unknown>;
        } catch {
          json = undefined;
        }
        if (stage === 'live') {
          client.frames.push({ raw, json });
          return;
        }
        if (json?.type === 'error') {
          clearTimeout(timer);
          ws.terminate();
          reject(new Error(`the relay refused our ${stage}: ${String(json.code)} (${String(json.detail ?? '')})`));
          return;
        }
        if (stage === 'hello' && json?.type === 'hello') {
          stage = 'subscribe';
          ws.send(JSON.stringify({ type: 'subscribe', id: 'conformance' }));
        } else if (stage === 'subscribe' && json?.type === 'subscribed') {
          stage = 'live';
          clearTimeout(timer);
          resolve(client);
        }
      });
    });
  }

  /** Event frames (those with an `aep` member), in arrival order. */
  events(): Frame[] {
    return this.frames.filter((f) => typeof f.json?.aep === 'string');
  }

  /** The code of the relay's `error` frame refusing command `id` (AEP-0004 §4.2), if any. */
  refusal(id: string): string | undefined {
    const frame = this.frames.find((f) => f.json?.type === 'error' && f.json.cause === id);
    return frame ? String(frame.json!.code) : undefined;
  }

  /** Send one frame's exact text. */
  send(raw: string): void {
    this.ws.send(raw);
  }

  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.terminate();
    });
  }
}
