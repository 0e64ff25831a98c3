/**
 * One JSON text checked the way the relay checks it (AEP-0003 §3.2) and `aep validate` reads a
 * line: the grammar, duplicate member names and nesting past `MAX_DEPTH`, in one call, with the
 * decoded value. Pure.
 *
 * It is a hybrid on purpose. The grammar and the value come from the engine's native
 * `JSON.parse`; a JavaScript scanner that validates every character costs more than the native
 * parse alone, and the value is needed anyway (envelope rules, capture honesty, live fan-out).
 * What `JSON.parse` cannot see (a member named twice: it silently keeps the last; nesting depth)
 * is judged by `jsonTextProblem`: one pass over the text counting `name: value` members, a walk of
 * the value counting its own, and the exact reference scan (`scanJsonText`) only when the two
 * disagree or the value is too deep. The verdicts are exactly those of `JSON.parse` followed by
 * `scanJsonText`; `json-scan.test.ts` holds the two side by side.
 */
import { MAX_DEPTH, jsonTextProblem, type JsonTextProblem } from './json-shape.js';

/** Why a text is refused: not JSON (with the engine's own message), or a shape problem. */
export type JsonScanProblem = { readonly kind: 'syntax'; readonly message: string } | JsonTextProblem;

/** A scan's outcome: the decoded value, or the first problem. */
export type JsonScan = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: JsonScanProblem };

/**
 * Decode `text` and check it: JSON grammar (RFC 8259, as `JSON.parse` reads it), no member name
 * twice in one object (names compared decoded), no container deeper than `maxDepth` (the outermost
 * being level 1). Never throws. On success `value` is `JSON.parse(text)`.
 */
export function scanJson(text: string, maxDepth: number = MAX_DEPTH): JsonScan {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: { kind: 'syntax', message: err instanceof Error ? err.message : String(err) } };
  }
  const shape = jsonTextProblem(text, value, maxDepth);
  return shape === null ? { ok: true, value } : { ok: false, problem: shape };
}
