/**
 * The bytes of live SSE messages (AEP-0003 §3.3), built per fan-out rather than per event: the
 * messages one stream receives from one hub fan-out (a whole `POST /events` batch) are built as
 * one string and UTF-8-encoded once, and the streams that selected the same records at the same
 * ceiling share that one buffer. No object, string or buffer is kept per event: a fan-out to N
 * streams with the same filter and ceiling costs one string and one encoding, whatever N is.
 * The bytes are exactly the concatenation of `sseEvent(event, renderAt(rec, ceiling))` in UTF-8.
 * Pure apart from a small cache of the last few batches.
 */
import type { CaptureLevel } from '../core/event.js';
import type { Received } from './received.js';
import { renderAt } from './render.js';
import { sseEvent } from './sse-format.js';

/** The key for "no ceiling" and `full` (both render the received bytes); never a capture level's name. */
const NO_CEILING = '*';
type CeilingKey = CaptureLevel | typeof NO_CEILING;

/** How many recent batches are kept for sharing: a few distinct (filter, ceiling) groups per fan-out. */
const RECENT = 8;
interface Built {
  readonly key: CeilingKey;
  readonly recs: readonly Received[];
  readonly bytes: Buffer;
}
const recent: Built[] = [];

/**
 * The SSE messages for `recs` at `ceiling`, in order, as one buffer. When the same records (the
 * same objects, in the same order) were built at the same ceiling recently, e.g. for another
 * stream of the same fan-out, that buffer is returned: identical records at one ceiling mean
 * identical bytes, so sharing never changes what a stream receives. `recs` is kept by reference
 * for that comparison: the caller must not change it afterwards.
 */
export function batchBytes(recs: readonly Received[], ceiling: CaptureLevel | undefined): Buffer {
  // `full` renders the received bytes, exactly like no ceiling.
  const key: CeilingKey = ceiling === undefined || ceiling === 'full' ? NO_CEILING : ceiling;
  for (const built of recent) if (built.key === key && sameRecords(built.recs, recs)) return built.bytes;
  const bytes = Buffer.from(batchText(recs, ceiling), 'utf8');
  recent.unshift({ key, recs, bytes });
  if (recent.length > RECENT) recent.pop();
  return bytes;
}

/** The SSE messages for `recs` at `ceiling` as one string (built once; V8 joins the pieces when it is encoded). */
export function batchText(recs: readonly Received[], ceiling: CaptureLevel | undefined): string {
  let text = '';
  for (let i = 0; i < recs.length; i++) {
    const rec = recs[i]!;
    text += sseEvent(rec.event, renderAt(rec, ceiling));
  }
  return text;
}

function sameRecords(a: readonly Received[], b: readonly Received[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
