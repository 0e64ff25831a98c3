/**
 * The bytes of live SSE messages (AEP-0003 §3.3), built per fan-out rather than per event: the
 * messages one stream receives from one hub fan-out (a whole `POST /events` batch) are built as
 * one string and UTF-8-encoded once, and the streams that selected the same records at the same
 * ceiling share that one buffer (the hub hands every stream's flush one list per fan-out). No
 * object, string or buffer is kept per event: a fan-out to N streams costs one string and one
 * encoding per distinct selection and ceiling, whatever N is.
 * The bytes are exactly the concatenation of `sseEvent(event, renderAt(rec, ceiling))` in UTF-8
 * (`sse-bytes.test.ts` compares the two, sessions an SSE `id:` cannot carry included).
 * Pure apart from a small cache of the last few batches.
 */
import type { CaptureLevel } from '../core/event.js';
import type { Received } from './received.js';
import { lowerText, renderAt } from './render.js';
import { formatEventId, type Position } from './positions.js';

/** The key for "no ceiling" and `full` (both render the received bytes); never a capture level's name. */
const NO_CEILING = '*';
type CeilingKey = CaptureLevel | typeof NO_CEILING;

/** A batch built for one selection of records at one ceiling. */
interface Built {
  readonly key: CeilingKey;
  readonly recs: readonly Received[];
  readonly bytes: Buffer;
  /**
   * Set when the batch was built within a fan-out and its bytes are ASCII (so characters are
   * bytes): where the message of `recs[i]` starts in `bytes`, and at `recs.length` where the
   * last one ends. Another selection of the same fan-out at the same ceiling whose records all
   * appear here, in order, is cut from these bytes instead of built again.
   */
  readonly starts?: Uint32Array;
}
/**
 * What the streams of one hub fan-out built, shared among them (the hub's per-fan-out list,
 * `SubscriptionWriter.flush`): one entry per distinct selection and ceiling, whatever their
 * number, dropped with the fan-out.
 */
export type SharedBatches = Built[];

/** Without a fan-out's list (a writer flushed on its own): the last few batches built. */
const RECENT = 8;
const recent: Built[] = [];

/**
 * The SSE messages for `recs` at `ceiling`, in order, as one buffer. When the same records (the
 * same objects, in the same order) were built at the same ceiling for another stream of the same
 * fan-out (`shared`), or recently when there is no fan-out list, that buffer is returned:
 * identical records at one ceiling mean identical bytes, so sharing never changes what a stream
 * receives. `recs` is kept by reference for that comparison: the caller must not change it afterwards.
 */
export function batchBytes(recs: readonly Received[], ceiling: CaptureLevel | undefined, shared?: SharedBatches): Buffer {
  // `full` renders the received bytes, exactly like no ceiling.
  const key: CeilingKey = ceiling === undefined || ceiling === 'full' ? NO_CEILING : ceiling;
  const built = shared ?? recent;
  for (const b of built) if (b.key === key && sameRecords(b.recs, recs)) return b.bytes;
  if (shared) {
    // A larger selection of this fan-out at this ceiling holding every record: its messages, cut out.
    for (const b of shared) {
      if (b.key !== key || b.starts === undefined || b.recs.length <= recs.length) continue;
      const bytes = cut(b, recs);
      if (bytes === undefined) continue;
      shared.push({ key, recs, bytes });
      return bytes;
    }
    const starts = new Uint32Array(recs.length + 1);
    const texts = build(recs, ceiling, starts);
    const bytes = encode(texts);
    let chars = 0;
    for (let i = 0; i < texts.length; i++) chars += texts[i]!.length;
    // Offsets in characters are offsets in bytes only for ASCII text.
    shared.push(bytes.length === chars && starts[recs.length] === chars ? { key, recs, bytes, starts } : { key, recs, bytes });
    return bytes;
  }
  const bytes = encode(build(recs, ceiling, undefined));
  recent.unshift({ key, recs, bytes });
  if (recent.length > RECENT) recent.pop();
  return bytes;
}

/**
 * The SSE messages for `recs` at `ceiling` as one flat string: the pieces of every message are
 * gathered in one array and joined once, so no intermediate string is made per message. Each
 * message is exactly `sseEvent(event, renderAt(rec, ceiling))` (`sse-format.ts`): an `id:` line
 * when the event has a `session` and a `seq` and the session can be carried in an SSE field.
 */
export function batchText(recs: readonly Received[], ceiling: CaptureLevel | undefined): string {
  return build(recs, ceiling, undefined).join('');
}

/**
 * Messages per joined string in `build`: a batch's text is made as strings of a few tens of KiB
 * rather than one of several hundred (a string over 128 KiB is a large object for V8: its own
 * pages, mapped and unmapped per batch, measured far slower to make than the same text in
 * parts), each encoded into the batch's one buffer.
 */
