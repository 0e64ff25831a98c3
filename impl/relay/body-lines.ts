/**
 * Reading an NDJSON request body straight into its lines: exactly `readBody`'s verdicts
 * (impl/http/body.ts: the same bound, the same strict UTF-8 and the same first bad byte) and
 * exactly the lines `text.split('\n')` gives of its text, without ever making the body one
 * buffer or one string. The body is decoded in pieces of at most `PIECE` bytes cut after a line
 * feed (a byte that is never part of a multi-byte UTF-8 sequence, so each piece is valid UTF-8
 * exactly when the whole is), so each piece's string stays a young, small V8 string: one
 * string of a batch's several hundred KiB is a large object (its own pages, mapped and unmapped
 * per request; measured far slower to make than the same text in pieces), and one buffer of it
 * is a fresh allocation of that size too. ASCII
 * pieces (`isAscii`) are decoded as latin1, which for ASCII is the same text.
 */
import { isAscii } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { firstInvalidUtf8, readChunks } from '../http/body.js';

export type LinesResult =
  | { readonly ok: true; readonly lines: string[] }
  | { readonly ok: false; readonly reason: 'too-large' | 'aborted' }
  | { readonly ok: false; readonly reason: 'encoding'; readonly offset: number };

/** The most bytes decoded into one string when lines allow (a longer line is one piece of its own). */
export const PIECE = 32_768;

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Thrown inside `linesOf` when a piece is not valid UTF-8. */
class BadUtf8 extends Error {}

function decode(bytes: Buffer): string {
  if (isAscii(bytes)) return bytes.toString('latin1');
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new BadUtf8();
  }
}

/** The lines of `piece` (no line feed at its end) appended to `lines`. */
function pushLines(lines: string[], piece: Buffer): void {
  const parts = decode(piece).split('\n');
  for (let i = 0; i < parts.length; i++) lines.push(parts[i]!);
}

/**
 * `chunks` (the body, in order) as `text.split('\n')` of its strict UTF-8 decoding, or undefined
 * when it is not valid UTF-8. Pure.
 */
export function linesOf(chunks: readonly Buffer[]): string[] | undefined {
  const lines: string[] = [];
  // The bytes of the current line seen so far in earlier chunks.
  const pending: Buffer[] = [];
  try {
    for (const chunk of chunks) {
      let from = 0;
      while (from < chunk.length) {
        const limit = Math.min(chunk.length - 1, from + PIECE - 1);
        let nl = chunk.lastIndexOf(0x0a, limit);
        if (nl < from) nl = chunk.indexOf(0x0a, limit + 1);
        if (nl < 0) {
          pending.push(chunk.subarray(from));
          break;
        }
        let piece = chunk.subarray(from, nl);
        if (pending.length > 0) {
          pending.push(piece);
          piece = Buffer.concat(pending);
          pending.length = 0;
        }
        pushLines(lines, piece);
        from = nl + 1;
      }
    }
    lines.push(pending.length === 0 ? '' : decode(pending.length === 1 ? pending[0]! : Buffer.concat(pending)));
  } catch (err) {
    if (err instanceof BadUtf8) return undefined;
    throw err;
  }
  return lines;
}

/**
 * Read a request body of at most `max` bytes (bounded as `readChunks` says) as its lines
 * (`linesOf`); invalid UTF-8 names the first bad byte, as `readBody` does.
 */
export async function readBodyLines(req: IncomingMessage, max: number): Promise<LinesResult> {
  const read = await readChunks(req, max);
  if (!read.ok) return read;
  // Strict decoding: invalid UTF-8 is refused, never replaced with U+FFFD (AEP-0003 §3.1).
  const lines = linesOf(read.chunks);
  return lines !== undefined ? { ok: true, lines } : { ok: false, reason: 'encoding', offset: firstInvalidUtf8(Buffer.concat(read.chunks)) };
}
