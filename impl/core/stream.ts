/**
 * Streams of Events: JSONL parsing (AEP-0003 §3.1) and the cross-event rules a single Event
 * cannot show: `(source, id)` uniqueness, `(epoch, seq)` order (AEP-0001 §7), terminal
 * exclusivity (AEP-0002 §2 convention 5, §7), one ack decision per command (AEP-0004 §3) and
 * form answers against their request (AEP-0006). Pure; never throws on any input.
 *
 * All per-session state is keyed by `(source, session)` (AEP-0001 §5.2). A repeat of an
 * already-seen `(source, id)` with the same canonical JSON is a legal redelivery and is
 * skipped before any ordering or terminal check.
 */
import { hash } from 'node:crypto';
import { canonicalJson } from './canonical.js';
import { validateEvent } from './envelope.js';
import { captureRank, isPlainObject, type CaptureLevel } from './event.js';
import { freeTextKeys, validateFormValues } from './forms.js';
import { atLine, childPath, type Issue } from './issue.js';
import { scanJson } from './json-scan.js';
import { MAX_DEPTH } from './json-shape.js';
import { KeyWindow, type Forgettable } from './key-window.js';
import { violation } from './rules.js';

/** Longest JSONL line parsed, in UTF-8 bytes (1 MiB). A longer line gets `stream.line.size` and is skipped. */
export const MAX_LINE_BYTES = 1024 * 1024;

/** One parsed line: its 1-based line number and the JSON value on it. */
export interface StreamEntry {
  line: number;
  value: unknown;
}

/** What {@link parseJsonl} returns: the parsed lines, and one issue per line that could not be parsed. */
export interface ParsedJsonl {
  events: StreamEntry[];
  issues: Issue[];
}

// `ignoreBOM`: the decoder keeps a byte-order mark, so bytes and text read alike: only line 1's is dropped (below).
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Any surrogate at all: a cheap test that spares most lines the look-around of {@link LONE_SURROGATE}. */
const SURROGATE = /[\uD800-\uDFFF]/;
const BINARY = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;

/**
 * Parse JSONL: one JSON value per line, `\n` or `\r\n` separated. Blank lines are ignored and a
 * leading byte-order mark is dropped. Pass the raw bytes (a `Uint8Array`) to have invalid UTF-8
 * reported per line as `stream.line.encoding`; a string input is checked for lone surrogates,
 * which no UTF-8 encoding can carry. Lines over {@link MAX_LINE_BYTES} get `stream.line.size` and
 * are not parsed; lines that are not JSON get `stream.line.json`. The values are not validated:
 * pass `events` to {@link validateStream}.
 */
export function parseJsonl(input: string | Uint8Array): ParsedJsonl {
  const out: ParsedJsonl = { events: [], issues: [] };
  let line = 0;
  if (typeof input === 'string') {
    // Line by line without splitting first: `text.split('\n')` would hold every line at once.
    for (let start = 0; start <= input.length; ) {
      let end = input.indexOf('\n', start);
      if (end < 0) end = input.length;
      const stop = end > start && input.charCodeAt(end - 1) === 0x0d ? end - 1 : end;
      const text = input.slice(start, stop);
      parseLine(text, text.length * 3 <= MAX_LINE_BYTES ? text.length : utf8Length(text), ++line, out);
      start = end + 1;
    }
  } else {
    for (let start = 0; start <= input.length; ) {
      let end = input.indexOf(0x0a, start);
      if (end < 0) end = input.length;
      const stop = end > start && input[end - 1] === 0x0d ? end - 1 : end;
      parseLine(input.subarray(start, stop), stop - start, ++line, out);
      start = end + 1;
    }
  }
  return out;
}

type LineRule = 'stream.line.json' | 'stream.line.size' | 'stream.line.encoding' | 'json.member.duplicate' | 'envelope.depth';

function lineIssue(out: ParsedJsonl, line: number, rule: LineRule, message: string, path = '$'): void {
  out.issues.push(atLine([violation(rule, path, message)], line)[0]!);
}

