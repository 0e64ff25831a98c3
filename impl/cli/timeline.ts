/** `aep timeline <session> [--dag] [--file F]`: one session's history, flat or as its causal tree. */
import { MAX_LINE_BYTES } from '../core/stream.js';
import { EXIT, UsageError } from './io.js';
import { jsonlLines } from './jsonl-lines.js';
import { openInput } from './open-input.js';
import type { Verb } from './verb.js';
import { fsReason } from '../operator/fs-errors.js';
import { formatEvent } from '../operator/format.js';
import { RELAY_FLAGS, RELAY_HELP, target } from '../operator/relay-opts.js';
import { fetchReplay } from '../operator/stream.js';
import { causalTree, drawTree, order } from '../operator/timeline.js';
import { count } from '../operator/plural.js';

type Json = Record<string, unknown>;

const HELP = `usage: aep timeline <session> [--dag] [--file F] [flags]

Prints one session's history, deduped on (source, id) and ordered by (epoch, seq) (commands,
which carry no seq, are placed by time). The events come from --file F (a JSONL capture: an
'aep sink' file, an adapter log; '-' reads standard input; lines of other sessions are
skipped; with one session in the file <session> may be omitted) or else from the relay in
replay-only mode (GET /stream?from=all&live=0 filtered to the session): what the relay still
buffers, nothing live.

A file is read line by line, never whole: memory holds the events of the one session printed
(with --json also their lines as read) and the name of each distinct session in the file, not
the file. A line over 1 MiB is skipped like a line that is not JSON.

--dag draws the causal tree from each event's cause link: an event whose cause is absent or not
in the set is a root, everything else hangs under the event it names.

flags:
  --file F     read a JSONL file instead of the relay
  --dag        draw the causal tree
${RELAY_HELP}
               (--json prints the ordered events, one per line, exactly as read)

exit codes: 0 printed · 1 no events for the session, or the relay refused or cannot be
reached · 2 usage (also: --file cannot be read)
`;

export const verb: Verb = {
  name: 'timeline',
  summary: "one session's history from a file or the relay's replay; --dag draws the causal tree",
  help: HELP,
  allowPositionals: true,
  options: { ...RELAY_FLAGS, file: { type: 'string' }, dag: { type: 'boolean' } },
  async run({ values, positionals }, io) {
    if (positionals.length > 1) throw new UsageError(`expected one <session>, got ${positionals.length}`);
    let session = positionals[0];
    if (session === '') throw new UsageError('<session> must not be empty');
    let events: Json[];
    let raws = new Map<Json, string>();
    if (typeof values.file === 'string') {
      const read = await readSession(values.file, session, values.json === true, io);
      if (!read.ok) {
        // An input file that cannot be read is a usage error in every verb (validate, replay, bridge --from-file).
        io.stderr(`aep timeline: cannot read ${values.file}: ${fsReason(read.error)}\n`);
        return EXIT.usage;
      }
      const { bad, sessions } = read;
      if (bad > 0) io.stderr(`aep timeline: skipped ${count(bad, 'line')} of ${values.file} that ${bad === 1 ? 'is not a JSON object' : 'are not JSON objects'} (check it with 'aep validate ${values.file}')\n`);
      if (session === undefined) {
        if (sessions.length !== 1) throw new UsageError(`name the <session>: ${values.file} holds ${count(sessions.length, 'session')}${sessions.length ? ` (${sessions.slice(0, 5).join(', ')}${sessions.length > 5 ? ', …' : ''})` : ''}`);
        session = sessions[0]!;
      }
      events = read.events;
      raws = read.raws;
    } else {
      if (session === undefined) throw new UsageError('missing <session> (or give --file F)');
      const t = target(values, io.env);
      const r = await fetchReplay(t, { session });
      if (!r.ok) {
        io.stderr(`aep timeline: ${r.error}\n`);
        return EXIT.failed;
      }
      events = r.events;
      raws = new Map(r.events.map((e, i) => [e, r.raws[i]!]));
    }
    if (events.length === 0) {
      io.stderr(`aep timeline: no events for session ${session} ${typeof values.file === 'string' ? `in ${values.file}` : 'in the relay\'s buffer (it may have been evicted: read a capture with --file)'}\n`);
      return EXIT.failed;
    }
    const ordered = order(events);
    if (values.json) io.stdout(ordered.map((e) => `${raws.get(e) ?? JSON.stringify(e)}\n`).join(''));
    else if (values.dag) io.stdout(`session ${session} · ${count(ordered.length, 'event')} · causal tree\n${drawTree(causalTree(ordered)).join('\n')}\n`);
    else io.stdout(`${ordered.map((e) => formatEvent(e)).join('\n')}\n`);
    return EXIT.ok;
  },
};

/** What {@link readSession} found: the session's events (and their lines, when asked), every session named, the unusable lines. */
type SessionRead =
  | { ok: true; events: Json[]; raws: Map<Json, string>; sessions: string[]; bad: number }
  | { ok: false; error: unknown };

/**
 * One session's events from a JSONL file (or `-`), read line by line: only the events of `session`
 * are kept (when it is undefined, those of the first session named, and none once a second one
 * appears: the caller then refuses), plus each distinct session name, in order of appearance.
 */
async function readSession(file: string, session: string | undefined, keepLines: boolean, io: Parameters<Verb['run']>[1]): Promise<SessionRead> {
  const opened = await openInput(file, io);
  if (!opened.ok) return opened;
  const events: Json[] = [];
  const raws = new Map<Json, string>();
  const sessions = new Set<string>();
  let bad = 0;
  try {
    for await (const raw of jsonlLines(opened.chunks, MAX_LINE_BYTES)) {
      if (raw.bytes === null) {
        bad++;
        continue;
      }
      const line = raw.bytes.toString('utf8');
      if (line.trim() === '') continue;
      let v: unknown;
      try {
        v = JSON.parse(line);
      } catch {
        bad++;
        continue;
      }
      if (typeof v !== 'object' || v === null || Array.isArray(v)) {
        bad++;
        continue;
      }
      const e = v as Json;
      if (typeof e.session === 'string' && !sessions.has(e.session)) {
        sessions.add(e.session);
        if (session === undefined && sessions.size === 2) {
          events.length = 0; // two sessions and none named: the caller refuses, so keep nothing more
          raws.clear();
        }
      }
      if (session === undefined ? typeof e.session !== 'string' || sessions.size !== 1 : e.session !== session) continue;
      events.push(e);
      if (keepLines) raws.set(e, line);
    }
  } catch (error) {
    return { ok: false, error };
  }
  // Without a session named, the events are that of the only session, or none are used.
  return { ok: true, events: session === undefined && sessions.size !== 1 ? [] : events, raws, sessions: [...sessions], bad };
}
