/**
 * Parsing a `POST /events` body into events (AEP-0003 §3.2). Pure: text in, a verdict out.
 * The whole body is judged before anything is ingested: one bad line rejects the batch,
 * naming the first failing line and rule.
 */
import { issue, renderIssue, type Issue } from '../core/issue.js';
import { MAX_DEPTH, type JsonTextProblem } from '../core/json-shape.js';
import { scanJson } from '../core/json-scan.js';
import { violation } from '../core/rules.js';
import { admitClean, admitEvent } from './admission.js';
import type { Received } from './buffer.js';
import { isCommand } from './control.js';

export type BodyKind = 'json' | 'ndjson';

/** An HTTP refusal: status plus the JSON body to send. */
export interface Refusal {
  readonly status: number;
  readonly body: Readonly<Record<string, unknown>>;
}

export type BatchVerdict = { readonly ok: true; readonly events: Received[] } | { readonly ok: false; readonly refusal: Refusal };

const SECTION = 'AEP-0003 §3.2';

/**
 * The one-line JSON text to forward for an event: the received text when it already fits on
 * one line (so delivery is byte-identical), else a re-serialization (an SSE `data:` field
 * cannot carry a line break).
 */
export function oneLine(text: string, value: unknown): string {
  // An object's text that starts with `{` and ends with `}` has nothing to trim (the usual case: no copy).
  const trimmed = text.charCodeAt(0) === 0x7b && text.charCodeAt(text.length - 1) === 0x7d ? text : text.trim();
  return trimmed.includes('\n') || trimmed.includes('\r') ? JSON.stringify(value) : trimmed;
}

/** Whether an NDJSON line is blank (skipped): a line starting with `{` never is, without scanning it. */
function isBlank(line: string): boolean {
  return line.charCodeAt(0) !== 0x7b && line.trim() === '';
}

function invalid(issues: readonly Issue[], line: number): Refusal {
  const located = issues.map((i) => issue(i.rule, i.section, i.path, i.message, line));
  return { status: 400, body: { error: 'invalid-event', detail: renderIssue(located[0]!), line, issues: located } };
}

/** The issue for a problem `jsonTextProblem` (or `scanJsonText`) found (shared with the WebSocket binding). */
export function shapeIssue(problem: JsonTextProblem): Issue {
  return problem.kind === 'duplicate'
    ? violation('json.member.duplicate', problem.path, `member ${JSON.stringify(problem.key)} appears twice at ${problem.path}; parsers disagree on which value wins, so name each member once`)
    : violation('envelope.depth', problem.path, `the event nests deeper than ${MAX_DEPTH} levels of objects and arrays at ${problem.path}; flatten the payload`);
}

/** Parse and validate one JSON text as an event; `line` is its 1-based line in the body. */
export function parseEventText(text: string, line: number): { ok: true; rec: Received } | { ok: false; refusal: Refusal } {
  // The grammar, and the text itself: a member named twice means different things to different
  // parsers, and nesting past MAX_DEPTH is refused before any walk sees it (core/json-scan.ts).
  const scan = scanJson(text, MAX_DEPTH);
  if (!scan.ok) {
    const problem = scan.problem;
    if (problem.kind === 'syntax') return { ok: false, refusal: invalid([issue('binding.json', SECTION, '$', `not JSON (${problem.message}); send one event as a JSON object`)], line) };
    return { ok: false, refusal: invalid([shapeIssue(problem)], line) };
  }
  const value = scan.value;
  const admitted = admitEvent(value, oneLine(text, value));
  if (!admitted.ok) return { ok: false, refusal: invalid(admitted.issues, line) };
  const event = admitted.rec.event;
  if (isCommand(event.type)) {
    return {
      ok: false,
      refusal: {
        status: 403,
        body: {
          error: 'control-requires-duplex',
          detail: `line ${line}: ${event.type} is a command; commands flow only on an authenticated WebSocket (/socket), never over HTTP POST (AEP-0004 §4.1)`,
          line,
        },
      },
    };
  }
  return { ok: true, rec: admitted.rec };
}

/**
 * `parseEventText`'s record for a text it accepts with a clean envelope, else undefined (it then
 * decides): no verdict object per event.
 */
function acceptedText(text: string): Received | undefined {
  const scan = scanJson(text, MAX_DEPTH);
  if (!scan.ok) return undefined;
  const value = scan.value;
  const rec = admitClean(value, oneLine(text, value));
  return rec === undefined || isCommand(rec.event.type) ? undefined : rec;
}

/**
 * Judge a whole body. `ndjson` bodies carry one event per line; blank lines are skipped but
 * still counted for line numbers. More than `maxBatch` events: 413 `too-many-events`.
 */
export function parseBatch(text: string, kind: BodyKind, maxBatch: number): BatchVerdict {
  if (kind === 'json') {
    const one = parseEventText(text.startsWith('\uFEFF') ? text.slice(1) : text, 1);
    return one.ok ? { ok: true, events: [one.rec] } : one;
  }
  return parseLines(text.split('\n'), maxBatch);
}

/**
 * `parseBatch` of an NDJSON body given as its lines (`text.split('\n')`, as `readBodyLines`
 * reads them): the same verdict. A byte order mark opening the body is skipped.
 */
export function parseLines(lines: string[], maxBatch: number): BatchVerdict {
  if (lines[0]!.startsWith('\uFEFF')) lines[0] = lines[0]!.slice(1);
  let count = 0;
  for (let i = 0; i < lines.length; i++) if (!isBlank(lines[i]!)) count++;
  if (count > maxBatch) {
    return { ok: false, refusal: { status: 413, body: { error: 'too-many-events', detail: `the batch carries ${count} events; this relay takes at most ${maxBatch} per request (AEP_MAX_BATCH); nothing was ingested` } } };
  }
  const events: Received[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (isBlank(line)) continue;
    const rec = acceptedText(line);
    if (rec !== undefined) {
      events.push(rec);
      continue;
    }
    // Anything but a clean event takes the reference path, which gives the verdict.
    const one = parseEventText(line, i + 1);
    if (!one.ok) return one;
    events.push(one.rec);
  }
  return { ok: true, events };
}
