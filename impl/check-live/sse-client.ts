import { ItemLog } from './log.js';
import { createSseParser, type SseItem } from './sse.js';

/**
 * A checker-side SSE subscription over the global `fetch`. Items land in `log` in stream order.
 * `ready` settles when the response headers arrive (or the request fails); call `close()` when done.
 */
export class SseConn {
  readonly log = new ItemLog<SseItem>();
  private readonly abort = new AbortController();
  /** The response once its headers arrived; rejects with a network error message. */
  readonly ready: Promise<Response>;

  constructor(url: string, headers: Record<string, string>) {
    this.ready = fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: this.abort.signal });
    this.ready.then(
      (res) => void this.pump(res),
      (err: unknown) => this.log.end(`the stream request failed (${describeError(err)})`),
    );
  }

  private async pump(res: Response): Promise<void> {
    if (!res.ok || !res.body) {
      this.log.end(`the stream answered HTTP ${res.status}`);
      return;
    }
    const parser = createSseParser();
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const item of parser.push(value)) this.log.add(item);
      }
      for (const item of parser.end()) this.log.add(item);
      this.log.end('the stream ended');
    } catch {
      this.log.end('the stream was closed');
    }
  }

  /** True once the headers arrived within `ms`. */
  async readyWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    try {
      return await Promise.race([this.ready.then(() => true, () => false), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.abort.abort();
  }
}

/** A one-line reason for a fetch/socket error, without a stack. */
export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause;
    if (cause instanceof Error) return `${err.message}: ${(cause as Error & { code?: string }).code ?? cause.message}`;
    return err.message;
  }
  return String(err);
}
