/**
 * `aep validate FILE|-`: every line of a JSONL stream checked on its own (envelope, registry,
 * payload, capture honesty) and the stream as a whole (the cross-event rules).
 */
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { atLine, issue, renderIssue, type Issue } from '../core/issue.js';
import { violation } from '../core/rules.js';
import { MAX_LINE_BYTES, MAX_REMEMBERED_KEYS, parseJsonl, streamChecker, validateStream } from '../core/stream.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import { jsonlLines } from './jsonl-lines.js';
import { readChunks } from './read-chunks.js';
import type { Verb } from './verb.js';
import { fsReason } from '../operator/fs-errors.js';

/** Most issues kept for --json; the rest are counted (memory stays bounded on any input). */
export const MAX_JSON_ISSUES = 10_000;

const HELP = `usage: aep validate [--json] FILE|-

Validates a JSONL stream of AEP 0.1 events ('-' reads standard input). Each line is checked
on its own (envelope, type registry, payload schema, capture honesty) and the stream as a
whole (ids, (epoch, seq) order, terminal exclusivity, ack decisions, form answers).

Every problem is one line on stdout:
  line N: <json path> [<rule id>, <spec section>] <what is wrong and how to fix it>
followed by a summary line. An empty stream is invalid. The input is read line by line and
the lines are printed as they are found. Memory stays bounded on any input (an endless pipe,
/dev/zero): one line (at most 1 MiB) plus the stream rules' window of the last ${MAX_REMEMBERED_KEYS}
keys ((source, id) pairs, sessions, terminals, acks, attention requests). Within that window
every rule is exact; past it the oldest keys are forgotten: a repeat of a forgotten id is
checked as a new event (a late redelivery then fails the seq order rule, whose message says
so), and a forgotten terminal or ack no longer conflicts with a later one.

flags:
  --json   print only {"ok", "events", "issues": [{rule, section, path, message, line}]}
           as JSON on stdout instead of the lines above (default: off); past the first
           ${MAX_JSON_ISSUES} issues only their count is kept, as "issues_omitted"

exit codes: 0 valid, 1 invalid, 2 usage (no FILE, more than one, or FILE cannot be read)
`;

/** The verdict on one stream, as data; rendering is separate. */
export interface ValidationResult {
  ok: boolean;
  /** Lines that parsed as JSON values. */
  events: number;
  /** Every problem, ordered by line. */
  issues: Issue[];
}

