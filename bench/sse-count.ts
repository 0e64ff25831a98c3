/**
 * Counting SSE event messages in a byte stream split at arbitrary points. Pure.
 * A message is text up to a blank line (`\n\n`); it is an event when it has a `data:` line.
 * Comments (`: ping`) and other fieldless messages are not counted. Only `\n` line ends
 * are recognized, which is what the relay writes.
 */
export class SseCounter {
  private pending = '';
  /** Event messages completed so far. */
  events = 0;

  /** Feed the next chunk of the stream, in order. May be called any time. */
  feed(chunk: string): void {
    const text = this.pending === '' ? chunk : this.pending + chunk;
    let start = 0;
    for (let end = text.indexOf('\n\n'); end !== -1; end = text.indexOf('\n\n', start)) {
      if (text.startsWith('data:', start)) this.events++;
      else {
        const data = text.indexOf('\ndata:', start);
        if (data !== -1 && data < end) this.events++;
      }
      start = end + 2;
    }
    this.pending = text.slice(start);
  }
}
