/**
 * Helpers for vendor mappers that return an ARRAY of events per hook (Cline, Hermes, Antigravity:
 * one vendor moment can close a run and a delegation pair, or add an observed card beside a tool
 * event). Pure: no I/O, no state.
 */
import { digest } from '../core/digest.js';
import type { CaptureLevel } from '../core/event.js';
import { content, put } from './mapping.js';
import type { Mapped } from './types.js';

/**
 * The mechanical fallback of the array mappers: `x.{agent}.{name}` with every `_`/`-`/space of the
 * vendor's hook name turned into a segment dot (`some_future_hook` → `x.cline.some.future.hook`),
 * lower-cased; `unknown` when the name is empty. `prefix` inserts a fixed segment
 * (`x.<agent>.hook.<name>`; Antigravity's own fallback keeps the name whole, as its pin says). A vendor type needs a category and a name after the vendor
 * (AEP-0002 type grammar), so a one-word hook name gets the `hook` category (`x.cline.hook.notification`).
 */
export function vendorFallbackType(agent: string, name: string, prefix?: string): string {
  const parts = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .split(/[^A-Za-z0-9]+/)
    .filter((s) => s !== '')
    .map((s) => s.toLowerCase());
  const tail = parts.length === 0 ? ['unknown'] : parts;
  const head = prefix ?? (tail.length < 2 ? 'hook' : undefined);
  return `x.${agent}.${head ? `${head}.` : ''}${tail.join('.')}`;
}

/** A finite number, else undefined. */
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** A non-negative integer as the envelope `step` string (AEP-0001 §5), else undefined. */
export function stepOf(v: unknown): string | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? String(v) : undefined;
}

/** Attach `step` to a mapped event when one is known. */
export function withStep(mapped: Mapped, step: string | undefined): Mapped {
  return step === undefined ? mapped : { ...mapped, step };
}

/**
 * Put a content-bearing payload the kit's way: `{key}_digest` always (metadata-class), `{key}`
 * verbatim at `full`, `{key}_redacted` through the §9.4 pipeline at `redacted`.
 */
export function putContent(data: Record<string, unknown>, key: string, payload: unknown, level: CaptureLevel): void {
  if (payload === undefined || payload === null) return;
  data[`${key}_digest`] = digest(payload);
  if (level === 'full') data[key] = payload;
  else put(data, `${key}_redacted`, content(payload, level));
}
