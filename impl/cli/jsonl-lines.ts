/**
 * Lines of a byte stream, with memory bounded by the line limit whatever the input: a line
 * longer than `maxLine` bytes is not kept, only measured, until its newline (or the end).
 * `aep validate` reads files and standard input through this, so `/dev/zero` or an endless
 * pipe costs at most one line of memory.
 */
import { MAX_LINE_BYTES } from '../core/stream.js';

/** One line: its 1-based number, and its bytes (without the `\n`; a `\r` stays), or null when over the limit. */
export interface RawJsonlLine {
  line: number;
  bytes: Buffer | null;
  /** Its length in bytes, without a trailing `\r`. */
  size: number;
  /** The byte offset of its first byte in the source. */
  offset: number;
}

export async function* jsonlLines(source: AsyncIterable<Buffer | string | Uint8Array>, maxLine: number = MAX_LINE_BYTES): AsyncGenerator<RawJsonlLine> {
  let parts: Buffer[] = [];
  let size = 0;
  let over = false;
  let last = -1;
  let line = 0;
  let offset = 0;
  const take = (): RawJsonlLine => {
    const length = last === 0x0d ? size - 1 : size;
    const result: RawJsonlLine = { line: ++line, bytes: over || length > maxLine ? null : Buffer.concat(parts, size), size: length, offset };
    offset += size + 1;
    parts = [];
    size = 0;
    over = false;
    last = -1;
    return result;
  };
  for await (const raw of source) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl === -1 ? chunk.length : nl;
      if (end > start) {
        const piece = chunk.subarray(start, end);
        size += piece.length;
        last = piece[piece.length - 1]!;
        if (!over && size > maxLine + 1) {
          over = true;
          parts = [];
        } else if (!over) parts.push(Buffer.from(piece)); // a copy: never pin the whole chunk
      }
      if (nl === -1) break;
      yield take();
      start = nl + 1;
    }
  }
  if (size > 0) yield take();
}
