/**
 * SSE wire text (AEP-0003 §3.3), byte for byte. Pure.
 *
 * An event message is `id: {session}:{epoch}:{seq}\nevent: {type}\ndata: {json}\n\n`; the
 * `id:` line is present only for events with a `session` and a `seq` (agent-scoped and
 * seq-less events are not resumable positions). Comments are `: {text}\n\n`.
 */
import type { AepEvent } from '../core/event.js';
import { formatEventId, type Position } from './positions.js';

/** One SSE message for an event; `json` is the one-line text to put in `data:`. */
export function sseEvent(event: AepEvent, json: string): string {
  const id = typeof event.session === 'string' && typeof event.seq === 'number' ? formatEventId(event.session, { epoch: event.epoch ?? 0, seq: event.seq }) : undefined;
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event.type}\ndata: ${json}\n\n`;
}

/** A comment line. Line breaks in `text` are escaped so a comment never splits. */
export function sseComment(text: string): string {
  return `: ${text.replace(/[\r\n]/g, (c) => (c === '\r' ? '\\r' : '\\n'))}\n\n`;
}

/** The exhaustion marker: `: replay-exhausted {session} {epoch}:{seq}` naming the earliest held position. */
export function sseExhausted(session: string, earliest: Position): string {
  return sseComment(`replay-exhausted ${session} ${earliest.epoch}:${earliest.seq}`);
}

export const SSE_PING = sseComment('ping');
export const SSE_REPLAY_COMPLETE = sseComment('replay-complete');
export const SSE_SHUTTING_DOWN = sseComment('shutting-down');
/** The stated end of a stream whose consumer fell too far behind: resume from Last-Event-ID. */
export const SSE_SLOW_CONSUMER = sseComment('slow-consumer: resume from your Last-Event-ID');
