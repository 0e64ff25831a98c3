/**
 * A small, strict `text/event-stream` reader (WHATWG HTML §9.2.6), pure: bytes in, items out.
 *
 * Strict means the reader keeps what a checker needs to judge a relay, where a browser
 * would smooth it over: comments are surfaced (AEP uses `: replay-exhausted` and `: ping`),
 * every item keeps its order, and an event reports how many `data:` lines it was built from
 * (AEP-0003 §3.3 puts the Event JSON on ONE line).
 */

/** One dispatched SSE message. */
export interface SseMessage {
  kind: 'message';
  /** The `event:` field, or undefined when absent (the WHATWG default type is "message"). */
  event?: string;
  /** The `data:` lines joined with "\n", as WHATWG dispatches them. */
  data: string;
  /** How many `data:` lines made up `data` (AEP wants exactly 1). */
  dataLines: number;
  /** The `id:` field of this message, when it carried one (not the sticky last-event-id). */
  id?: string;
}

/** One comment line (`: text`), the leading colon and at most one space removed. */
export interface SseComment {
  kind: 'comment';
  text: string;
}

export type SseItem = SseMessage | SseComment;

/** Incremental parser. `push` may be called with arbitrary chunk boundaries, even inside a UTF-8 sequence. */
export interface SseParser {
  /** Feed the next chunk; returns the items completed by it, in stream order. */
  push(chunk: Uint8Array | string): SseItem[];
  /** The stream ended: returns nothing more (an unterminated message is discarded, per WHATWG). */
  end(): SseItem[];
}

/** The field layer: one line at a time, builds a message from its fields and surfaces comments. */
class SseFields {
  private data: string[] = [];
  private event: string | undefined;
  private id: string | undefined;

  /** Forget the message being built (a dispatch, or the stream's end). */
  reset(): void {
    this.data = [];
    this.event = undefined;
    this.id = undefined;
  }

  /** One line (without its terminator): a blank line dispatches, a `:` line is a comment, else a field. */
  line(text: string, out: SseItem[]): void {
    if (text === '') {
      if (this.data.length > 0) {
        const msg: SseMessage = { kind: 'message', data: this.data.join('\n'), dataLines: this.data.length };
        if (this.event !== undefined) msg.event = this.event;
        if (this.id !== undefined) msg.id = this.id;
        out.push(msg);
      }
      this.reset();
      return;
    }
    if (text.startsWith(':')) {
      out.push({ kind: 'comment', text: text.slice(text.startsWith(': ') ? 2 : 1) });
      return;
    }
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    // `retry` and unknown fields are ignored, as WHATWG says.
  }
}

/** The byte and line layer: UTF-8 decoding across chunks, the leading BOM, CR / LF / CRLF line ends. */
class StrictSseParser implements SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly fields = new SseFields();
  private buffer = '';
  private started = false;
  private pendingCr = false;

  push(chunk: Uint8Array | string): SseItem[] {
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    this.buffer += text;
    const out: SseItem[] = [];
    this.drain(out);
    return out;
  }

  end(): SseItem[] {
    this.buffer += this.decoder.decode();
    const out: SseItem[] = [];
    this.drain(out);
    this.buffer = '';
    this.fields.reset();
    return out;
  }

  /** Every complete line of the buffer to the field layer; the incomplete tail stays buffered. */
  private drain(out: SseItem[]): void {
    const { buffer } = this;
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const c = buffer[i];
      if (this.pendingCr) {
        this.pendingCr = false;
        if (c === '\n') {
          start = i + 1;
          continue;
        }
      }
      if (c === '\n' || c === '\r') {
        this.fields.line(buffer.slice(start, i), out);
        if (c === '\r') this.pendingCr = true;
        start = i + 1;
      }
    }
    this.buffer = buffer.slice(start);
  }
}

export function createSseParser(): SseParser {
  return new StrictSseParser();
}
