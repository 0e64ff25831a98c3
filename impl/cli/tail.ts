/** `aep tail`: follow the relay, one readable line per event; `--attention` lists the open requests. */
import { join, resolve } from 'node:path';
import { EXIT, UsageError, type CliIo } from './io.js';
import type { Verb } from './verb.js';
import { openRequests, renderInbox } from '../operator/attention.js';
import { FILTER_FLAGS, FILTER_HELP, buildFilter } from '../operator/filter-flags.js';
import { follow } from '../operator/follow.js';
import { formatEvent } from '../operator/format.js';
import { aepHome } from '../operator/home.js';
import { RELAY_FLAGS, RELAY_HELP, target } from '../operator/relay-opts.js';
import { checkStatePath, loadState, saveState } from '../operator/state-file.js';
import { watchStop } from './signal-exit.js';
import { fetchReplay } from '../operator/stream.js';
import { Resume, SeenIds, clonePositions, emptyPositions, type Positions, type Recent } from '../operator/positions.js';

const HELP = `usage: aep tail [filter flags | --filter JSON] [--state FILE | --no-resume] [--all] [flags]
       aep tail --attention [--session S] [--agent A] [flags]

Follows the relay's SSE stream (GET /stream) and prints one line per event:
  HH:MM:SS.mmm  agent  session  epoch:seq  type  summary
Redeliveries are dropped on (source, id). The highest (epoch, seq) per (source, session) is
saved to the state file 250 ms after the stream goes quiet (and on exit); the next start sends,
per session, the earliest of its sources' positions as 'from' and drops what each source had
already printed (the state file also keeps the last 1000 (source, id) of events without a
position, such as commands), so a restarted tail resumes where it stopped, also when two
sources share a session name. A state file written by an older aep (positions per session
only) is still read. When the relay no longer holds a saved
position (replay-exhausted) a warning says which session lost events and where to read them.
Reconnects with backoff (250 ms doubling to 5 s) when the relay ends the stream.
Runs until SIGINT/SIGTERM.

--attention lists the attention requests still open across sessions (replay-only fetch), each
with the exact 'aep respond' command that answers it, and exits.

filter flags:
${FILTER_HELP}

flags:
  --state FILE    the position file (default $AEP_HOME/tail-state.json, AEP_HOME default ~/.aep)
  --no-resume     neither read nor write the state file
  --all           with no saved positions, replay everything the relay holds (default: live only)
  --attention     list open attention requests with their respond commands, then exit
  -q, --quiet     no progress lines on stderr (warnings still print)
${RELAY_HELP}

environment:
  AEP_TOKEN, AEP_RELAY_URL (old name AEP_RELAY, read with a notice), AEP_HOME

exit codes: 0 --attention listed · 130 (SIGINT, Ctrl-C) or 143 (SIGTERM) stopped by the signal,
positions saved · 1 the relay refused or cannot be reached, or the state file is unusable or
cannot be written (checked at start) · 2 usage
`;

export const verb: Verb = {
  name: 'tail',
  summary: 'follow the relay, one readable line per event; --attention lists open requests',
  help: HELP,
  allowPositionals: false,
  options: {
    ...RELAY_FLAGS,
    ...FILTER_FLAGS,
    state: { type: 'string' },
    'no-resume': { type: 'boolean' },
    all: { type: 'boolean' },
    attention: { type: 'boolean' },
    quiet: { type: 'boolean', short: 'q' },
  },
  async run({ values }, io) {
    const t = target(values, io.env);
    const built = buildFilter(values);
    if (!built.ok) throw new UsageError(built.error);
    if (values.attention) return attention(values, io, t, built.filter);
    const json = values.json === true;
    const resume = values['no-resume'] !== true;
    if (!resume && values.state !== undefined) throw new UsageError('--state and --no-resume contradict each other');
    const stateFile = typeof values.state === 'string' ? resolve(io.cwd, values.state) : join(aepHome(io.env, io.cwd), 'tail-state.json');
    let positions: Positions = emptyPositions();
    let recent: Recent = [];
    if (resume) {
      const loaded = await loadState(stateFile);
      if (!loaded.ok) {
        io.stderr(`aep tail: ${loaded.error}\n`);
        return EXIT.failed;
      }
      const writable = checkStatePath(stateFile);
      if (writable !== true) {
        io.stderr(`aep tail: ${writable}; pass another --state FILE, or --no-resume\n`);
        return EXIT.failed;
      }
      positions = loaded.positions;
      recent = loaded.recent;
      if (loaded.existed && !values.quiet) io.stderr(`aep tail: resuming from ${stateFile}\n`);
    }
    const core = new Resume(positions, new SeenIds(), recent);
    const stopped = watchStop(io.stopSignal);
    let timer: NodeJS.Timeout | undefined;
    let saving = Promise.resolve();
    const save = (): void => {
      if (!resume) return;
      const snapshot = clonePositions(positions);
      const seenLoose = core.recent();
      saving = saving.then(() => saveState(stateFile, snapshot, seenLoose)).catch((err: unknown) => io.stderr(`aep tail: cannot write the state file ${stateFile}: ${(err as Error).message}\n`));
    };
    const result = await follow({
      target: t,
      filter: built.filter,
      positions,
      resume: core,
      fromAll: values.all === true,
      stop: stopped.signal,
      onNotice: (line) => {
        if (!values.quiet || line.startsWith('warning')) io.stderr(`aep tail: ${line}\n`);
      },
      onEvent: (raw, e) => {
        io.stdout(json ? `${raw}\n` : `${formatEvent(e)}\n`);
        if (resume) {
          clearTimeout(timer);
          timer = setTimeout(save, 250);
        }
      },
    });
    clearTimeout(timer);
    save();
    await saving;
    if (!result.ok) {
      io.stderr(`aep tail: ${result.error}\n`);
      return EXIT.failed;
    }
    return stopped.code() ?? EXIT.ok;
  },
};

async function attention(values: Record<string, unknown>, io: CliIo, t: ReturnType<typeof target>, user: Record<string, unknown> | undefined): Promise<number> {
  if (user?.type !== undefined) throw new UsageError('--attention chooses the types itself; narrow it with --session/--agent/--run');
  const filter = { ...(user ?? {}), type: ['attention.*', 'session.ended'] };
  const r = await fetchReplay(t, filter);
  if (!r.ok) {
    io.stderr(`aep tail: ${r.error}\n`);
    return EXIT.failed;
  }
  const reqs = openRequests(r.events, t.relay);
  io.stdout(values.json ? `${JSON.stringify(reqs)}\n` : renderInbox(reqs));
  return EXIT.ok;
}
