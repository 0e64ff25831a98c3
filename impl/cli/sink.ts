/** `aep sink --out DIR [--rotate-mb N]`: durable JSONL capture, one file per session. */
import { resolve } from 'node:path';
import { EXIT, UsageError } from './io.js';
import type { Verb } from './verb.js';
import { fsReason } from '../operator/fs-errors.js';
import { FILTER_FLAGS, FILTER_HELP, buildFilter } from '../operator/filter-flags.js';
import { follow } from '../operator/follow.js';
import { RELAY_FLAGS, RELAY_HELP, target } from '../operator/relay-opts.js';
import { SinkWriter } from '../operator/sink-writer.js';
import { PathError } from '../adapter-kit/ensure-dir.js';
import { watchStop } from './signal-exit.js';
import { count } from '../operator/plural.js';

const HELP = `usage: aep sink --out DIR [--rotate-mb N] [filter flags | --filter JSON] [flags]

Durable capture: every event the relay serves is appended, as the exact line received, to
DIR/<session>.jsonl (the session id percent-encoded outside [A-Za-z0-9_-]). Writes are
batched (every 500 ms or 64 events), fsynced, and only then are the positions committed to
DIR/.sink-state.json: the state may lag the files, never lead them.

It always subscribes with from=all and keeps only what it does not hold yet, so sessions
started while it was down are captured too. Two sources that share a session name write to
the same file, each line with its own source; positions are kept per (source, session), so
neither hides the other's events. After a crash (kill -9, power loss) the next start
truncates a torn final line, takes each (source, session)'s last durable line as its resume
position, and drops the replayed overlap (by (source, id) and by position): no gaps the relay
could still fill, no duplicates. A jump in a session's seq (the relay evicted the events in between)
is a warning on stderr. With --rotate-mb N a live file that would pass N MiB is renamed to
DIR/<session>.<unix-ms>.jsonl and never reopened. SIGINT/SIGTERM flush, fsync, write the
state and exit 0. The files pass 'aep validate' and feed 'aep timeline --file'.

flags:
  --out DIR        the capture directory (created when missing; required)
  --rotate-mb N    rotate live files at N MiB (a positive number; default: never)
  -q, --quiet      no progress lines on stderr (warnings still print)
${FILTER_HELP}
${RELAY_HELP.split('\n').slice(0, 2).join('\n')}
  --json           the closing summary as JSON on stdout

environment:
  AEP_TOKEN, AEP_RELAY_URL (old name AEP_RELAY, read with a notice)

exit codes: 130 (SIGINT, Ctrl-C) or 143 (SIGTERM) stopped by the signal, everything flushed ·
1 the relay refused or cannot be reached, or DIR cannot be written · 2 usage
`;

export const verb: Verb = {
  name: 'sink',
  summary: 'durable JSONL capture per session (fsync before state, crash repair, rotation)',
  help: HELP,
  allowPositionals: false,
  options: { ...RELAY_FLAGS, ...FILTER_FLAGS, out: { type: 'string' }, 'rotate-mb': { type: 'string' }, quiet: { type: 'boolean', short: 'q' } },
  async run({ values }, io) {
    if (typeof values.out !== 'string' || values.out === '') throw new UsageError('missing --out DIR (the capture directory)');
    let rotateBytes: number | undefined;
    if (values['rotate-mb'] !== undefined) {
      const n = Number(values['rotate-mb']);
      if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--rotate-mb must be a positive number of MiB, got '${String(values['rotate-mb'])}'`);
      rotateBytes = Math.max(1, Math.round(n * 1024 * 1024));
    }
    const t = target(values, io.env);
    const built = buildFilter(values);
    if (!built.ok) throw new UsageError(built.error);
    const dir = resolve(io.cwd, values.out);
    const say = (line: string): void => {
      if (!values.quiet || line.startsWith('warning')) io.stderr(`aep sink: ${line}\n`);
    };
    const stopped = watchStop(io.stopSignal);
    const writer = new SinkWriter({ dir, ...(rotateBytes ? { rotateBytes } : {}), notice: say });
    try {
      const report = writer.recover();
      if (report.sessions > 0) say(`recovered ${report.sessions} session${report.sessions === 1 ? '' : 's'} from ${dir}`);
      for (const torn of report.torn) say(`repaired ${torn.file}: cut a torn final line (${torn.bytes} bytes)`);
    } catch (err) {
      io.stderr(`aep sink: cannot use --out ${dir}: ${err instanceof PathError ? `${err.path === dir ? '' : `${err.path}: `}${err.reason}` : fsReason(err)}\n`);
      return EXIT.failed;
    }
    let failed: string | undefined;
    const result = await follow({
      target: t,
      filter: built.filter,
      positions: Object.create(null),
      fromAll: true,
      alwaysAll: true,
      stop: stopped.signal,
      onNotice: say,
      onEvent: (raw, e) => {
        if (failed) return;
        try {
          writer.accept(raw, e);
        } catch (err) {
          failed = `cannot write to ${dir}: ${fsReason(err)}`;
        }
      },
    });
    try {
      writer.close();
    } catch (err) {
      failed ??= `cannot flush to ${dir}: ${(err as Error).message}`;
    }
    const summary = { events: writer.events, duplicates: writer.duplicates, rotations: writer.rotations, sessions: Object.keys(writer.written).length, dir };
    if (values.json) io.stdout(`${JSON.stringify(summary)}\n`);
    say(`stopped: ${count(summary.events, 'event')} written (${count(summary.duplicates, 'duplicate')} dropped, ${count(summary.rotations, 'rotation')}), flushed and fsynced`);
    if (failed) {
      io.stderr(`aep sink: ${failed}\n`);
      return EXIT.failed;
    }
    if (!result.ok) {
      io.stderr(`aep sink: ${result.error}\n`);
      return EXIT.failed;
    }
    return stopped.code() ?? EXIT.ok;
  },
};