/** One JSONL line (`bytes` long in UTF-8, `line` its 1-based number): its entry or its issue goes to `out`. */
function parseLine(raw: string | Uint8Array, bytes: number, line: number, out: ParsedJsonl): void {
  if (bytes > MAX_LINE_BYTES) {
    return lineIssue(out, line, 'stream.line.size', `line is ${bytes} bytes, over this validator's ${MAX_LINE_BYTES}-byte (1 MiB) bound; it was not parsed`);
  }
  let text: string;
  if (typeof raw === 'string') {
    text = raw;
  } else {
    try {
      text = decoder.decode(raw);
    } catch {
      return lineIssue(out, line, 'stream.line.encoding', 'line is not valid UTF-8 (binary data or a different text encoding); AEP Events are UTF-8 JSON');
    }
  }
  if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // A line opening an object is not blank: only other lines pay for the trimmed copy.
  if (text.charCodeAt(0) !== 0x7b && text.trim() === '') return;
  if (SURROGATE.test(text) && LONE_SURROGATE.test(text)) {
    return lineIssue(out, line, 'stream.line.encoding', 'line contains a lone UTF-16 surrogate, which has no UTF-8 form; AEP Events are UTF-8 JSON');
  }
  // One call: the grammar (with the engine's message), duplicate members and depth (json-scan.ts).
  const scan = scanJson(text, MAX_DEPTH);
  if (!scan.ok) {
    const problem = scan.problem;
    if (problem.kind === 'syntax') {
      const binary = BINARY.test(text) ? ' (the line holds control characters: binary data?)' : '';
      return lineIssue(out, line, 'stream.line.json', `line is not valid JSON${binary}: ${problem.message}; each line must hold exactly one JSON object`);
    }
    if (problem.kind === 'duplicate') {
      return lineIssue(out, line, 'json.member.duplicate', `member ${JSON.stringify(problem.key)} appears twice at ${problem.path}; readers disagree on which value wins, so name each member once`, problem.path);
    }
    return lineIssue(out, line, 'envelope.depth', `the line nests deeper than ${MAX_DEPTH} levels of objects and arrays at ${problem.path}; flatten the payload`, problem.path);
  }
  const value = scan.value;
  out.events.push({ line, value });
}

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

const RUN_TERMINALS: ReadonlySet<string> = new Set(['run.finished', 'run.failed', 'run.cancelled']);
const TOOL_TERMINALS: ReadonlySet<string> = new Set(['tool.completed', 'tool.failed', 'tool.denied']);
const ATTENTION_TERMINALS: ReadonlySet<string> = new Set(['attention.resolved', 'attention.timeout']);
const ACKS: ReadonlySet<string> = new Set(['control.accepted', 'control.rejected']);

/** A request remembered for the close-before-end and form-values rules. */
interface Request {
  line: number;
  data: Record<string, unknown> | undefined;
}

/** Cross-event state for one `(source, session)`. */
interface SessionState {
  position?: { epoch: number; seq: number; line: number };
  ended?: number;
  requests: Map<string, Request>;
  open: Set<string>;
  attentionTerminals: Map<string, number>;
  runTerminals: Map<string, number>;
  toolTerminals: Map<string, number>;
  acks: Map<string, number>;
  /** The requests of every source under this bare session name (shared with the other sources' states). */
  view: Map<string, Request>;
}

/** What a checker holds per source. */
interface SourceState {
  readonly name: string;
  /** id -> digest mode: the digest; value mode: the first value, or its Form once computed. */
  readonly ids: Map<string, unknown>;
  readonly sessions: Map<string, SessionState>;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const nonNegInt = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);

function isEntry(v: unknown): v is StreamEntry {
  if (!isPlainObject(v) || typeof v.line !== 'number') return false;
  // Own enumerable names exactly `line` and `value` (what Object.keys would list), without the array.
  let names = 0;
  for (const key in v) {
    if (!Object.hasOwn(v, key)) continue;
    if (key !== 'line' && key !== 'value') return false;
    names++;
  }
  return names === 2;
}

function canonical(v: unknown): string | undefined {
  try {
    return canonicalJson(v);
  } catch {
    return undefined;
  }
}

/**
 * How a checker remembers each `(source, id)` it has seen, for the redelivery rule (a repeat
 * must have the same canonical JSON as the first):
 * - `digest` (the default): a SHA-256 of the first Event's canonical JSON, 44 characters per
 *   Event whatever its size; the canonical form is computed for every Event.
 * - `value`: a reference to the first Event's value; the canonical forms are computed only when
 *   the `(source, id)` repeats. Costs no memory when the caller holds the values anyway (as
 *   {@link validateStream} does), and the values must not change while the checker is in use.
 */
export type SeenMemory = 'digest' | 'value';

/**
 * The most keys a checker remembers at once (default of {@link StreamCheckerOptions.window}): one
 * per `(source, id)` seen, one per session, run terminal, tool terminal, attention request and
 * terminal, and ack decision. Past it the oldest key is forgotten, so the cross-event rules see
 * the last 131,072 keys of the stream (more than 13 times the relay's default per-session replay
 * buffer of 10,000 Events), and a checker's memory stays bounded on any input.
 */
