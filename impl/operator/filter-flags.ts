/** `--type/--session/--agent/--run/--severity` or a raw `--filter JSON`, into one attr-match filter, pure. */
import { validateFilter } from '../core/filter.js';

export const FILTER_FLAGS = {
  type: { type: 'string', multiple: true },
  session: { type: 'string', multiple: true },
  agent: { type: 'string', multiple: true },
  run: { type: 'string', multiple: true },
  severity: { type: 'string' },
  filter: { type: 'string' },
} as const;

export const FILTER_HELP = `  --type T        event type or prefix pattern (tool.*); repeatable = any of them
  --session S     repeatable
  --agent A       repeatable
  --run R         repeatable
  --severity L    this level and above (debug, info, notice, warning, error, critical)
  --filter JSON   a raw attr-match filter instead of the flags above (AEP-0003 §6)`;

/** The filter, undefined when none was asked for; a string is the usage problem. */
export function buildFilter(values: Record<string, unknown>): { ok: true; filter: Record<string, unknown> | undefined } | { ok: false; error: string } {
  const keys = ['type', 'session', 'agent', 'run'] as const;
  const flagged = keys.some((k) => Array.isArray(values[k]) && (values[k] as unknown[]).length > 0) || values.severity !== undefined;
  if (values.filter !== undefined) {
    if (flagged) return { ok: false, error: '--filter replaces --type/--session/--agent/--run/--severity: give one or the other' };
    let f: unknown;
    try {
      f = JSON.parse(values.filter as string);
    } catch {
      return { ok: false, error: `--filter is not JSON; expected an object like '{"type":"tool.*"}'` };
    }
    const problem = validateFilter(f);
    return problem ? { ok: false, error: `--filter: ${problem}` } : { ok: true, filter: f as Record<string, unknown> };
  }
  if (!flagged) return { ok: true, filter: undefined };
  const f: Record<string, unknown> = {};
  for (const k of keys) {
    const v = values[k] as string[] | undefined;
    if (v && v.length > 0) f[k] = v.length === 1 ? v[0] : v;
  }
  if (values.severity !== undefined) f.severity = { gte: values.severity };
  const problem = validateFilter(f);
  return problem ? { ok: false, error: problem } : { ok: true, filter: f };
}