/** Validates raw JSONL bytes. Pure; never throws. */
export function validateJsonl(bytes: Uint8Array): ValidationResult {
  const parsed = parseJsonl(bytes);
  const issues = [...parsed.issues, ...validateStream(parsed.events)];
  if (parsed.events.length === 0 && parsed.issues.length === 0) {
    issues.push(issue('stream.empty', 'AEP-0003 §3.1', '$', 'the stream holds no events: a JSONL stream carries one Event per line, and this input has none'));
  }
  const ordered = issues
    .map((i, n) => ({ i, n }))
    .sort((a, b) => (a.i.line ?? 0) - (b.i.line ?? 0) || a.n - b.n)
    .map(({ i }) => i);
  return { ok: ordered.length === 0, events: parsed.events.length, issues: ordered };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Human rendering: one line per issue, then `<label>: N events, valid` or `..., K issues: invalid`. */
export function renderValidation(result: ValidationResult, label: string): string {
  const lines = result.issues.map(renderIssue);
  lines.push(
    result.ok
      ? `${label}: ${plural(result.events, 'event')}, valid`
      : `${label}: ${plural(result.events, 'event')}, ${plural(result.issues.length, 'issue')}: invalid`,
  );
  return `${lines.join('\n')}\n`;
}

/** Opens FILE (or stdin for `-`) as a stream of chunks; a string is the reason it cannot be read. */
async function openInput(file: string, io: CliIo): Promise<AsyncIterable<Buffer | string | Uint8Array> | string> {
  if (file === '-') return io.stdin ?? (async function* () { yield await io.readStdin(); })();
  try {
    const handle = await open(resolve(io.cwd, file), 'r');
    const st = await handle.stat();
    if (st.isDirectory()) {
      await handle.close();
      return `cannot read ${file}: it is a directory`;
    }
    return (async function* () {
      try {
        yield* readChunks(handle);
      } finally {
        await handle.close();
      }
    })();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : fsReason(err);
    return `cannot read ${file}: ${why}`;
  }
}

/** Bytes read between two full garbage collections (see {@link collecting}). */
const COLLECT_EVERY_BYTES = 8 * 1024 * 1024;
/** ... or after this long, whichever comes first (a collection of this small heap takes a few ms). */
const COLLECT_EVERY_MS = 250;

/**
 * The source, with a full garbage collection after every 8 MiB read (or 250 ms). What validation keeps is
 * bounded by one line (plus the stream rules' per-session state), but V8's heap growth lets the
 * garbage of an endless input (64 KiB stream chunks, one SyntaxError per bad line) pile up past
 * 100 MB before it collects. `--optimize-for-size` (read at run time by the heap's growing
 * strategy) makes it collect earlier, and the explicit collection bounds what is left.
 */
async function* collecting(source: AsyncIterable<Buffer | string | Uint8Array>, drained?: () => Promise<void>): AsyncGenerator<Buffer | string | Uint8Array> {
  setFlagsFromString('--optimize-for-size');
  setFlagsFromString('--expose-gc');
  let gc: (() => void) | undefined;
  try {
    gc = runInNewContext('typeof gc === "function" ? gc : undefined') as (() => void) | undefined; // a context made after the flag has gc()
  } catch {
    gc = undefined; // no explicit collection: memory is still bounded, only later
  }
  let read = 0;
  let last = Date.now();
  for await (const chunk of source) {
    yield chunk;
    // A reader that does not keep up with the issue lines holds us back (else they queue in memory).
    await drained?.();
    read += chunk.length;
    // Bad lines make far more garbage per byte than good ones: collect on time as well as on bytes.
    if (read >= COLLECT_EVERY_BYTES || Date.now() - last >= COLLECT_EVERY_MS) {
      read = 0;
      gc?.();
      last = Date.now();
    }
  }
}

/**
 * Validate a stream chunk by chunk: each issue goes to `onIssue` as soon as its line is read (in
 * line order, as {@link validateJsonl} orders them). Resolves with the counts. Memory: one line
 * plus the stream rules' window of remembered keys (MAX_REMEMBERED_KEYS, see streamChecker).
 */
export async function validateChunks(source: AsyncIterable<Buffer | string | Uint8Array>, onIssue: (issue: Issue) => void): Promise<{ events: number; issues: number }> {
  const checker = streamChecker();
  let events = 0;
  let issues = 0;
  const report = (found: readonly Issue[]): void => {
    for (const i of found) {
      issues++;
      onIssue(i);
    }
  };
  for await (const raw of jsonlLines(source)) {
    if (raw.bytes === null) {
      report(atLine([violation('stream.line.size', '$', `line is ${raw.size} bytes, over this validator's ${MAX_LINE_BYTES}-byte (1 MiB) bound; it was not parsed`)], raw.line));
      continue;
    }
    // parseJsonl drops a byte-order mark on its first line only: give a later line a blank line before it.
    const bytes = raw.line > 1 && raw.bytes[0] === 0xef ? Buffer.concat([Buffer.from('\n'), raw.bytes]) : raw.bytes;
    const parsed = parseJsonl(bytes);
    report(atLine(parsed.issues, raw.line));
    for (const entry of parsed.events) {
      events++;
      report(checker.check({ line: raw.line, value: entry.value }));
    }
  }
  if (events === 0 && issues === 0) {
    report([issue('stream.empty', 'AEP-0003 §3.1', '$', 'the stream holds no events: a JSONL stream carries one Event per line, and this input has none')]);
  }
  return { events, issues };
}

export const verb: Verb = {
  name: 'validate',
  summary: 'validate a JSONL stream of AEP events (file or -)',
  help: HELP,
  options: { json: { type: 'boolean' } },
  allowPositionals: true,
  async run({ values, positionals }, io) {
    if (positionals.length === 0) throw new UsageError('missing FILE (a JSONL file, or - for standard input)');
    if (positionals.length > 1) throw new UsageError(`expected one FILE, got ${positionals.length}`);
    const file = positionals[0]!;
    const opened = await openInput(file, io);
    if (typeof opened === 'string') {
      io.stderr(`aep validate: ${opened}\n`);
      return EXIT.usage;
    }
    const input = collecting(opened, io.drained);
    const label = file === '-' ? '<stdin>' : file;
    if (values.json) {
      const kept: Issue[] = [];
      const counts = await validateChunks(input, (i) => void (kept.length < MAX_JSON_ISSUES && kept.push(i)));
      const omitted = counts.issues - kept.length;
      io.stdout(`${JSON.stringify({ ok: counts.issues === 0, events: counts.events, issues: kept, ...(omitted > 0 ? { issues_omitted: omitted } : {}) })}\n`);
      return counts.issues === 0 ? EXIT.ok : EXIT.failed;
    }
    // Issue lines are batched into ~16 KiB writes (and flushed whenever the input waits), not one write each.
    let pending = '';
    let scheduled = false;
    const flush = (): void => {
      scheduled = false;
      if (pending !== '') io.stdout(pending);
      pending = '';
    };
    const counts = await validateChunks(input, (i) => {
      pending += `${renderIssue(i)}\n`;
      if (pending.length >= 16 * 1024) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
    flush();
    io.stdout(
      counts.issues === 0
        ? `${label}: ${plural(counts.events, 'event')}, valid\n`
        : `${label}: ${plural(counts.events, 'event')}, ${plural(counts.issues, 'issue')}: invalid\n`,
    );
    return counts.issues === 0 ? EXIT.ok : EXIT.failed;
  },
};