export const MAX_REMEMBERED_KEYS = 131_072;

export interface StreamCheckerOptions {
  readonly remember?: SeenMemory;
  /**
   * The most keys remembered at once (default {@link MAX_REMEMBERED_KEYS}). Within it every rule
   * is exact. Past it the oldest keys are forgotten: a repeat of a forgotten `(source, id)` is
   * checked as a new Event (a collision with it goes unseen; a late redelivery of a sequenced
   * Event is reported by the order rules, whose message then says the checker has forgotten
   * keys), a forgotten terminal or ack no longer conflicts with a later one, and an attention
   * request forgotten while open is not reported at `session.ended`.
   */
  readonly window?: number;
}

/** An Event that cannot be serialized canonically: never the same as anything, itself included. */
const UNSERIALIZABLE = Symbol('unserializable');
/** A `value`-mode entry whose canonical form was computed (on its first repeat), kept for later repeats. */
class Form {
  constructor(readonly text: string | typeof UNSERIALIZABLE) {}
}

function digestOf(v: unknown): string | typeof UNSERIALIZABLE {
  const form = canonical(v);
  return form === undefined ? UNSERIALIZABLE : hash('sha256', form, 'base64');
}

/**
 * Validate a stream: every Event on its own ({@link validateEvent}), then the cross-event rules,
 * in stream order (the emitter's order). Accepts raw values, whose line numbers are then their
 * 1-based positions, or {@link parseJsonl} entries (objects with exactly `line` and `value`).
 * Every issue carries the `line` of the Event it is about. May be called any time; keeps no state
 * between calls.
 */
export function validateStream(events: readonly unknown[] | readonly StreamEntry[], options: { readonly window?: number } = {}): Issue[] {
  const issues: Issue[] = [];
  // The values are held by `events` for the whole call: remembering them costs nothing.
  const checker = streamChecker({ remember: 'value', ...options });
  for (let index = 0; index < events.length; index++) {
    const item: unknown = events[index];
    const found = checker.check(isEntry(item) ? item : { line: index + 1, value: item });
    for (let i = 0; i < found.length; i++) issues.push(found[i]!);
  }
  return issues;
}

/**
 * The incremental form of {@link validateStream}: feed Events one at a time, in stream order; each
 * call returns that Event's issues. Holds the per-session state and, per `(source, id)` seen, what
 * `remember` says (by default a fixed-size digest, never the Event), for at most `window` keys
 * (see {@link StreamCheckerOptions.window}). Memory: that many keys, each with a digest or a
 * position, plus the data of each remembered attention request (its form fields).
 */
export interface StreamChecker {
  check(entry: StreamEntry): Issue[];
}

export function streamChecker(options: StreamCheckerOptions = {}): StreamChecker {
  const byValue = options.remember === 'value';
  // Keyed by source, then id or session: nested maps rather than one joined key, so no key string is built per Event.
  const sources = new Map<string, SourceState>();
  // Requests by bare session name then id: the session view a foreign respond command resolves in (AEP-0001 §7 rule 4).
  const views = new Map<string, Map<string, Request>>();
  // Every key put in any of the maps above (or a session's) takes a slot; the oldest is forgotten past the window.
  const window = new KeyWindow<SourceState | SessionState>(options.window ?? MAX_REMEMBERED_KEYS, (map: Forgettable, key, owner) => {
    if ('open' in owner) owner.open.delete(key); // a forgotten request is no longer open either
    else if (owner.ids.size === 0 && owner.sessions.size === 0 && sources.get(owner.name) === owner) sources.delete(owner.name);
  });
  /** Where `crossCheck` puts an Event's issues (emptied after each Event): no array per Event. */
  const scratch: Issue[] = [];
  /** Whether `value` repeats `first`, the Event remembered under `id` in `ids` (same canonical JSON). */
  const isRedelivery = (ids: Map<string, unknown>, id: string, first: unknown, value: unknown): boolean => {
    if (!byValue) {
      const form = digestOf(value);
      return form !== UNSERIALIZABLE && form === first;
    }
    let known: Form;
    if (first instanceof Form) known = first;
    else ids.set(id, (known = new Form(canonical(first) ?? UNSERIALIZABLE)));
    if (known.text === UNSERIALIZABLE) return false;
    return canonical(value) === known.text;
  };
  const check = ({ line, value }: StreamEntry): Issue[] => {
    const own = validateEvent(value);
    const issues = own.length === 0 ? own : atLine(own, line);
    if (!isPlainObject(value)) return issues;
    const source = str(value.source);
    const id = str(value.id);
    if (source === undefined || id === undefined) return issues;

    // (source, id) is the identity of an Event (AEP-0001 §7 rule 4): a repeat is redelivery or a fault.
    let ofSource = sources.get(source);
    if (ofSource === undefined) sources.set(source, (ofSource = { name: source, ids: new Map(), sessions: new Map() }));
    const ids = ofSource.ids;
    const first = ids.get(id);
    if (first !== undefined) {
      if (!isRedelivery(ids, id, first, value)) {
        issues.push(atLine([violation('stream.id.collision', '$.id', `(source, id) = (${source}, ${id}) already names a different Event; a retransmission must be byte-identical, a new Event needs a new id`)], line)[0]!);
      }
      return issues;
    }
    ids.set(id, byValue ? value : digestOf(value));
    window.remember(ids, id, ofSource);

    const session = str(value.session);
    if (session === undefined) return issues;
    let state = ofSource.sessions.get(session);
    if (state === undefined) {
      let view = views.get(session);
      if (view === undefined) {
        views.set(session, (view = new Map()));
        window.remember(views, session);
      }
      state = { requests: new Map(), open: new Set(), attentionTerminals: new Map(), runTerminals: new Map(), toolTerminals: new Map(), acks: new Map(), view };
      ofSource.sessions.set(session, state);
      window.remember(ofSource.sessions, session, ofSource);
    }
    if (scratch.length > 0) scratch.length = 0; // setting a length is a runtime call: only when needed
    crossCheck(value, line, state, state.view, scratch, window);
    if (scratch.length > 0) for (const i of atLine(scratch, line)) issues.push(i);
    return issues;
  };
  return { check };
}

