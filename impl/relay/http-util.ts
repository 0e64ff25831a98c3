/** Small HTTP helpers shared by the relay's endpoints: JSON replies, CORS, bounded bodies. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Sent on every reply so a browser can read refusals (a 401 instead of status 0). */
export const CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'Authorization, Content-Type, AEP-Version, Last-Event-ID',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
});

/** Reply with a JSON body (one line plus a newline). Safe to call once per response. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, {
    ...CORS_HEADERS,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export type BodyResult =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: 'too-large' | 'aborted' }
  | { readonly ok: false; readonly reason: 'encoding'; readonly offset: number };

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The byte offset of the first invalid UTF-8 sequence in `bytes` (called once decoding failed). */
function firstInvalidUtf8(bytes: Buffer): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    try {
      UTF8.decode(bytes.subarray(i, i + need + 1));
    } catch {
      return i;
    }
    i += need + 1;
  }
  return bytes.length;
}

/**
 * Read a request body of at most `max` bytes. A declared `content-length` over the bound
 * is refused before a byte is read; a chunked upload is refused as soon as it crosses it.
 */
export function readBody(req: IncomingMessage, max: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve({ ok: false, reason: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (r: BodyResult): void => {
      if (done) return;
      done = true;
      req.removeListener('data', onData);
      resolve(r);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > max) finish({ ok: false, reason: 'too-large' });
      else chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => {
      // Strict decoding: invalid UTF-8 is refused, never replaced with U+FFFD (AEP-0003 §3.1).
      const bytes = Buffer.concat(chunks);
      try {
        finish({ ok: true, text: UTF8.decode(bytes) });
      } catch {
        finish({ ok: false, reason: 'encoding', offset: firstInvalidUtf8(bytes) });
      }
    });
    req.once('error', () => finish({ ok: false, reason: 'aborted' }));
    req.once('close', () => finish({ ok: false, reason: 'aborted' }));
  });
}

/**
 * Answer 413 without reading the rest of the upload: the reply goes out first, the rest of
 * the body is discarded, and the connection is closed shortly after.
 */
export function refuseTooLarge(req: IncomingMessage, res: ServerResponse, max: number): void {
  sendJson(res, 413, { error: 'payload-too-large', detail: `the body exceeds ${max} bytes (AEP_MAX_BODY); nothing was ingested` }, { connection: 'close' });
  req.resume();
  const timer = setTimeout(() => req.socket.destroy(), 2_000);
  timer.unref();
  req.socket.once('close', () => clearTimeout(timer));
}

/** The media type of a request without parameters, lower-cased (`application/json; charset=utf-8` → `application/json`). */
export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}