const GROUP = 64;

/**
 * The UTF-8 of `texts` concatenated, in one buffer. Each text ends a message (`\n\n`), so no
 * boundary splits a character: the encodings of the parts, end to end, are the encoding of the whole.
 */
function encode(texts: readonly string[]): Buffer {
  if (texts.length === 1) return Buffer.from(texts[0]!, 'utf8');
  let total = 0;
  for (let i = 0; i < texts.length; i++) total += Buffer.byteLength(texts[i]!, 'utf8');
  const out = Buffer.allocUnsafe(total);
  let at = 0;
  for (let i = 0; i < texts.length; i++) at += out.write(texts[i]!, at, 'utf8');
  return out;
}

/**
 * `batchText` as consecutive parts of at most `GROUP` messages each; with `starts`, also where
 * each message starts (in characters) and where the last ends, and the text at a ceiling below `full` is rendered afresh (`lowerText`) rather than through
 * `renderAt`'s per-event cache: within a fan-out each record is rendered once per ceiling anyway
 * (larger selections are built first and the others cut from them), and a cache entry per event
 * costs more than it saves there.
 */
function build(recs: readonly Received[], ceiling: CaptureLevel | undefined, starts: Uint32Array | undefined): string[] {
  const texts: string[] = [];
  const parts: Array<string | number> = [];
  const lower = ceiling === undefined || ceiling === 'full' ? undefined : ceiling;
  let lastSession: string | undefined;
  let lastSafe = false;
  let at = 0;
  for (let i = 0; i < recs.length; i++) {
    const rec = recs[i]!;
    const event = rec.event;
    const session = event.session;
    const seq = event.seq;
    if (starts) starts[i] = at;
    if (typeof session === 'string' && typeof seq === 'number') {
      // A run of one session: its name is checked once.
      if (session !== lastSession) {
        lastSession = session;
        lastSafe = sseSafe(session);
      }
      if (lastSafe) {
        const epoch = event.epoch ?? 0;
        parts.push('id: ', session, ':', epoch, ':', seq, '\n');
        if (starts) at += 7 + session.length + decimalLength(epoch) + decimalLength(seq);
      }
    }
    const json = lower === undefined ? rec.raw : starts ? lowerText(rec, lower) : renderAt(rec, lower);
    parts.push('event: ', event.type, '\ndata: ', json, '\n\n');
    if (starts) at += 16 + event.type.length + json.length;
    if ((i + 1) % GROUP === 0) {
      texts.push(parts.join(''));
      parts.length = 0;
    }
  }
  if (starts) starts[recs.length] = at;
  if (parts.length > 0 || texts.length === 0) texts.push(parts.join(''));
  return texts;
}

/** The messages of `recs` cut from `b` (built at the same ceiling), or undefined when one of them is not in `b`. */
function cut(b: Built, recs: readonly Received[]): Buffer | undefined {
  const all = b.recs;
  const starts = b.starts!;
  // Runs of adjacent messages as [start, end) pairs.
  const runs: number[] = [];
  let total = 0;
  let j = 0;
  for (let i = 0; i < recs.length; i++) {
    const rec = recs[i]!;
    while (j < all.length && all[j] !== rec) j++;
    if (j === all.length) return undefined;
    const start = starts[j]!;
    const end = starts[j + 1]!;
    if (runs.length > 0 && runs[runs.length - 1] === start) runs[runs.length - 1] = end;
    else runs.push(start, end);
    total += end - start;
    j++;
  }
  if (runs.length === 2) return b.bytes.subarray(runs[0]!, runs[1]!);
  const out = Buffer.allocUnsafe(total);
  let at = 0;
  for (let k = 0; k < runs.length; k += 2) at += b.bytes.copy(out, at, runs[k]!, runs[k + 1]!);
  return out;
}

/** Characters of a number written as `join` writes it. */
function decimalLength(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) return String(n).length;
  let digits = 1;
  for (let v = n; v >= 10; v = Math.floor(v / 10)) digits++;
  return digits;
}

/** The last few session names judged for an SSE `id:`, most sessions of a fan-out being among them. */
const safety = new Map<string, boolean>();

/** Whether an SSE field can carry `session` (`formatEventId`). */
function sseSafe(session: string): boolean {
  let safe = safety.get(session);
  if (safe === undefined) {
    safe = formatEventId(session, ORIGIN) !== undefined;
    if (safety.size >= 256) safety.clear();
    safety.set(session, safe);
  }
  return safe;
}

const ORIGIN: Position = { epoch: 0, seq: 0 };

function sameRecords(a: readonly Received[], b: readonly Received[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
