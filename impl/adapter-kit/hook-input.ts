/**
 * The daemon's guard on a parsed hook body, before any mapping sees it (pure).
 *
 * - Nesting is bounded: a value nested deeper than {@link MAX_HOOK_DEPTH} levels (a `tool_input`
 *   5,000 deep) is replaced by a marker string, so no recursive walk downstream can overflow the
 *   stack and the hook's events are still emitted.
 * - Lone UTF-16 surrogates (`"lone\ud800"`, legal in JSON text, impossible in UTF-8) become U+FFFD
 *   in keys and strings, so ids can be percent-encoded into `source` URIs and file names.
 *
 * The walk itself recurses at most MAX_HOOK_DEPTH levels.
 */

import { MAX_DEPTH } from '../core/json-shape.js';

/**
 * Deepest nesting kept (the top-level object is level 1). Real hook payloads stay under 20. An
 * event carries a hook value a few levels down (`event.data.tool.input`), and the relay refuses
 * events nested deeper than the core's `MAX_DEPTH` (64, `envelope.depth`), so the bound leaves
 * that much room below it.
 */
export const MAX_HOOK_DEPTH = MAX_DEPTH - 8;

/** What replaces a value nested too deep. */
export const TOO_DEEP = `[nested deeper than ${MAX_HOOK_DEPTH} levels: not kept]`;

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The guarded value, and what was changed. */
export interface GuardedInput {
  value: unknown;
  /** Values cut at the depth bound. */
  truncated: number;
  /** Strings (and keys) whose lone surrogates became U+FFFD. */
  repaired: number;
}

export function guardHookInput(input: unknown, maxDepth: number = MAX_HOOK_DEPTH): GuardedInput {
  let truncated = 0;
  let repaired = 0;
  const text = (s: string): string => {
    LONE.lastIndex = 0;
    if (!LONE.test(s)) return s;
    repaired++;
    return s.replace(LONE, '\uFFFD');
  };
  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return text(value);
    if (typeof value !== 'object' || value === null) return value;
    if (depth > maxDepth) {
      truncated++;
      return maxDepth === MAX_HOOK_DEPTH ? TOO_DEEP : `[nested deeper than ${maxDepth} levels: not kept]`;
    }
    if (Array.isArray(value)) return value.map((v) => walk(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      // defineProperty: a "__proto__" key stays an own data property, as JSON.parse made it
      Object.defineProperty(out, text(k), { value: walk(v, depth + 1), enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  return { value: walk(input, 1), truncated, repaired };
}

/** What `guardHookInput` changed, in words, for the daemon's log (empty when nothing was). */
export function guardProblems(guarded: GuardedInput): string[] {
  const out: string[] = [];
  if (guarded.repaired > 0) out.push(`${guarded.repaired} string(s) held a lone UTF-16 surrogate, which no UTF-8 text can carry; replaced by U+FFFD`);
  if (guarded.truncated > 0) out.push(`${guarded.truncated} value(s) nested deeper than ${MAX_HOOK_DEPTH} levels were replaced by a marker`);
  return out;
}
