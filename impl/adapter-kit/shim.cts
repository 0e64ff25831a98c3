/**
 * The fail-open hook shim: read one vendor hook from stdin, forward it to the daemon, and return
 * the stdout to print. Imports node built-ins only: `aep hook` runs once per tool call, so its
 * start-up cost is the vendor's cost (see impl/cli/hook.ts and the `hook-shim` benchmark).
 *
 * Bounds (fixed, so the vendor never hangs on us):
 * - stdin: at most {@link MAX_HOOK_BYTES}, and it must close or complete a JSON object within
 *   {@link STDIN_TIMEOUT_MS} (a vendor that writes the JSON and keeps the pipe open is served
 *   as soon as the object is complete);
 * - the daemon must accept the connection and answer with headers within `connectTimeoutMs`
 *   (default 2000 ms): a dead, refusing or stuck daemon yields the neutral reply;
 * - the reply body must complete within `replyTimeoutMs`: the hold the daemon announces in its
 *   `x-aep-hold-ms` header plus 5 s, else the caller's bound. The daemon frees held hooks itself.
 *
 * The right daemon: the request names the adapter in `x-aep-adapter`; the daemon answers with its
 * own name in the same header (and 409 when they differ). A reply that does not name the expected
 * adapter is not used. Any failure resolves to `neutral` with a reason; never rejects.
 */
import { request } from 'node:http';

/** The header naming the adapter, on the hook request (expected) and the daemon's reply (served). */
export const ADAPTER_HEADER = 'x-aep-adapter';
/** The daemon's hold window for this hook, in ms, on its reply headers. */
export const HOLD_HEADER = 'x-aep-hold-ms';
/** Largest hook body read from stdin and forwarded (the daemon's limit too). */
export const MAX_HOOK_BYTES = 1024 * 1024;
/** How long stdin may take to close or complete its JSON object. */
export const STDIN_TIMEOUT_MS = 2000;
export const SHIM_CONNECT_TIMEOUT_MS = 2000;
/** Added to the daemon's hold window to bound the whole reply. */
export const REPLY_GRACE_MS = 5000;

export interface ShimOptions {
  /** Daemon port on 127.0.0.1. */
  port: number;
  /** The vendor hook event name (the path segment of `POST /hook/<event>`). */
  hookEvent: string;
  /** The vendor's hook JSON, exactly as read from stdin. */
  body: Buffer;
  /** The vendor's neutral stdout for this hook. */
  neutral: string;
  /** The adapter the shim was called for; the daemon must name the same one. Absent: not checked. */
  adapter?: string;
  /** Bound on connect + response headers; default 2000 ms. */
  connectTimeoutMs?: number;
  /** Bound on the whole reply when the daemon does not announce its hold; default 60 000 ms. */
  replyTimeoutMs?: number;
}

/** The outcome: what to print, and why the neutral reply was used (null: the daemon answered). */
export interface ShimResult {
  stdout: string;
  fellBack: string | null;
  /** How the fallback should be reported: `quiet` (daemon down: the normal fail-open case) or `say` (a misconfiguration). */
  severity?: 'quiet' | 'say';
}

/** Percent-encode a path segment; a lone surrogate becomes U+FFFD instead of throwing `URI malformed`. */
export function encodeSegment(text: string): string {
  return encodeURIComponent(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The `detail` of a daemon's JSON error body, if any. */
function detailOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as { detail?: unknown; error?: unknown };
    if (typeof parsed.detail === 'string') return parsed.detail;
    if (typeof parsed.error === 'string') return parsed.error;
  } catch {
    // not JSON: show the start of the text
  }
  return text.replace(/\s+/g, ' ').slice(0, 120);
}

