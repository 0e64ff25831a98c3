/**
 * Lines of a byte or text stream, linear and bounded: each chunk is scanned once (never the
 * buffered rest again), bytes are decoded as UTF-8 across chunk boundaries, and a line longer than
 * `maxLine` characters is skipped up to its end (`onOverflow` hears it) instead of being kept.
 */
import { StringDecoder } from 'node:string_decoder';

export const MAX_LINE_CHARS = 16 * 1024 * 1024;

export class LineSplitter {
  private parts: string[] = [];
  private size = 0;
  private skipping = false;
  private readonly decoder = new StringDecoder('utf8');

  constructor(private readonly maxLine: number = MAX_LINE_CHARS, private readonly onOverflow: () => void = () => undefined) {}

  /** Feed a chunk; `onLine` gets each completed line (without its `\n`), in order. */
  feed(chunk: Buffer | string, onLine: (line: string) => void): void {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      this.take(text.slice(start, nl));
      const line = this.skipping ? undefined : this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
      this.parts = [];
      this.size = 0;
      this.skipping = false;
      start = nl + 1;
      if (line !== undefined) onLine(line);
    }
    this.take(text.slice(start));
  }

  private take(piece: string): void {
    if (this.skipping || piece === '') return;
    this.size += piece.length;
    if (this.size > this.maxLine) {
      this.skipping = true;
      this.parts = [];
      this.onOverflow();
      return;
    }
    this.parts.push(piece);
  }
}