/** The cross-event rules for one Event; its issues (without a line) are pushed to `issues`. */
function crossCheck(ev: Record<string, unknown>, line: number, st: SessionState, view: Map<string, Request>, issues: Issue[], window: KeyWindow<SourceState | SessionState>): void {
  const type = typeof ev.type === 'string' ? ev.type : '';
  const data = isPlainObject(ev.data) ? ev.data : undefined;

  // (epoch, seq) strictly increases per (source, session) (AEP-0001 §7 rules 1-3). Seq-less Events are not positioned.
  const seq = nonNegInt(ev.seq);
  const epoch = Object.hasOwn(ev, 'epoch') ? nonNegInt(ev.epoch) : 0;
  if (seq !== undefined && epoch !== undefined) {
    const last = st.position;
    if (last !== undefined && epoch < last.epoch) {
      issues.push(violation('stream.epoch.order', '$.epoch', `epoch ${epoch} comes after epoch ${last.epoch} (line ${last.line}) in this session; an emitter never reuses an earlier epoch${forgetting(window)}`));
    } else if (last !== undefined && epoch === last.epoch && seq <= last.seq) {
      issues.push(violation('stream.seq.order', '$.seq', `seq ${seq} is not above seq ${last.seq} (line ${last.line}) in epoch ${epoch}; within an epoch seq strictly increases (a restarted counter takes a new epoch)${forgetting(window)}`));
    } else if (last === undefined) {
      st.position = { epoch, seq, line };
    } else {
      last.epoch = epoch;
      last.seq = seq;
      last.line = line;
    }
  }

  const id = ev.id as string;
  const subject = str(ev.subject);
  if (RUN_TERMINALS.has(type)) {
    const run = str(ev.run);
    const at = run === undefined ? undefined : once(window, st, st.runTerminals, run, line);
    if (at !== undefined) issues.push(violation('stream.run.terminal', '$', `run "${run}" already reached its terminal at line ${at}; run.finished, run.failed and run.cancelled are exclusive and unrepeatable`));
  } else if (TOOL_TERMINALS.has(type)) {
    const tool = data !== undefined && isPlainObject(data.tool) ? str(data.tool.call_id) : undefined;
    const at = tool === undefined ? undefined : once(window, st, st.toolTerminals, `${str(ev.run) ?? ''}\u0000${tool}`, line);
    if (at !== undefined) issues.push(violation('stream.tool.terminal', '$', `tool call "${tool}" already reached its terminal at line ${at}; tool.completed, tool.failed and tool.denied are exclusive`));
  } else if (type === 'session.ended') {
    if (st.ended !== undefined) {
      issues.push(violation('stream.session.terminal', '$', `this session already ended at line ${st.ended}; a second distinct session.ended is not allowed`));
    } else {
      st.ended = line;
    }
    for (const req of st.open) {
      issues.push(violation('stream.attention.open', '$', `attention request "${req}" (line ${st.requests.get(req)?.line}) is still open; close it with attention.resolved{resolution:"dismissed"} or attention.timeout before session.ended`));
    }
    st.open.clear();
  } else if (type === 'attention.requested') {
    st.requests.set(id, { line, data });
    window.remember(st.requests, id, st);
    if (!view.has(id)) {
      view.set(id, { line, data });
      window.remember(view, id);
    }
    st.open.add(id);
  } else if (ATTENTION_TERMINALS.has(type) && subject !== undefined) {
    const at = once(window, st, st.attentionTerminals, subject, line);
    if (at !== undefined) issues.push(violation('stream.attention.terminal', '$', `attention request "${subject}" already reached its terminal at line ${at}; attention.resolved and attention.timeout are exclusive`));
    st.open.delete(subject);
  } else if (ACKS.has(type)) {
    const cause = str(ev.cause);
    const at = cause === undefined ? undefined : once(window, st, st.acks, cause, line);
    if (at !== undefined) issues.push(violation('stream.ack.duplicate', '$', `command "${cause}" was already acknowledged at line ${at}; a target makes one ack decision per command, and answers a redelivery by re-emitting that same ack byte-identically`));
  } else if (type === 'attention.answered' && subject !== undefined) {
    issues.push(...checkAnswer(ev, data, st.requests.get(subject)));
  } else if (type === 'control.attention.respond' && subject !== undefined) {
    // A respond with bad values is legal on the wire (the target nacks it), but its capture claim must hold.
    const request = view.get(subject);
    const answer = data !== undefined && isPlainObject(data.answer) ? data.answer : undefined;
    if (request?.data?.kind === 'form' && answer !== undefined) issues.push(...valuesCapture(ev, request.data.fields, answer.values));
  }
}