export function forwardHook(opts: ShimOptions): Promise<ShimResult> {
  return new Promise((resolve) => {
    let settled = false;
    let replyTimer: ReturnType<typeof setTimeout> | undefined;
    const where = `port ${opts.port}`;
    const finish = (stdout: string, fellBack: string | null, severity: 'quiet' | 'say' = 'say'): void => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(replyTimer);
      req.destroy();
      resolve(fellBack === null ? { stdout, fellBack } : { stdout, fellBack, severity });
    };
    const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': opts.body.length };
    if (opts.adapter !== undefined) headers[ADAPTER_HEADER] = opts.adapter;
    const req = request({ host: '127.0.0.1', port: opts.port, method: 'POST', path: `/hook/${encodeSegment(opts.hookEvent)}`, headers });
    const connectTimer = setTimeout(() => finish(opts.neutral, `the daemon on ${where} did not answer within ${opts.connectTimeoutMs ?? SHIM_CONNECT_TIMEOUT_MS} ms (is it stuck?)`), opts.connectTimeoutMs ?? SHIM_CONNECT_TIMEOUT_MS);
    req.on('error', (err) => {
      const code = (err as NodeJS.ErrnoException).code;
      finish(opts.neutral, `no adapter daemon on ${where} (${code ?? err.message})`, code === 'ECONNREFUSED' ? 'quiet' : 'say');
    });
    req.on('response', (res) => {
      clearTimeout(connectTimer);
      const served = firstHeader(res.headers[ADAPTER_HEADER]);
      const status = res.statusCode ?? 0;
      if (status !== 200) {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => void (text.length < 4096 && (text += c)));
        const explain = (): void => {
          if (status === 409 && served !== undefined) finish(opts.neutral, `${where} is the ${served} adapter daemon, not ${opts.adapter ?? 'this adapter'}'s (two installs on one port?)`);
          else if (status === 404 || status === 405) finish(opts.neutral, `${where} answered HTTP ${status} to POST /hook/${opts.hookEvent}: it is not an aep adapter daemon (a relay, or another server?)`);
          else finish(opts.neutral, `the daemon on ${where} refused the hook with HTTP ${status}: ${detailOf(text)}`);
        };
        res.on('end', explain);
        res.on('close', explain);
        res.on('error', explain);
        return;
      }
      if (opts.adapter !== undefined && served !== opts.adapter) {
        res.resume();
        finish(
          opts.neutral,
          served === undefined
            ? `${where} answered without naming its adapter: it is not an aep adapter daemon of this version`
            : `${where} is the ${served} adapter daemon, not ${opts.adapter}'s (two installs on one port?)`,
        );
        return;
      }
      const hold = Number(firstHeader(res.headers[HOLD_HEADER]));
      const bound = Number.isInteger(hold) && hold > 0 ? hold + REPLY_GRACE_MS : (opts.replyTimeoutMs ?? 60_000);
      replyTimer = setTimeout(() => finish(opts.neutral, `the daemon on ${where} held the hook past the reply bound (${bound} ms)`), bound);
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => finish(Buffer.concat(chunks).toString('utf8'), null));
      res.on('close', () => finish(opts.neutral, `the daemon on ${where} cut the reply off`));
      res.on('error', (err) => finish(opts.neutral, `the daemon on ${where} cut the reply off (${err.message})`));
    });
    req.end(opts.body);
  });
}

/** What {@link readHookInput} got: the body to forward, or why there is none. */
export type HookInputResult = { ok: true; body: Buffer } | { ok: false; why: string };

function completeObject(chunks: Buffer[]): boolean {
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Whether the last non-blank byte read is `}`: only then can the JSON object be complete. */
function endsWithBrace(chunk: Buffer): boolean {
  for (let i = chunk.length - 1; i >= 0; i--) {
    const b = chunk[i]!;
    if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) continue;
    return b === 0x7d;
  }
  return false;
}

/**
 * Read the hook JSON from `source` (stdin), bounded in bytes and time. Resolves as soon as the
 * source ends or the bytes read form a complete JSON object; then checks that it is one.
 * Never rejects.
 */
export async function readHookInput(
  source: AsyncIterable<Buffer | string>,
  bounds: { maxBytes?: number; timeoutMs?: number } = {},
): Promise<HookInputResult> {
  const maxBytes = bounds.maxBytes ?? MAX_HOOK_BYTES;
  const timeoutMs = bounds.timeoutMs ?? STDIN_TIMEOUT_MS;
  const chunks: Buffer[] = [];
  let size = 0;
  const iterator = source[Symbol.asyncIterator]();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), timeout]);
      if (next === 'timeout') {
        return size === 0
          ? { ok: false, why: `stdin stayed open with no hook JSON for ${timeoutMs} ms (the vendor pipes the hook JSON on stdin)` }
          : { ok: false, why: `stdin did not close or complete a JSON object within ${timeoutMs} ms (${size} bytes read)` };
      }
      if (next.done) break;
      const chunk = Buffer.from(next.value); // a copy: the source may reuse its buffer
      size += chunk.length;
      if (size > maxBytes) return { ok: false, why: `stdin holds more than ${maxBytes} bytes, over the hook bound; not forwarded` };
      chunks.push(chunk);
      if (endsWithBrace(chunk) && completeObject(chunks)) break;
    }
  } catch (err) {
    return { ok: false, why: `cannot read stdin (${(err as Error).message})` };
  } finally {
    clearTimeout(timer);
    void iterator.return?.();
  }
  const body = Buffer.concat(chunks);
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (err) {
    return { ok: false, why: body.length === 0 ? 'stdin was empty; the vendor pipes the hook JSON on stdin' : `stdin is not JSON (${(err as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, why: 'stdin is JSON but not an object; a hook payload is a JSON object' };
  return { ok: true, body };
}
