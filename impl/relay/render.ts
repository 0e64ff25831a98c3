/**
 * What one subscriber receives for one event: the bytes as received, or the event
 * down-leveled to the subscription's capture ceiling (AEP-0003 §6.4) and re-serialized.
 * Pure; results are cached per (event, ceiling) so each event is down-leveled once per ceiling.
 *
 * "Per event", not per record: the live record a batch fans out and the record the buffer holds
 * for the same event share one cache (`shareRendering`, called by the buffer at admission), so a
 * replay at a ceiling reuses the text live delivery made, and the reverse.
 */
import { downlevel } from '../core/capture.js';
import { CAPTURE_ORDER, captureRank, type AepEvent, type CaptureLevel } from '../core/event.js';
import type { Received } from './received.js';
import { renderKey } from './render-link.js';

const cache = new WeakMap<Received, Map<CaptureLevel, string>>();

/**
 * Whether `downlevel` lowers `event`'s level at `ceiling` (AEP-0003 §6.4: the ceiling is below the
 * declared level; an absent `capture` is `metadata`, an unknown one counts as `full`). It then
 * sets `capture` to a known level below the declared one, which the received text cannot carry.
 */
function lowers(event: AepEvent, ceiling: CaptureLevel): boolean {
  const declared = event.capture ?? 'metadata';
  return captureRank(ceiling) < captureRank(isCaptureLevel(declared) ? declared : 'full');
}

/** Whether `value` names a capture level. */
export function isCaptureLevel(value: unknown): value is CaptureLevel {
  return typeof value === 'string' && (CAPTURE_ORDER as readonly string[]).includes(value);
}

/**
 * The JSON text to deliver. No ceiling, or a `full` ceiling: the received bytes.
 * Otherwise the core `downlevel` runs (an `overDeclared` event as if it declared `full`);
 * when it changes nothing the received bytes still go out (so byte identity holds wherever
 * the ceiling did not bite), else its re-serialization.
 */
export function renderAt(rec: Received, ceiling: CaptureLevel | undefined): string {
  if (ceiling === undefined || ceiling === 'full') return rec.raw;
  const key = renderKey(rec);
  let perCeiling = cache.get(key);
  if (!perCeiling) cache.set(key, (perCeiling = new Map()));
  let text = perCeiling.get(ceiling);
  if (text === undefined) {
    text = lowerText(rec, ceiling);
    perCeiling.set(ceiling, text);
  }
  return text;
}

/**
 * `renderAt`'s text for a ceiling below `full`, computed without its cache: the core `downlevel`
 * re-serialized, or the received bytes when that changed nothing.
 */
export function lowerText(rec: Received, ceiling: CaptureLevel): string {
  const event = rec.event;
  const lowered = JSON.stringify(downlevel(rec.overDeclared ? { ...event, capture: 'full' } : event, ceiling));
  // An honest event the ceiling lowers gets a `capture` it did not carry, so its text differs
  // from the received one: no need to serialize the event again to compare.
  return !rec.overDeclared && lowers(event, ceiling) ? lowered : lowered === JSON.stringify(event) ? rec.raw : lowered;
}
