/**
 * Re-reads a line of a file by its byte offset (as {@link jsonlLines} reported it), through one
 * 256 KiB read-ahead window: lines read in about file order cost one read per window, and memory
 * is the window plus the one line (at most `maxLine` bytes) whatever the file's size.
 */
import type { FileHandle } from 'node:fs/promises';

const WINDOW = 256 * 1024;

export class LineAt {
  private buf = Buffer.allocUnsafe(WINDOW);
  private start = 0;
  private end = 0;

  constructor(private readonly handle: FileHandle, private readonly maxLine: number) {}

  /** The line starting at `offset`, without its `\n` (a `\r` stays, as in jsonlLines); past `maxLine` bytes it is cut. */
  async line(offset: number): Promise<Buffer> {
    if (offset < this.start || offset >= this.end) await this.fill(offset, WINDOW);
    for (;;) {
      const from = offset - this.start;
      const held = this.buf.subarray(from, this.end - this.start);
      const nl = held.indexOf(0x0a);
      if (nl !== -1) return Buffer.from(held.subarray(0, nl));
      const atEnd = this.end - this.start < this.buf.length; // the last read stopped short: the end of the file
      if (atEnd || held.length > this.maxLine + 1) return Buffer.from(held.subarray(0, Math.min(held.length, this.maxLine + 1)));
      await this.fill(offset, Math.max(held.length * 2, WINDOW)); // the line runs past the window: read from its start, wider
    }
  }

  private async fill(offset: number, size: number): Promise<void> {
    if (this.buf.length < size) this.buf = Buffer.allocUnsafe(size);
    else if (this.buf.length > WINDOW && size <= WINDOW) this.buf = Buffer.allocUnsafe(WINDOW); // give a widened window back
    let got = 0;
    for (;;) {
      const { bytesRead } = await this.handle.read(this.buf, got, this.buf.length - got, offset + got);
      if (bytesRead === 0) break;
      got += bytesRead;
      if (got === this.buf.length) break;
    }
    this.start = offset;
    this.end = offset + got;
  }
}
