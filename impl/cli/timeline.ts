/** `aep timeline <session> [--dag] [--file F]`: one session's history, flat or as its causal tree. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { EXIT, UsageError } from './io.js';
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

--dag draws the causal tree from each event's cause link: an event whose cause is absent or not
in the set is a root, everything else hangs under the event it names.

flags:
  --file F     read a JSONL file instead of the relay
  --dag        draw the causal tree
${RELAY_HELP}
               (--json prints the ordered events, one per line, exactly as read)

exit codes: 0 printed · 1 no events for the session, the file is unreadable, or the relay
refused or cannot be reached · 2 usage
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
      let bytes: Buffer;
      try {
        bytes = values.file === '-' ? await io.readStdin() : await readFile(resolve(io.cwd, values.file));
      } catch (err) {
        io.stderr(`aep timeline: cannot read ${values.file}: ${fsReason(err)}\n`);
        return EXIT.failed;
      }
      const all: Json[] = [];
      let bad = 0;
      for (const line of bytes.toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        try {
          const v: unknown = JSON.parse(line);
          if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
            all.push(v as Json);
            raws.set(v as Json, line);
          } else bad++;
        } catch {
          bad++;
        }
      }
      if (bad > 0) io.stderr(`aep timeline: skipped ${count(bad, 'line')} of ${values.file} that ${bad === 1 ? 'is not a JSON object' : 'are not JSON objects'} (check it with 'aep validate ${values.file}')\n`);
      if (session === undefined) {
        const sessions = [...new Set(all.map((e) => e.session).filter((s): s is string => typeof s === 'string'))];
        if (sessions.length !== 1) throw new UsageError(`name the <session>: ${values.file} holds ${count(sessions.length, 'session')}${sessions.length ? ` (${sessions.slice(0, 5).join(', ')}${sessions.length > 5 ? ', …' : ''})` : ''}`);
        session = sessions[0]!;
      }
      events = all.filter((e) => e.session === session);
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
