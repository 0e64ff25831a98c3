/**
 * The bytes of live SSE messages, encoded once and shared by every subscriber (AEP-0003 §3.3).
 * Fan-out to N streams used to build and UTF-8-measure its own text per stream and batch; here
 * each (event, capture ceiling) message is encoded once, and a stream's batch is joined once per
 * distinct sequence of messages, so streams with the same filter and ceiling share one buffer.
 * The bytes are exactly `sseEvent(event, renderAt(rec, ceiling))` in UTF-8. Pure apart from caches.
 * Records held by the replay buffer are encoded on each call and never memoized: the buffer keeps
 * each event's text once, not its text and its bytes.
 */
import type { CaptureLevel } from '../core/event.js';
import { isHeldRecord, type Received } from './buffer.js';
import { renderAt } from './render.js';
import { sseEvent } from './sse-format.js';

/** The key for "no ceiling" and `full` (both render the received bytes); never a capture level's name. */
const NO_CEILING = '*';
/** The encoded messages of one event: the first ceiling's inline (the usual case: one), any others in `more`. */
interface Memo {
  readonly key: CaptureLevel | typeof NO_CEILING;
  readonly bytes: Buffer;
  more?: Map<CaptureLevel | typeof NO_CEILING, Buffer>;
}
/**
 * Where an event's memo lives: on the event record itself, under a private symbol (no WeakMap
 * entry per event for the collector to trace), or in `frozen` for a record that cannot take it.
 */
const MEMO = Symbol('sse-bytes');
const frozen = new WeakMap<Received, Memo>();

function memoOf(rec: Received): Memo | undefined {
  return (rec as { [MEMO]?: Memo })[MEMO] ?? frozen.get(rec);
}

/** The SSE message for `rec` at `ceiling`, as UTF-8 bytes, encoded once per (event, ceiling). */
export function messageBytes(rec: Received, ceiling: CaptureLevel | undefined): Buffer {
  // `full` renders the received bytes, exactly like no ceiling.
  const key = ceiling === undefined || ceiling === 'full' ? NO_CEILING : ceiling;
  const memo = memoOf(rec);
  if (memo !== undefined) {
    if (memo.key === key) return memo.bytes;
    const hit = memo.more?.get(key);
    if (hit !== undefined) return hit;
  }
  const bytes = Buffer.from(sseEvent(rec.event, renderAt(rec, ceiling)), 'utf8');
  // A record the buffer holds lives as long as the buffer: its bytes are not kept beside its text.
  if (isHeldRecord(rec)) return bytes;
  if (memo !== undefined) (memo.more ??= new Map()).set(key, bytes);
  else if (Object.isExtensible(rec)) Object.defineProperty(rec, MEMO, { value: { key, bytes } satisfies Memo, enumerable: false, writable: false, configurable: false });
  else frozen.set(rec, { key, bytes });
  return bytes;
}

/** How many recent joins are kept for sharing: a few distinct (filter, ceiling) groups per batch. */
const RECENT = 8;
const recent: Array<{ readonly parts: readonly Buffer[]; readonly joined: Buffer }> = [];

/**
 * `parts` joined into one buffer. When the same parts (the same buffers, in the same order) were
 * joined recently, e.g. by another stream of the same batch, that buffer is returned: identical
 * references mean identical bytes, so sharing never changes what a stream receives.
 */
export function joinShared(parts: readonly Buffer[]): Buffer {
  if (parts.length === 1) return parts[0]!;
  for (const entry of recent) if (sameParts(entry.parts, parts)) return entry.joined;
  const joined = Buffer.concat(parts as Buffer[]);
  recent.unshift({ parts: [...parts], joined });
  if (recent.length > RECENT) recent.pop();
  return joined;
}

function sameParts(a: readonly Buffer[], b: readonly Buffer[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
