/**
 * The exporter capture ceiling shared by the OTLP (AEP-0005 §3.3) and OCSF (§4.6)
 * projections. Pure.
 *
 * The standard's pins (OTLP golden #15, OCSF golden #4 and #15) fix the behavior:
 * an Event whose `capture` ranks above the ceiling loses its payload wholesale and
 * keeps its original `capture` claim; it is not pruned field by field. A
 * `capture: none` Event never contributes payload, whatever it carries.
 */
import { captureRank, isPlainObject, type AepEvent, type CaptureLevel } from '../event.js';

/** The default exporter ceiling (AEP-0005 §3.3, §4.6). */
export const DEFAULT_MAX_CAPTURE: CaptureLevel = 'metadata';

/** The Event's declared capture, with the AEP-0001 §5.1 default applied. */
export function declaredCapture(event: AepEvent): CaptureLevel {
  return event.capture ?? 'metadata';
}

/** The payload that survives `maxCapture`, or `undefined` when none does. Never mutates. */
export function survivingData(event: AepEvent, maxCapture: CaptureLevel = DEFAULT_MAX_CAPTURE): Record<string, unknown> | undefined {
  const capture = declaredCapture(event);
  // An unregistered capture claim (an invalid Event) ranks -1: treat it as unknown and export nothing.
  if (capture === 'none' || captureRank(capture) < 0 || captureRank(capture) > captureRank(maxCapture)) return undefined;
  return isPlainObject(event.data) ? event.data : undefined;
}

