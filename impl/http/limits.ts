/**
 * The limits of one inbound HTTP surface (a bridge that listens), written once for every bridge:
 * the largest body (413 above it), the deepest JSON nesting (400 `too-deep` past it), how long the
 * request head may take to arrive, and how long the whole request (head and body) may take. Pure.
 *
 * Each surface reads its own variables, named from its prefix: `<PREFIX>_MAX_BODY` (bytes),
 * `<PREFIX>_MAX_DEPTH` (levels), `<PREFIX>_HEADERS_TIMEOUT_MS`, `<PREFIX>_BODY_TIMEOUT_MS`.
 */

/** One inbound surface's limits. */
export interface EdgeLimits {
  /** Largest request body in bytes; a larger one is answered 413 before it is read whole. */
  readonly maxBody: number;
  /** Deepest JSON nesting of a body, the outermost container being level 1; deeper is answered 400 `too-deep`. */
  readonly maxDepth: number;
  /** The request line and headers must arrive within this many ms (else 408 and the connection closes). */
  readonly headersTimeoutMs: number;
  /** The whole request, head and body, must arrive within this many ms (else 408 and the connection closes). */
  readonly bodyTimeoutMs: number;
}

/** The defaults every surface starts from (a surface may override some, e.g. a larger body). */
export const EDGE_DEFAULTS: EdgeLimits = Object.freeze({
  maxBody: 8 * 1024 * 1024,
  maxDepth: 64,
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 30_000,
});

interface Knob {
  readonly key: keyof EdgeLimits;
  readonly suffix: string;
  readonly min: number;
  readonly what: (value: number) => string;
}

const KNOBS: readonly Knob[] = [
  { key: 'maxBody', suffix: 'MAX_BODY', min: 1024, what: (v) => `largest request body in bytes (default ${v}; 413 above it)` },
  { key: 'maxDepth', suffix: 'MAX_DEPTH', min: 2, what: (v) => `deepest JSON nesting of a request body (default ${v}; 400 too-deep past it)` },
  { key: 'headersTimeoutMs', suffix: 'HEADERS_TIMEOUT_MS', min: 100, what: (v) => `ms for the request line and headers to arrive (default ${v}; 408 after)` },
  { key: 'bodyTimeoutMs', suffix: 'BODY_TIMEOUT_MS', min: 100, what: (v) => `ms for the whole request, headers and body, to arrive (default ${v}; 408 after)` },
];

/** One surface: its variable prefix, its defaults, and the variables it reads (for its descriptor's `env`). */
export interface EdgeSurface {
  readonly prefix: string;
  readonly defaults: EdgeLimits;
  readonly env: ReadonlyArray<{ name: string; summary: string }>;
}

/** Describe a surface reading `<prefix>_*`, with `overrides` on top of {@link EDGE_DEFAULTS}. */
export function edgeSurface(prefix: string, overrides: Partial<EdgeLimits> = {}): EdgeSurface {
  const defaults: EdgeLimits = Object.freeze({ ...EDGE_DEFAULTS, ...overrides });
  return { prefix, defaults, env: KNOBS.map((k) => ({ name: `${prefix}_${k.suffix}`, summary: k.what(defaults[k.key]) })) };
}

/** The surface's limits from the environment, or an error string naming the bad variable. */
export function edgeLimitsFromEnv(surface: EdgeSurface, env: Record<string, string | undefined>): EdgeLimits | string {
  const out: Record<string, number> = { ...surface.defaults };
  for (const k of KNOBS) {
    const name = `${surface.prefix}_${k.suffix}`;
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    if (!/^[0-9]+$/.test(raw) || !Number.isSafeInteger(Number(raw)) || Number(raw) < k.min) return `${name} must be a whole number of at least ${k.min}, got '${raw}'`;
    out[k.key] = Number(raw);
  }
  return out as unknown as EdgeLimits;
}
