/**
 * `aep validate FILE|-`: every line of a JSONL stream checked on its own (envelope, registry,
 * payload, capture honesty) and the stream as a whole (the cross-event rules).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { issue, renderIssue, type Issue } from '../core/issue.js';
import { parseJsonl, validateStream } from '../core/stream.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import type { Verb } from './verb.js';

const HELP = `usage: aep validate [--json] FILE|-

Validates a JSONL stream of AEP 0.1 events ('-' reads standard input). Each line is checked
on its own (envelope, type registry, payload schema, capture honesty) and the stream as a
whole (ids, (epoch, seq) order, terminal exclusivity, ack decisions, form answers).

Every problem is one line on stdout:
  line N: <json path> [<rule id>, <spec section>] <what is wrong and how to fix it>
followed by a summary line. An empty stream is invalid.

flags:
  --json   print only {"ok", "events", "issues": [{rule, section, path, message, line}]}
           as JSON on stdout instead of the lines above (default: off)

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

async function readInput(file: string, io: CliIo): Promise<Uint8Array | string> {
  if (file === '-') return io.readStdin();
  try {
    return await readFile(resolve(io.cwd, file));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (code ?? (err as Error).message);
    return `cannot read ${file}: ${why}`;
  }
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
    const input = await readInput(file, io);
    if (typeof input === 'string') {
      io.stderr(`aep validate: ${input}\n`);
      return EXIT.usage;
    }
    const result = validateJsonl(input);
    if (values.json) io.stdout(`${JSON.stringify(result)}\n`);
    else io.stdout(renderValidation(result, file === '-' ? '<stdin>' : file));
    return result.ok ? EXIT.ok : EXIT.failed;
  },
};
