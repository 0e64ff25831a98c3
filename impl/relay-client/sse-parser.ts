/**
 * The one incremental SSE parser (WHATWG HTML, "Interpreting an event stream"), pure and
 * dependency-free, so it runs in Node and in the browser (the console's page bundles it).
 *
 * Rules kept: lines end at CRLF, LF or CR (a CR ending one chunk and an LF opening the next are one
 * break); one leading U+FEFF (BOM) of the stream is dropped; `data:` lines are joined by `\n`; a
 * blank line dispatches the message (a message with no `data:` line is not dispatched); `event:`
 * names it (absent means the default type, "message"); `id:` sets it (ignored when the value holds
 * U+0000) and sets the sticky {@link SseParser.lastEventId}; `retry:` with ASCII digits only sets
 * {@link SseParser.retry}; a line starting with `:` is a comment; one space after the colon is
 * dropped; unknown fields are ignored; at the end of the stream an unfinished message is discarded.
 *
 * Unlike a browser, comments are surfaced (the relay says `: replay-exhausted ...` in one), and a
 * message's `id` is the `id:` it carried itself (the sticky value is `lastEventId`).
 *
 * Linear and bounded: each chunk is scanned once, never the buffer again; a line or a message longer
 * than `maxLine` characters is skipped up to its end (`onOverflow` hears it), so a stream that never
 * sends a newline costs at most one line.
 */
export interface SseMessage {
  /** The `id:` this message carried, if any. */
  id?: string;
  /** The `event:` field, if any (the WHATWG default type is "message"). */
  event?: string;
  /** The `data:` lines joined by `\n`. */
  data: string;
}

/** What `push` returns, in stream order. */
export type SseItem = ({ kind: 'message' } & SseMessage) | { kind: 'comment'; text: string };

/** The default bound on one line and one message: 16 MiB of text. */
export const SSE_MAX_LINE = 16 * 1024 * 1024;

export interface SseParserOptions {
  /** Longest line, and longest message (its data lines together), in characters. */
  maxLine?: number;
  /** Called once per line or message skipped for its size. */
  onOverflow?: (what: 'line' | 'message') => void;
}

const BREAK = /[\r\n]/g;
const noop = (): void => undefined;

interface Pending {
  id?: string;
  event?: string;
  data: string[];
  size: number;
  over: boolean;
}

export class SseParser {
  private parts: string[] = [];
  private partSize = 0;
  /** The current line went over the bound: skip it up to its end. */
  private skipping = false;
  /** The previous chunk ended on `\r`: a `\n` opening this one belongs to it. */
  private pendingCr = false;
  /** Nothing has been read yet: a BOM opening the stream is dropped. */
  private atStart = true;
  private current: Pending = { data: [], size: 0, over: false };
  private decoder: { decode(input: Uint8Array, opts: { stream: boolean }): string } | undefined;
  private readonly maxLine: number;
  private readonly onOverflow: (what: 'line' | 'message') => void;
  private lastId = '';
  private retryMs: number | undefined;

  constructor(opts: SseParserOptions = {}) {
    this.maxLine = opts.maxLine ?? SSE_MAX_LINE;
    this.onOverflow = opts.onOverflow ?? noop;
  }

  /** WHATWG's last event ID: the latest `id:` seen (sticky across messages), `''` before any. */
  get lastEventId(): string {
    return this.lastId;
  }

  /** The reconnection time the stream asked for (`retry:`), in ms, if it did. */
  get retry(): number | undefined {
    return this.retryMs;
  }

  /**
   * Feeds the next chunk (text, or bytes decoded as UTF-8 across chunk boundaries) and calls
   * `onMessage`/`onComment` for what it completes, in stream order.
   */
  feed(chunk: string | Uint8Array, onMessage: (m: SseMessage) => void, onComment: (text: string) => void = noop): void {
    let text = typeof chunk === 'string' ? chunk : (this.decoder ??= new TextDecoder('utf-8')).decode(chunk, { stream: true });
    if (this.atStart && text !== '') {
      this.atStart = false;
      if (text.startsWith('\uFEFF')) text = text.slice(1);
    }
    this.scan(text, onMessage, onComment);
  }

  /** {@link feed} returning the completed items instead of calling back. */
  push(chunk: string | Uint8Array): SseItem[] {
    const out: SseItem[] = [];
    this.feed(chunk, (m) => out.push({ kind: 'message', ...m }), (text) => out.push({ kind: 'comment', text }));
    return out;
  }

  /** The stream ended: an unfinished line and message are discarded (WHATWG); the parser starts over. */
  end(): void {
    this.parts = [];
    this.partSize = 0;
    this.skipping = false;
    this.pendingCr = false;
    this.atStart = true;
    this.decoder = undefined;
    this.current = { data: [], size: 0, over: false };
  }

  private scan(chunk: string, onMessage: (m: SseMessage) => void, onComment: (text: string) => void): void {
    let start = 0;
    if (this.pendingCr && chunk.startsWith('\n')) start = 1;
    if (chunk !== '') this.pendingCr = false;
    BREAK.lastIndex = start;
    for (let m = BREAK.exec(chunk); m !== null; m = BREAK.exec(chunk)) {
      const at = m.index;
      this.take(chunk.slice(start, at));
      const line = this.skipping ? null : this.parts.join('');
      this.parts = [];
      this.partSize = 0;
      this.skipping = false;
      if (chunk[at] === '\r') {
        if (at + 1 >= chunk.length) this.pendingCr = true;
        else if (chunk[at + 1] === '\n') BREAK.lastIndex = at + 2;
      }
      start = BREAK.lastIndex;
      if (line !== null) this.line(line, onMessage, onComment);
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
    if (line === '') return this.dispatch(onMessage);
    if (line.startsWith(':')) return onComment(line.startsWith(': ') ? line.slice(2) : line.slice(1));
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
    } else if (field === 'id') {
      if (value.includes('\u0000')) return;
      c.id = value;
      this.lastId = value;
    } else if (field === 'event') c.event = value;
    else if (field === 'retry' && /^[0-9]+$/.test(value)) this.retryMs = Number(value);
  }

  private dispatch(onMessage: (m: SseMessage) => void): void {
    const c = this.current;
    this.current = { data: [], size: 0, over: false };
    if (c.data.length === 0 || c.over) return;
    const m: SseMessage = { data: c.data.join('\n') };
    if (c.id !== undefined) m.id = c.id;
    if (c.event !== undefined) m.event = c.event;
    onMessage(m);
  }
}
