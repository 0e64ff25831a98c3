/**
 * What one subscriber receives for one event: the bytes as received, or the event
 * down-leveled to the subscription's capture ceiling (AEP-0003 §6.4) and re-serialized.
 * Pure; results are cached per (event, ceiling) so fan-out down-levels each event once.
 */
import { downlevel } from '../core/capture.js';
import { CAPTURE_ORDER, type CaptureLevel } from '../core/event.js';
import type { Received } from './buffer.js';

const cache = new WeakMap<Received, Map<CaptureLevel, string>>();

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
  let perCeiling = cache.get(rec);
  if (!perCeiling) cache.set(rec, (perCeiling = new Map()));
  let text = perCeiling.get(ceiling);
  if (text === undefined) {
    const lowered = JSON.stringify(downlevel(rec.overDeclared ? { ...rec.event, capture: 'full' } : rec.event, ceiling));
    text = lowered === JSON.stringify(rec.event) ? rec.raw : lowered;
    perCeiling.set(ceiling, text);
  }
  return text;
}
