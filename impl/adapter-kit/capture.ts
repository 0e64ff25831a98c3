/**
 * The adapter-side capture ceiling (AEP-0003 §9.1-§9.2), as pure helpers the mappers call.
 * Fields above the ceiling are never produced; `redacted`-class text passes the §9.4 pipeline.
 */
import { CAPTURE_ORDER, captureRank, type CaptureLevel } from '../core/event.js';
import { redactText } from '../core/redact.js';
import type { Posture } from './types.js';

/** The defaults: metadata for everything, redacted for `attention.*` (AEP-0003 §9.1). */
export const DEFAULT_POSTURE: Posture = Object.freeze({ ceiling: 'metadata', attention: 'redacted' });

/** The capture level an event of `type` is produced at under `posture`. */
export function levelFor(type: string, posture: Posture): CaptureLevel {
  return type.startsWith('attention.') ? posture.attention : posture.ceiling;
}

/** Whether a field annotated `min` may be present at `level`. */
export function allows(level: CaptureLevel, min: CaptureLevel): boolean {
  return captureRank(level) >= captureRank(min);
}

/**
 * A `redacted`-class free-text field at `level`: verbatim at `full`, through the §9.4 pipeline
 * (PII on) at `redacted`, absent below.
 */
export function red(text: string, level: CaptureLevel): string | undefined {
  if (level === 'full') return text;
  if (level === 'redacted') return redactText(text, { pii: true });
  return undefined;
}

/** Parse a capture level from configuration; null when it is not one of the four. */
export function parseLevel(value: string | undefined): CaptureLevel | null {
  return (CAPTURE_ORDER as readonly string[]).includes(value ?? '') ? (value as CaptureLevel) : null;
}

/**
 * The posture from the environment: `AEP_CAPTURE` (default `metadata`) and `AEP_CAPTURE_ATTENTION`
 * (default: `redacted`, or the general ceiling when that is higher; `none` when the ceiling is `none`).
 * Returns an error string for a value that is not a capture level.
 */
export function postureFromEnv(env: Record<string, string | undefined>): Posture | string {
  const ceiling = env.AEP_CAPTURE === undefined ? 'metadata' : parseLevel(env.AEP_CAPTURE);
  if (ceiling === null) return `AEP_CAPTURE must be one of ${CAPTURE_ORDER.join('|')}, got '${env.AEP_CAPTURE}'`;
  const fallback: CaptureLevel = ceiling === 'none' ? 'none' : allows(ceiling, 'redacted') ? ceiling : 'redacted';
  const attention = env.AEP_CAPTURE_ATTENTION === undefined ? fallback : parseLevel(env.AEP_CAPTURE_ATTENTION);
  if (attention === null) return `AEP_CAPTURE_ATTENTION must be one of ${CAPTURE_ORDER.join('|')}, got '${env.AEP_CAPTURE_ATTENTION}'`;
  return { ceiling, attention };
}