/**
 * What an order violation adds once the checker has forgotten keys: the Event may be a legal
 * redelivery of one older than the window, which can no longer be compared.
 */
function forgetting(window: { readonly forgotten: number; readonly capacity: number }): string {
  if (window.forgotten === 0) return '';
  return `. Note: this stream outgrew the validator's window of ${window.capacity} remembered keys ((source, id) pairs, sessions, terminals), so if this Event repeats one from before that window it is a legal redelivery that can no longer be compared; to tell, validate this session's lines on their own (e.g. filter the file by "session")`;
}

/**
 * Record the first Event for `key` and return `undefined`; for a second, different one return the
 * first's line (the caller reports it: no message closure is built per Event).
 */
function once(window: KeyWindow<SourceState | SessionState>, st: SessionState, map: Map<string, number>, key: string, line: number): number | undefined {
  const first = map.get(key);
  if (first !== undefined) return first;
  map.set(key, line);
  window.remember(map, key, st);
  return undefined;
}

/** AEP-0006: `answer.values` against the request's fields, and its type-dependent capture gating. */
function checkAnswer(ev: Record<string, unknown>, data: Record<string, unknown> | undefined, request: Request | undefined): Issue[] {
  const answer = data !== undefined && isPlainObject(data.answer) ? data.answer : undefined;
  // A request seen without its kind (e.g. emitted at capture "none") cannot be checked against.
  if (answer === undefined || !Object.hasOwn(answer, 'values') || typeof request?.data?.kind !== 'string') return [];
  const path = '$.data.answer.values';
  if (request.data.kind !== 'form') {
    return [violation('form.values.kind', path, `answer.values answers kind "form" requests only, but the request (line ${request.line}) is kind ${JSON.stringify(request.data.kind)}; use answer.option or answer.text`)];
  }
  const capture = (typeof ev.capture === 'string' ? ev.capture : 'metadata') as CaptureLevel;
  const textAllowed = captureRank(capture) >= captureRank('redacted');
  const fields = request.data.fields;
  // Below `redacted` a required string field is legitimately gated away, so coverage is not demanded there.
  return [...validateFormValues(fields, answer.values, { path, checkRequired: textAllowed }), ...valuesCapture(ev, fields, answer.values)];
}

/** AEP-0002 §5.3: free-text form values (string fields, `other` text) need capture `redacted` or above. */
function valuesCapture(ev: Record<string, unknown>, fields: unknown, values: unknown): Issue[] {
  const capture = typeof ev.capture === 'string' ? ev.capture : 'metadata';
  const rank = captureRank(capture as CaptureLevel);
  if (rank < 0 || rank >= captureRank('redacted')) return [];
  return freeTextKeys(fields, values).map((key) =>
    violation('form.values.capture', childPath('$.data.answer.values', key), `value of field "${key}" is free text (a string field or other:true text), allowed only at capture redacted or full; this Event is at "${capture}", so drop it or raise capture`),
  );
}
