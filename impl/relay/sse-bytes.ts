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
import { renderAt } from './render.js';
import { formatEventId, type Position } from './positions.js';

/** The key for "no ceiling" and `full` (both render the received bytes); never a capture level's name. */
const NO_CEILING = '*';
type CeilingKey = CaptureLevel | typeof NO_CEILING;

/** A batch built for one selection of records at one ceiling. */
interface Built {
  readonly key: CeilingKey;
  readonly recs: readonly Received[];
  readonly bytes: Buffer;
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
  const bytes = Buffer.from(batchText(recs, ceiling), 'utf8');
  if (shared) shared.push({ key, recs, bytes });
  else {
    recent.unshift({ key, recs, bytes });
    if (recent.length > RECENT) recent.pop();
  }
  return bytes;
}

/**
 * The SSE messages for `recs` at `ceiling` as one flat string: the pieces of every message are
 * gathered in one array and joined once, so no intermediate string is made per message. Each
 * message is exactly `sseEvent(event, renderAt(rec, ceiling))` (`sse-format.ts`): an `id:` line
 * when the event has a `session` and a `seq` and the session can be carried in an SSE field.
 */
export function batchText(recs: readonly Received[], ceiling: CaptureLevel | undefined): string {
  const parts: Array<string | number> = [];
  let lastSession: string | undefined;
  let lastSafe = false;
  for (let i = 0; i < recs.length; i++) {
    const rec = recs[i]!;
    const event = rec.event;
    const session = event.session;
    const seq = event.seq;
    if (typeof session === 'string' && typeof seq === 'number') {
      // A batch is mostly one session: its name is checked once.
      if (session !== lastSession) {
        lastSession = session;
        lastSafe = formatEventId(session, ORIGIN) !== undefined;
      }
      if (lastSafe) parts.push('id: ', session, ':', event.epoch ?? 0, ':', seq, '\n');
    }
    parts.push('event: ', event.type, '\ndata: ', renderAt(rec, ceiling), '\n\n');
  }
  return parts.join('');
}

const ORIGIN: Position = { epoch: 0, seq: 0 };

function sameRecords(a: readonly Received[], b: readonly Received[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
