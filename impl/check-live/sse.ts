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

export function createSseParser(): SseParser {
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  let started = false;
  let pendingCr = false;
  let data: string[] = [];
  let event: string | undefined;
  let id: string | undefined;

  const reset = (): void => {
    data = [];
    event = undefined;
    id = undefined;
  };

  const line = (text: string, out: SseItem[]): void => {
    if (text === '') {
      if (data.length > 0) {
        const msg: SseMessage = { kind: 'message', data: data.join('\n'), dataLines: data.length };
        if (event !== undefined) msg.event = event;
        if (id !== undefined) msg.id = id;
        out.push(msg);
      }
      reset();
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
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
    // `retry` and unknown fields are ignored, as WHATWG says.
  };

  const drain = (out: SseItem[]): void => {
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const c = buffer[i];
      if (pendingCr) {
        pendingCr = false;
        if (c === '\n') {
          start = i + 1;
          continue;
        }
      }
      if (c === '\n' || c === '\r') {
        line(buffer.slice(start, i), out);
        if (c === '\r') pendingCr = true;
        start = i + 1;
      }
    }
    buffer = buffer.slice(start);
  };

  return {
    push(chunk) {
      let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      if (!started && text.length > 0) {
        started = true;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      buffer += text;
      const out: SseItem[] = [];
      drain(out);
      return out;
    },
    end() {
      buffer += decoder.decode();
      const out: SseItem[] = [];
      drain(out);
      buffer = '';
      reset();
      return out;
    },
  };
}
