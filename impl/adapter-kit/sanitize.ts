/**
 * Hook input made safe to map, pure: what a vendor sends is JSON, but not every JSON value can
 * become an event. Two things are rewritten, each reported as a problem so the daemon can say so:
 * - lone UTF-16 surrogates (`"\ud800"`), which no UTF-8 text can carry (AEP Events are UTF-8
 *   JSON, and `encodeURIComponent` throws on them): replaced by U+FFFD;
 * - nesting deeper than `maxDepth` (default 64), which would overflow the recursive digest and
 *   redaction: the deeper value is replaced by the string `"[truncated: nested deeper than N]"`.
 * Everything else is returned as is (a new object only where something changed below it).
 */
export const MAX_INPUT_DEPTH = 64;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export interface Sanitized<T> {
  value: T;
  /** What was rewritten, in words (empty when nothing was). */
  problems: string[];
}

export function sanitizeInput<T>(input: T, maxDepth = MAX_INPUT_DEPTH): Sanitized<T> {
  let surrogates = 0;
  let truncated = 0;
  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') {
      if (!LONE_SURROGATE.test(value)) return value;
      LONE_SURROGATE.lastIndex = 0;
      surrogates++;
      return value.replace(LONE_SURROGATE, '\ufffd');
    }
    if (value === null || typeof value !== 'object') return value;
    if (depth >= maxDepth) {
      truncated++;
      return `[truncated: nested deeper than ${maxDepth}]`;
    }
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((v) => {
        const w = walk(v, depth + 1);
        if (w !== v) changed = true;
        return w;
      });
      return changed ? out : value;
    }
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const key = walk(k, depth) as string;
      const w = walk(v, depth + 1);
      if (w !== v || key !== k) changed = true;
      out[key] = w;
    }
    return changed ? out : value;
  };
  const value = walk(input, 0) as T;
  const problems: string[] = [];
  if (surrogates > 0) problems.push(`${surrogates} string(s) held a lone UTF-16 surrogate, which no UTF-8 text can carry; replaced by U+FFFD`);
  if (truncated > 0) problems.push(`${truncated} value(s) nested deeper than ${maxDepth} levels were replaced by a truncation marker`);
  return { value, problems };
}
