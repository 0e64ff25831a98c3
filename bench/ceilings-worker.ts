/**
 * The worker of `ceilings.ts`'s thread measure. It is given once a `SharedArrayBuffer` of UTF-8
 * JSONL and the byte range that is its share (cut at line ends); then, for each message, it
 * decodes its range (in pieces) and runs `JSON.parse` on every non-empty line (the `stream` row's baseline
 * work), and replies with the count of lines parsed. Nothing is copied between the threads but
 * the counts.
 */
import { parentPort } from 'node:worker_threads';

export function parseLines(text: string): number {
  let n = 0;
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end > start) {
      JSON.parse(text.slice(start, end));
      n++;
    }
    start = end + 1;
  }
  return n;
}

let share: Buffer | undefined;

/**
 * Pieces of about 64 KiB, each cut after a line end. Decoding a share in one call makes one
 * string of megabytes, a large object for V8: 9 ms for the `stream` row's 3 MB against 0.34 ms
 * in 64 KiB pieces, measured here (docs/performance.md).
 */
const PIECE = 64 * 1024;

function parseShare(bytes: Buffer): number {
  let n = 0;
  for (let start = 0; start < bytes.length; ) {
    const cut = bytes.indexOf(0x0a, Math.min(bytes.length, start + PIECE));
    const end = cut < 0 ? bytes.length : cut + 1;
    n += parseLines(bytes.toString('utf8', start, end));
    start = end;
  }
  return n;
}

parentPort?.on('message', (msg: { bytes: SharedArrayBuffer; start: number; end: number } | 'run') => {
  // A Buffer over the shared bytes: `TextDecoder` refuses shared memory, `toString` decodes it in place.
  if (msg !== 'run') share = Buffer.from(msg.bytes, msg.start, msg.end - msg.start);
  else parentPort!.postMessage(share === undefined ? -1 : parseShare(share));
});
