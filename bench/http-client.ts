/**
 * The load generator's HTTP client, shared by both sides of `relay-ingest` so they pay the
 * same client cost: one keep-alive connection, one request at a time.
 */
import { Agent, request } from 'node:http';

/** A response: status and body text. */
export interface Reply {
  readonly status: number;
  readonly body: string;
}

/** A one-connection keep-alive client for `POST {url}` with an NDJSON body. */
export class NdjsonPoster {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });

  /** @param url the full endpoint URL, e.g. `http://127.0.0.1:<port>/events`. */
  constructor(private readonly url: string) {}

  /** POST one body; resolves with the reply, rejects on a network error or after `timeoutMs` (default 10000). */
  post(body: string, timeoutMs = 10_000): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const req = request(this.url, {
        method: 'POST',
        agent: this.agent,
        headers: { 'content-type': 'application/x-ndjson', 'aep-version': '0.1', 'content-length': Buffer.byteLength(body) },
        timeout: timeoutMs,
      }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`POST ${this.url} timed out after ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Close the kept-alive connection. Call once, after the last `post`. */
  close(): void {
    this.agent.destroy();
  }
}
