/**
 * An incremental SSE parser (the WHATWG event-stream rules the relay's frames use), pure: text
 * chunks in, messages and comments out. Fields: `id`, `event`, `data` (joined by `\n`);
 * comments (`: text`) come out as they are, since the relay says `replay-exhausted` in one.
 */
export type SseItem = { kind: 'message'; id: string | undefined; event: string; data: string } | { kind: 'comment'; text: string };

export class SseParser {
  #buffer = '';
  #id: string | undefined;
  #event = '';
  #data: string[] = [];

  push(chunk: string): SseItem[] {
    this.#buffer += chunk;
    const out: SseItem[] = [];
    for (;;) {
      const nl = this.#buffer.search(/\r\n|\r|\n/);
      if (nl < 0) break;
      const line = this.#buffer.slice(0, nl);
      const len = this.#buffer.startsWith('\r\n', nl) ? 2 : 1;
      this.#buffer = this.#buffer.slice(nl + len);
      if (line === '') {
        if (this.#data.length > 0) out.push({ kind: 'message', id: this.#id, event: this.#event || 'message', data: this.#data.join('\n') });
        this.#id = undefined;
        this.#event = '';
        this.#data = [];
        continue;
      }
      if (line.startsWith(':')) {
        out.push({ kind: 'comment', text: line.slice(1).replace(/^ /, '') });
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') this.#data.push(value);
      else if (field === 'event') this.#event = value;
      else if (field === 'id') this.#id = value;
    }
    return out;
  }
}

/** `replay-exhausted {session} {epoch}:{seq}` → the session and the earliest held position. */
export function parseExhausted(text: string): { session: string; epoch: number; seq: number } | undefined {
  const m = /^replay-exhausted (.+) (\d+):(\d+)$/s.exec(text);
  return m ? { session: m[1]!, epoch: Number(m[2]), seq: Number(m[3]) } : undefined;
}
