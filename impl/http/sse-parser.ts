/**
 * An incremental SSE parser (the WHATWG event-stream format: `id:`, `event:`, `data:` lines, a
 * blank line ends a message, `:` comments), linear in its input: each chunk is scanned once, never
 * the buffer again. Bounded: a line or a message longer than `maxLine` characters is skipped up to
 * its end (`onOverflow` hears it), so a stream that never sends a newline costs at most one line.
 */
export interface SseMessage {
  id?: string;
  event?: string;
  data: string;
}

/** The default bound on one line and one message: 16 MiB of text. */
export const SSE_MAX_LINE = 16 * 1024 * 1024;

export interface SseParserOptions {
  /** Longest line, and longest message (its data lines together), in characters. */
  maxLine?: number;
  /** Called once per line or message skipped for its size. */
  onOverflow?: (what: 'line' | 'message') => void;
}

const BREAK = /[\r\n]/g;

export class SseParser {
  private parts: string[] = [];
  private partSize = 0;
  /** The current line went over the bound: skip it up to its end. */
  private skipping = false;
  /** The previous chunk ended on `\r`: a `\n` opening this one belongs to it. */
  private pendingCr = false;
  private current: { id?: string; event?: string; data: string[]; size: number; over: boolean } = { data: [], size: 0, over: false };
  private readonly maxLine: number;
  private readonly onOverflow: (what: 'line' | 'message') => void;

  constructor(opts: SseParserOptions = {}) {
    this.maxLine = opts.maxLine ?? SSE_MAX_LINE;
    this.onOverflow = opts.onOverflow ?? (() => undefined);
  }

  feed(chunk: string, onMessage: (m: SseMessage) => void, onComment: (text: string) => void = () => undefined): void {
    let start = 0;
    if (this.pendingCr && chunk.startsWith('\n')) start = 1;
    this.pendingCr = false;
    BREAK.lastIndex = start;
    for (let m = BREAK.exec(chunk); m !== null; m = BREAK.exec(chunk)) {
      const at = m.index;
      this.take(chunk.slice(start, at));
      const line = this.skipping ? null : this.parts.join('');
      this.parts = [];
      this.partSize = 0;
      const skipped = this.skipping;
      this.skipping = false;
      if (chunk[at] === '\r') {
        if (at + 1 >= chunk.length) this.pendingCr = true;
        else if (chunk[at + 1] === '\n') BREAK.lastIndex = at + 2;
      }
      start = BREAK.lastIndex;
      if (!skipped) this.line(line!, onMessage, onComment);
    }
    this.take(chunk.slice(start));
  }

  private take(piece: string): void {
    if (this.skipping || piece === '') return;
    this.partSize += piece.length;
    if (this.partSize > this.maxLine) {
      this.skipping = true;
      this.parts = [];
      this.partSize = 0;
      this.onOverflow('line');
      return;
    }
    this.parts.push(piece);
  }

  private line(line: string, onMessage: (m: SseMessage) => void, onComment: (text: string) => void): void {
    if (line === '') {
      const c = this.current;
      if (c.data.length > 0 && !c.over) {
        const m: SseMessage = { data: c.data.join('\n') };
        if (c.id !== undefined) m.id = c.id;
        if (c.event !== undefined) m.event = c.event;
        onMessage(m);
      }
      this.current = { data: [], size: 0, over: false };
      return;
    }
    if (line.startsWith(':')) {
      onComment(line.slice(1).trimStart());
      return;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    const c = this.current;
    if (field === 'data') {
      if (c.over) return;
      c.size += value.length + 1;
      if (c.size > this.maxLine) {
        c.over = true;
        c.data = [];
        this.onOverflow('message');
        return;
      }
      c.data.push(value);
    } else if (field === 'id') c.id = value;
    else if (field === 'event') c.event = value;
  }
}
