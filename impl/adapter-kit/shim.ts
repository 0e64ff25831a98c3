/**
 * The fail-open hook shim: forward one vendor hook to the daemon and return the stdout to print.
 *
 * Bounds (fixed, so the vendor never hangs on us):
 * - the daemon must accept the connection and answer with headers within `connectTimeoutMs`
 *   (default 2000 ms): a dead, refusing or stuck daemon yields the neutral reply;
 * - the reply body must complete within `replyTimeoutMs` (default: the attention timeout + 5 s),
 *   the daemon frees held hooks by itself at the attention timeout.
 * Any failure (refused, non-200, timeout, reset) resolves to `neutral`. Never rejects.
 */
import { request } from 'node:http';

export interface ShimOptions {
  /** Daemon port on 127.0.0.1. */
  port: number;
  /** The vendor hook event name (the path segment of `POST /hook/<event>`). */
  hookEvent: string;
  /** The vendor's hook JSON, exactly as read from stdin. */
  body: Buffer;
  /** The vendor's neutral stdout for this hook. */
  neutral: string;
  /** Bound on connect + response headers; default 2000 ms. */
  connectTimeoutMs?: number;
  /** Bound on the whole reply; default 60 000 ms. */
  replyTimeoutMs?: number;
}

export const SHIM_CONNECT_TIMEOUT_MS = 2000;

export function forwardHook(opts: ShimOptions): Promise<{ stdout: string; fellBack: string | null }> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (stdout: string, fellBack: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(replyTimer);
      req.destroy();
      resolve({ stdout, fellBack });
    };
    const req = request({
      host: '127.0.0.1',
      port: opts.port,
      method: 'POST',
      path: `/hook/${encodeURIComponent(opts.hookEvent)}`,
      headers: { 'content-type': 'application/json', 'content-length': opts.body.length },
    });
    const connectTimer = setTimeout(() => finish(opts.neutral, 'the daemon did not answer in time'), opts.connectTimeoutMs ?? SHIM_CONNECT_TIMEOUT_MS);
    const replyTimer = setTimeout(() => finish(opts.neutral, 'the daemon held the hook past the reply bound'), opts.replyTimeoutMs ?? 60_000);
    req.on('error', (err) => finish(opts.neutral, `daemon unreachable (${err.message})`));
    req.on('response', (res) => {
      clearTimeout(connectTimer);
      if (res.statusCode !== 200) {
        res.resume();
        finish(opts.neutral, `daemon answered HTTP ${res.statusCode}`);
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => finish(Buffer.concat(chunks).toString('utf8'), null));
      res.on('close', () => finish(opts.neutral, 'reply cut off'));
      res.on('error', (err) => finish(opts.neutral, `reply cut off (${err.message})`));
    });
    req.end(opts.body);
  });
}
