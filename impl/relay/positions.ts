/**
 * Resume positions (AEP-0003 §7): `(session, epoch, seq)` triples, their order, and the
 * two ways a consumer carries them: the `from` member (SSE query or WS `subscribe`) and
 * the SSE `Last-Event-ID` header, whose format this relay defines as `{session}:{epoch}:{seq}`.
 */
import { isPlainObject } from '../core/event.js';

/** A point in one session's `(epoch, seq)` order. */
export interface Position {
  readonly epoch: number;
  readonly seq: number;
}

/** A resume request: deliver what the session holds strictly after this position. */
export interface ResumePoint extends Position {
  readonly session: string;
}

/** What a consumer asked to replay: nothing, enumerated positions, or every held session. */
export type ReplayRequest = { readonly kind: 'none' } | { readonly kind: 'positions'; readonly points: readonly ResumePoint[] } | { readonly kind: 'all' };

/** Lexicographic `(epoch, seq)` order (AEP-0001 §7.3). Negative when `a` is earlier. */
export function comparePositions(a: Position, b: Position): number {
  return a.epoch !== b.epoch ? a.epoch - b.epoch : a.seq - b.seq;
}

/** Why a `from` was refused, mapped to the closed AEP-0003 §6.5 codes. */
export interface FromProblem {
  readonly code: 'invalid-filter' | 'limit-exceeded';
  readonly detail: string;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * Check a decoded `from` value: the string `all`, or an array of `{session, epoch?, seq}`
 * (epoch defaults to 0). Several positions for one session keep the earliest.
 * `maxFrom` bounds the array length (`limit-exceeded`, naming `AEP_MAX_FROM`).
 */
export function parseFrom(from: unknown, maxFrom: number): ReplayRequest | FromProblem {
  if (from === 'all') return { kind: 'all' };
  if (!Array.isArray(from)) {
    return { code: 'invalid-filter', detail: `from must be an array of {session, epoch, seq} positions or the string "all", got ${describe(from)}` };
  }
  if (from.length > maxFrom) {
    return { code: 'limit-exceeded', detail: `from carries ${from.length} positions; this relay replays at most ${maxFrom} (AEP_MAX_FROM)` };
  }
  const bySession = new Map<string, ResumePoint>();
  for (const [i, entry] of from.entries()) {
    const where = `from[${i}]`;
    if (!isPlainObject(entry)) return { code: 'invalid-filter', detail: `${where} must be an object {session, epoch, seq}, got ${describe(entry)}` };
    const { session, epoch = 0, seq } = entry;
    if (typeof session !== 'string' || session === '') return { code: 'invalid-filter', detail: `${where}.session must be a non-empty string` };
    if (!isCount(epoch)) return { code: 'invalid-filter', detail: `${where}.epoch must be a non-negative integer, got ${describe(epoch)}` };
    if (!isCount(seq)) return { code: 'invalid-filter', detail: `${where}.seq must be a non-negative integer, got ${describe(seq)}` };
    const earlier = bySession.get(session);
    if (!earlier || comparePositions({ epoch, seq }, earlier) < 0) bySession.set(session, { session, epoch, seq });
  }
  return { kind: 'positions', points: [...bySession.values()] };
}

export function isFromProblem(v: ReplayRequest | FromProblem): v is FromProblem {
  return 'code' in v;
}

/** Characters an SSE field value cannot carry. */
const SSE_UNSAFE = /[\r\n\0]/;

/**
 * The SSE `id:` for an event at a position, or undefined when the session name cannot ride
 * an SSE field (CR, LF or NUL); such events are still resumable through `from`.
 */
export function formatEventId(session: string, pos: Position): string | undefined {
  return SSE_UNSAFE.test(session) ? undefined : `${session}:${pos.epoch}:${pos.seq}`;
}

/**
 * Parse a `Last-Event-ID` value. The epoch and seq are read from the right, so session
 * names may themselves contain `:`. Returns undefined when the value is not one of ours.
 */
export function parseEventId(value: string): ResumePoint | undefined {
  const m = /^(.+):(\d+):(\d+)$/s.exec(value);
  if (!m) return undefined;
  const epoch = Number(m[2]);
  const seq = Number(m[3]);
  if (!Number.isSafeInteger(epoch) || !Number.isSafeInteger(seq)) return undefined;
  return { session: m[1]!, epoch, seq };
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  const text = JSON.stringify(v);
  return typeof v === 'object' ? 'an object' : text === undefined ? typeof v : text.length > 40 ? `${text.slice(0, 40)}...` : text;
}
