/**
 * The received text of one session's held events, stored in chunks: each event's text is a range
 * of one chunk string (its offset and length are kept by the caller), so a held event costs no
 * string of its own. Pure data structure, no I/O.
 *
 * Appended texts gather in the open chunk (an array of the texts as received, which may be slices
 * of a larger batch body) until `CHUNK` characters are reached or `seal` is called; sealing joins
 * them into one new flat string, so the chunk no longer keeps any batch body alive. A chunk is
 * dropped once none of its events is held any more (`release`).
 *
 * The bound: a chunk lives while one of its events does, so the text kept is at most the held
 * events' text plus, per held event, the rest of its chunk (under `CHUNK` characters plus one
 * event). Events are evicted by position, mostly in arrival order, so in practice the chunks die
 * in order and the waste is about one partly evicted chunk per session.
 */

/** Characters a chunk gathers before it is sealed (about 16 KiB of ASCII text). */
export const CHUNK = 16 * 1024;

export class TextChunks {
  /** Sealed chunk texts by chunk index (undefined: the open chunk, or a dropped one). */
  #texts: Array<string | undefined> = [];
  /** Held events per chunk, by chunk index. */
  #live: number[] = [];
  /** The chunk id of index 0 (ids are the running count of chunks opened, modulo 2^32). */
  #base = 0;
  /** How many chunks at the front are known dead. */
  #front = 0;
  /** The open chunk's id, or -1. */
  #open = -1;
  #pending: string[] = [];
  #pendingLength = 0;
  /** The chunk the last `append` wrote to. */
  appendedTo = 0;

  /** How many chunks are kept (open one included): for tests and accounting. */
  get chunks(): number {
    let n = 0;
    for (const live of this.#live) if (live > 0) n++;
    return n;
  }

  /** Add one event's text; returns its offset in chunk `appendedTo`. */
  append(text: string): number {
    // A chunk is sealed before it would pass `CHUNK` (the trailing newline included), so chunks fill their heap pages.
    if (this.#pendingLength > 0 && this.#pendingLength + text.length >= CHUNK) this.seal();
    if (this.#open < 0) {
      this.#open = (this.#base + this.#texts.length) >>> 0;
      this.#texts.push(undefined);
      this.#live.push(0);
    }
    const at = this.#pendingLength;
    this.appendedTo = this.#open;
    this.#pending.push(text);
    this.#pendingLength += text.length;
    this.#live[this.#index(this.#open)]!++;
    return at;
  }

  /** The whole text of chunk `chunk` (sealing it first when it is the open one). */
  text(chunk: number): string {
    if (chunk === this.#open) this.seal();
    return this.#texts[this.#index(chunk)]!;
  }

  /** The text of an event: `length` characters at `offset` of chunk `chunk`. */
  slice(chunk: number, offset: number, length: number): string {
    return this.text(chunk).slice(offset, offset + length);
  }

  /** Close the open chunk: its texts become one new string (a trailing newline makes it a copy even for one text). */
  seal(): void {
    if (this.#open < 0) return;
    this.#pending.push('\n');
    this.#texts[this.#index(this.#open)] = this.#pending.join('');
    this.#pending = [];
    this.#pendingLength = 0;
    this.#open = -1;
  }

  /** One event of chunk `chunk` is no longer held; the chunk goes with its last one. */
  release(chunk: number): void {
    const i = this.#index(chunk);
    if (--this.#live[i]! > 0) return;
    this.#texts[i] = undefined;
    if (chunk === this.#open) {
      this.#pending = [];
      this.#pendingLength = 0;
      this.#open = -1;
    }
    this.#trim();
  }

  #index(chunk: number): number {
    return (chunk - this.#base) >>> 0;
  }

  /** Drop the dead chunks at the front once they are at least half of the list (`#front` counts them). */
  #trim(): void {
    const live = this.#live;
    let dead = this.#front;
    while (dead < live.length && live[dead] === 0 && ((this.#base + dead) >>> 0) !== this.#open) dead++;
    this.#front = dead;
    if (dead === 0 || (dead < 32 && dead < live.length) || dead * 2 < live.length) return;
    this.#texts.splice(0, dead);
    live.splice(0, dead);
    this.#base = (this.#base + dead) >>> 0;
    this.#front = 0;
  }
}
