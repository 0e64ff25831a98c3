/**
 * Reading a bounded request body, strictly decoded as UTF-8: one reader for every loopback HTTP
 * endpoint of the project (the relay's ingest, the adapter daemons' hooks, the OTLP receiver).
 * I/O only at the edge: the result is data, the caller renders the refusal.
 */
import type { IncomingMessage } from 'node:http';

export type BodyResult =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: 'too-large' | 'aborted' }
  | { readonly ok: false; readonly reason: 'encoding'; readonly offset: number };

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The byte offset of the first invalid UTF-8 sequence in `bytes` (called once decoding failed). */
export function firstInvalidUtf8(bytes: Buffer): number {
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

/** What {@link readChunks} gives: the body's chunks as they arrived, or why there is no body. */
export type ChunksResult = { readonly ok: true; readonly chunks: readonly Buffer[] } | { readonly ok: false; readonly reason: 'too-large' | 'aborted' };

/**
 * Collect a request body of at most `max` bytes as the socket's chunks, undecoded. A declared
 * `content-length` over the bound is refused before a byte is read; a chunked upload is refused
 * as soon as it crosses it. The one bounded reader under {@link readBody} and the relay's
 * `readBodyLines`, which decode the chunks each their way.
 */
export function readChunks(req: IncomingMessage, max: number): Promise<ChunksResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve({ ok: false, reason: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (r: ChunksResult): void => {
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
    req.once('end', () => finish({ ok: true, chunks }));
    req.once('error', () => finish({ ok: false, reason: 'aborted' }));
    req.once('close', () => finish({ ok: false, reason: 'aborted' }));
  });
}

/**
 * Read a request body of at most `max` bytes (bounded as {@link readChunks} says), strictly
 * decoded as UTF-8: invalid UTF-8 is refused with the offset of its first bad byte, never
 * replaced with U+FFFD (AEP-0003 §3.1).
 */
export async function readBody(req: IncomingMessage, max: number): Promise<BodyResult> {
  const read = await readChunks(req, max);
  if (!read.ok) return read;
  const bytes = Buffer.concat(read.chunks);
  try {
    return { ok: true, text: UTF8.decode(bytes) };
  } catch {
    return { ok: false, reason: 'encoding', offset: firstInvalidUtf8(bytes) };
  }
}
