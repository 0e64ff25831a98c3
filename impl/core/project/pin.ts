/**
 * Builds the bridge pins (`conformance/fixtures/{ce-roundtrip,otlp,ocsf}`) from a
 * golden corpus. Pure: takes the golden JSONL text, returns fixture text; the caller
 * reads and writes files. Pins are a contract: review generated output against
 * AEP-0005 by hand before checking it in.
 */
import type { AepEvent } from '../event.js';
import { toCloudEvent } from './cloudevents.js';
import { toOcsf, type OcsfOptions } from './ocsf.js';
import { toOtlp, type OtlpOptions } from './otlp.js';
import { epochNanos } from './time.js';

/** The golden corpus's Events, one per non-blank line, in order (line i ↔ index i). */
export function parseGolden(jsonl: string): AepEvent[] {
  return jsonl
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as AepEvent);
}

/** `ce-expected.jsonl`: the CE form of every golden Event, one per line, golden order. */
export function buildCePins(golden: readonly AepEvent[]): string {
  return golden.map((event) => JSON.stringify(toCloudEvent(event)) + '\n').join('');
}

/**
 * `otlp-expected.json`: golden index → LogRecord, for the chosen indexes. Refuses an
 * Event whose nanosecond time would not print exactly as a JSON number (a pin must
 * hold the exact integer; millisecond-precision times always do).
 */
export function buildOtlpPins(golden: readonly AepEvent[], indexes: readonly number[], opts?: OtlpOptions): string {
  const pins: Record<string, unknown> = {};
  for (const i of indexes) {
    const record = toOtlp(at(golden, i), opts);
    if (String(epochNanos(at(golden, i).time)) !== JSON.stringify(record.time_unix_nano)) {
      throw new Error(`golden[${i}].time ${at(golden, i).time} does not print exactly as a JSON number of nanoseconds; pin an Event with coarser time`);
    }
    pins[String(i)] = record;
  }
  return JSON.stringify(pins, null, 2) + '\n';
}

/**
 * `ocsf-expected.json`: golden index → OCSF record for the chosen indexes (default:
 * every Event in a projected family). An index whose Event projects to `null` is an error.
 */
export function buildOcsfPins(golden: readonly AepEvent[], indexes?: readonly number[], opts?: OcsfOptions): string {
  const chosen = indexes ?? golden.flatMap((event, i) => (toOcsf(event, opts) === null ? [] : [i]));
  const pins: Record<string, unknown> = {};
  for (const i of chosen) {
    const record = toOcsf(at(golden, i), opts);
    if (record === null) throw new Error(`golden[${i}] (${at(golden, i).type}) has no OCSF projection; do not pin it`);
    pins[String(i)] = record;
  }
  return JSON.stringify(pins, null, 2) + '\n';
}

/**
 * The project corpus's OTLP pin set, by golden Event `id` (indexes shift when the golden
 * grows): every severity row incl. warning/error/critical, `gen_ai.*` hoisting with and
 * without a remaining body, traceparent with both flag values, a numeric offset time,
 * the defaults, agent-scoped Events, `capture: none`, and payload drops above the
 * default `metadata` ceiling (redacted and full).
 */
export const PROJECT_OTLP_PIN_IDS = [
  'qz-001-sess-start', 'qz-006-read-done', 'qz-008-ask', 'qz-013-edit-done', 'qz-017-run-done', 'qz-020-denied',
  'qz-022-write-fail', 'qz-023-error', 'qz-033-compacted', 'ag-001-online', 'ag-003-health', 'ag-004-beat', 'm-1',
  'fm-005-form', 'rg-006',
] as const;

/** The three project bridge fixtures built from the project golden JSONL text. */
export interface ProjectPins {
  readonly ceExpected: string;
  readonly otlpExpected: string;
  readonly ocsfExpected: string;
}

/**
 * Build every project pin: the CE form of each golden line, OTLP for
 * `PROJECT_OTLP_PIN_IDS` (the first Event carrying each id), OCSF for every Event in a
 * projected family. Throws when a pinned id is missing from the golden.
 */
export function buildProjectPins(goldenText: string, otlpIds: readonly string[] = PROJECT_OTLP_PIN_IDS): ProjectPins {
  const golden = parseGolden(goldenText);
  const indexes = otlpIds
    .map((id) => {
      const i = golden.findIndex((event) => event.id === id);
      if (i < 0) throw new Error(`no golden Event has id ${id}; update PROJECT_OTLP_PIN_IDS`);
      return i;
    })
    .sort((a, b) => a - b);
  return { ceExpected: buildCePins(golden), otlpExpected: buildOtlpPins(golden, indexes), ocsfExpected: buildOcsfPins(golden) };
}

function at(golden: readonly AepEvent[], i: number): AepEvent {
  const event = golden[i];
  if (event === undefined) throw new Error(`golden has ${golden.length} Events; index ${i} does not exist`);
  return event;
}
