/**
 * The live runner's own connection to the relay's `/socket`, through impl/relay-client's
 * transport: one tokened connection that says hello, subscribes to every live event, keeps every
 * frame it receives (exact text and parse), and sends commands. Valid from `open()` until `close()`.
 */
import { buildHello } from '../../impl/relay-client/hello.js';
import { RelayTransport, socketUrl } from '../../impl/relay-client/transport.js';

/** One received frame: its exact text and its parse (undefined when it is not a JSON object). */
export interface Frame {
  raw: string;
  json: Record<string, unknown> | undefined;
}

export class RelayClient {
  /** Every frame received after our subscription was confirmed, in arrival order. */
  readonly frames: Frame[] = [];

  private constructor(private readonly transport: RelayTransport) {}

  /**
   * Connect, exchange hellos and subscribe to all live events. Rejects (naming the URL) when the
   * socket cannot be opened or the relay does not answer within `timeoutMs` (default 5000).
   */
  static open(base: string, token: string | undefined, timeoutMs = 5000): Promise<RelayClient> {
    const url = socketUrl(base);
    const transport = new RelayTransport({ url, ...(token ? { token } : {}) });
    const client = new RelayClient(transport);
    return new Promise((resolve, reject) => {
      let stage: 'hello' | 'subscribe' | 'live' = 'hello';
      const timer = setTimeout(() => {
        void transport.close();
        reject(new Error(`the relay at ${url} did not complete hello + subscribe within ${timeoutMs} ms`));
      }, timeoutMs);
      const fail = (message: string): void => {
        clearTimeout(timer);
        void transport.close();
        reject(new Error(message));
      };
      transport.onmessage = ({ raw, frame: json }) => {
        if (stage === 'live') {
          client.frames.push({ raw, json });
          return;
        }
        if (json?.type === 'error') return fail(`the relay refused our ${stage}: ${String(json.code)} (${String(json.detail ?? '')})`);
        if (stage === 'hello' && json?.type === 'hello') {
          stage = 'subscribe';
          transport.send(JSON.stringify({ type: 'subscribe', id: 'conformance' }));
        } else if (stage === 'subscribe' && json?.type === 'subscribed') {
          stage = 'live';
          clearTimeout(timer);
          resolve(client);
        }
      };
      transport.start().then(
        () => void transport.send(JSON.stringify(buildHello({ role: 'both', identity: { agent: 'aep-conformance' } }))),
        (err: Error) => fail(`cannot connect to the relay at ${url}: ${err.message}`),
      );
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
    this.transport.send(raw);
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}
