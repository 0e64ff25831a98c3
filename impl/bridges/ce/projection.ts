/**
 * The outbound sidecars' one pure step: an AEP event → its projection (AEP-0005): a CloudEvent
 * (structured mode, §1-§2), an OTLP LogRecord exactly as `toOtlp` returns it (§3), or an OCSF
 * record via `toOcsf` (§4; `null` when the type has no OCSF class). Used by the offline
 * `--from-file` mode and by the live sidecars alike, so both print/deliver the same bytes.
 */
import type { AepEvent, CaptureLevel } from '../../core/event.js';
import { validateEvent } from '../../core/envelope.js';
import { atLine, type Issue } from '../../core/issue.js';
import { parseJsonl } from '../../core/stream.js';
import { toCloudEvent } from '../../core/project/cloudevents.js';
import { toOtlp } from '../../core/project/otlp.js';
import { toOcsf } from '../../core/project/ocsf.js';

export type Projection = 'ce' | 'otlp' | 'ocsf';

export interface ProjectionOptions {
  /** The exporter's capture ceiling for OTLP and OCSF (default `metadata`). */
  maxCapture?: CaptureLevel;
  /** OTLP resource `service.name` (default: the event's agent). */
  serviceName?: string;
}

/** One event's projection; `null` only for OCSF of a type with no class. */
export function project(event: AepEvent, kind: Projection, opts: ProjectionOptions = {}): unknown {
  if (kind === 'ce') return toCloudEvent(event);
  if (kind === 'otlp') return toOtlp(event, { ...(opts.maxCapture ? { maxCapture: opts.maxCapture } : {}), ...(opts.serviceName ? { serviceName: opts.serviceName } : {}) });
  return toOcsf(event, opts.maxCapture ? { maxCapture: opts.maxCapture } : {});
}

/** What the offline mode produces: one JSON text per valid input line, and every problem. */
export interface ProjectedLines {
  /** `JSON.stringify` of each projection, input order, no trailing newline. */
  lines: string[];
  /** Malformed lines and invalid events (1-based `line`); those lines produce no output. */
  issues: Issue[];
}

/** Every line of a JSONL stream of AEP events, projected. Pure; never throws. */
export function projectJsonl(input: string | Uint8Array, kind: Projection, opts: ProjectionOptions = {}): ProjectedLines {
  const parsed = parseJsonl(input);
  const issues: Issue[] = [...parsed.issues];
  const lines: string[] = [];
  for (const { line, value } of parsed.events) {
    const problems = validateEvent(value);
    if (problems.length > 0) {
      issues.push(...atLine(problems, line));
      continue;
    }
    lines.push(JSON.stringify(project(value as AepEvent, kind, opts)));
  }
  issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { lines, issues };
}
