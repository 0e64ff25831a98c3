/** `aep setup`: managed daemons up/down/status, and each vendor's hook wiring written for the adapters. */
import { EXIT, UsageError, type CliIo } from './io.js';
import type { Verb } from './verb.js';
import { CATALOG, daemonPort, daemonSpec, logFile, pidFile, withNeeds } from '../operator/catalog.js';
import { ADAPTER_INTEGRATIONS, DEFAULT_RELAY_URL, RELAY_URL_ALIAS, RELAY_URL_ENV, relayUrlFromEnv } from '../integrations/registry.js';
import { down, healthy, isAlive, readPid, up } from '../operator/daemons.js';
import { HOOKS_HELP, runHooks, wiredHooksWarning } from './setup-hooks.js';
import { aepHome } from '../operator/home.js';

const HELP = `usage: aep setup up [ID...|all]       start managed daemons (default: relay)
       aep setup down [ID...|all] [--all]
                                      stop managed daemons started by 'setup up'
       aep setup status               the catalog: each daemon's port, pid file and health
       aep setup hooks VENDOR [--file F] [--dry-run] [--remove]
                                      write VENDOR's hook wiring for its adapter
       aep setup unhooks VENDOR [--file F] [--dry-run]
                                      remove exactly the wiring 'hooks' wrote

Daemons (the port catalog 'aep doctor' checks too), with the variable that moves each port:
${wrapCatalog()}.
'up' starts each one detached (node bin/aep.js ...), its output appended to
$AEP_HOME/run/<id>.log, its pid in $AEP_HOME/run/<id>.pid, and waits (10 s) until its
/healthz answers; one already answering on its port is left alone (a relay that refuses this
shell's AEP_TOKEN is exit 1), a port held by another program is exit 1 at once. 'up relay' binds
AEP_HOST (default 127.0.0.1). The adapters and bridges are pointed at --relay (default
${RELAY_URL_ENV}, else ${DEFAULT_RELAY_URL}). A bridge that needs a vendor server takes it
from --server URL or its variable (${CATALOG.filter((d) => d.needs).map((d) => `${d.id}: ${d.needs!.env}`).join(', ')}).
AEP_TOKEN is adopted from the environment, never generated: without it the relay is watch-only.
'down' sends SIGTERM to the pid of the pid file and removes the file. With no ID it reports
what 'up' started and counts the known daemons without a pid file in one line; --all (or
naming the daemons) reports each one.

${HOOKS_HELP()}

flags:
  --relay URL   the relay the adapters link to (up)
  --server URL  the vendor server of a bridge that needs one (up)
  --file F      the vendor file to write (hooks, unhooks; default above)
  --remove      with hooks: the same as unhooks
  --all         down: one line for every known daemon, not only the ones 'up' started
  --dry-run     show what would be done, do nothing (up, down, hooks, unhooks)
  --json        machine output

environment:
  AEP_HOME (default ~/.aep), AEP_TOKEN, AEP_HOST, ${RELAY_URL_ENV} (old name ${RELAY_URL_ALIAS}, read
  with a notice), the port variables above, HOME,
  ${[...new Set(ADAPTER_INTEGRATIONS.flatMap((i) => (i.settings?.dirEnv ? [i.settings.dirEnv] : [])))].join(', ')}

exit codes: 0 done · 1 a daemon did not come up or stop, or a file could not be merged · 2 usage
`;

function wrapCatalog(): string {
  const items = CATALOG.map((d) => `${d.id} ${d.port} (${d.portEnv})`);
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    if (line && line.length + item.length + 4 > 96) (lines.push(`  ${line},`), (line = ''));
    line = line ? `${line}, ${item}` : item;
  }
  if (line) lines.push(`  ${line}`);
  return lines.join('\n');
}

function ids(rest: string[], dflt: string[]): string[] {
  const list = rest.length === 0 ? dflt : rest.includes('all') ? CATALOG.map((d) => d.id) : rest;
  for (const id of list) if (!daemonSpec(id)) throw new UsageError(`unknown daemon '${id}'; known: ${CATALOG.map((d) => d.id).join(', ')}, all`);
  return list;
}

/** What every subcommand shares: the parsed flags, the home, and the report it adds to. */
interface SetupRun {
  values: Record<string, unknown>;
  io: CliIo;
  home: string;
  dry: boolean;
  report: Array<Record<string, unknown>>;
  say(line: string, data: Record<string, unknown>): void;
  finish(code: number): number;
  /** One daemon's outcome: said when it worked; else on stderr and in the report. False when it failed. */
  outcome<R extends { ok: true } | { ok: false; error: string }>(id: string, r: R, line: (ok: Extract<R, { ok: true }>) => string): boolean;
}

function setupRun(values: Record<string, unknown>, io: CliIo): SetupRun {
  const report: Array<Record<string, unknown>> = [];
  const say = (line: string, data: Record<string, unknown>): void => {
    report.push(data);
    if (!values.json) io.stdout(`${line}\n`);
  };
  return {
    values,
    io,
    home: aepHome(io.env, io.cwd),
    dry: values['dry-run'] === true,
    report,
    say,
    finish(code) {
      if (values.json) io.stdout(`${JSON.stringify(report)}\n`);
      return code;
    },
    outcome(id, r, line) {
      if (r.ok) {
        say(line(r as Extract<typeof r, { ok: true }>), { id, ...r });
        return true;
      }
      io.stderr(`aep setup: ${(r as { error: string }).error}\n`);
      report.push({ id, ...r });
      return false;
    },
  };
}

/** `setup up`: each named daemon started detached (its needs checked first). */
async function setupUp(s: SetupRun, rest: string[]): Promise<number> {
  const { values, io, home, dry, say, finish, outcome } = s;
  const relay = typeof values.relay === 'string' ? values.relay : relayUrlFromEnv(io.env).url || DEFAULT_RELAY_URL;
  let code = EXIT.ok as number;
  const list = ids(rest, ['relay']);
  const server = typeof values.server === 'string' ? values.server : undefined;
  if (server !== undefined && !list.some((id) => daemonSpec(id)!.needs)) throw new UsageError(`--server is for a bridge that needs a vendor server (${CATALOG.filter((d) => d.needs).map((d) => d.id).join(', ')})`);
  // Every daemon's needs are checked before any is started: a usage error leaves nothing half up.
  const specs = list.map((id) => {
    const d = withNeeds(daemonSpec(id)!, server, io.env);
    if (typeof d === 'string') throw new UsageError(d);
    return d;
  });
  if (!io.env.AEP_TOKEN) io.stderr('aep setup: AEP_TOKEN is not set: the relay will be watch-only and refuse every command; set it (the same value everywhere) for control\n');
  for (const d of specs) {
    const id = d.id;
    const port = daemonPort(d, io.env);
    if (dry) {
      say(`would start ${id}: aep ${d.args(port, relay).join(' ')} (pid ${pidFile(home, id)}, log ${logFile(home, id)})`, { id, dryRun: true, port });
      continue;
    }
    const r = await up(d, home, io.env, relay, (p) => io.stderr(`aep setup: starting ${id} on port ${p}\n`));
    if (!outcome(id, r, (ok) => (ok.already ? `${id} already answers on 127.0.0.1:${port}; left alone` : `${id} up on 127.0.0.1:${ok.port} (pid ${ok.pid}, log ${logFile(home, id)})`))) code = EXIT.failed;
  }
  return finish(code);
}

/** `setup down`: each daemon 'up' started stopped; the others counted in one line. */
async function setupDown(s: SetupRun, rest: string[]): Promise<number> {
  const { values, io, home, dry, report, say, finish, outcome } = s;
  let code = EXIT.ok as number;
  // Named daemons are each reported; with none named, only what 'up' set up is, the rest counted in one line (--all lists them).
  const listAll = values.all === true || rest.length > 0;
  const list = ids(rest, CATALOG.map((d) => d.id));
  const idle: string[] = [];
  for (const id of list) {
    const d = daemonSpec(id)!;
    if (dry) {
      const pid = readPid(home, id);
      if (pid || listAll) say(pid ? `would stop ${id} (pid ${pid})` : `${id}: no pid file, nothing to stop`, { id, dryRun: true, ...(pid ? { pid } : {}) });
      else (idle.push(id), report.push({ id, dryRun: true }));
      continue;
    }
    const r = await down(d, home);
    if (r.ok && r.state === 'not-managed' && !listAll) (idle.push(id), report.push({ id, ...r }));
    else if (!outcome(id, r, (ok) => (ok.state === 'stopped' ? `${id} stopped` : ok.state === 'stale' ? `${id}: the pid file was stale; removed it` : `${id}: not started by 'aep setup up' (no pid file)`))) code = EXIT.failed;
    const wired = wiredHooksWarning(id, io);
    if (wired) io.stderr(`aep setup: warning: ${wired}\n`);
  }
  if (idle.length > 0 && !values.json) io.stdout(`${idle.length === list.length ? `nothing to stop: none of the ${list.length} known daemons was started by 'aep setup up' (no pid file)` : `${idle.length} other known daemon${idle.length === 1 ? ' was' : 's were'} not started by 'aep setup up' (no pid file)`}; 'aep setup down --all' lists them\n`);
  return finish(code);
}

/** `setup status`: every daemon of the catalog, its port, health and pid. */
async function setupStatus(s: SetupRun, rest: string[]): Promise<number> {
  const { io, home, say, finish } = s;
  if (rest.length > 0) throw new UsageError('status takes no arguments');
  for (const d of CATALOG) {
    const port = daemonPort(d, io.env);
    const pid = readPid(home, d.id);
    const up = await healthy(port);
    const state = up ? 'up' : pid !== undefined && isAlive(pid) ? 'wedged' : pid !== undefined ? 'down (stale pid file)' : 'down';
    say(`${d.id.padEnd(14)} 127.0.0.1:${port}  ${state}${pid ? `  pid ${pid}` : ''}`, { id: d.id, port, state, ...(pid ? { pid } : {}) });
  }
  return finish(EXIT.ok);
}

export const verb: Verb = {
  name: 'setup',
  summary: 'start/stop the managed daemons (pid files, port catalog) and write vendor hook wiring',
  help: HELP,
  allowPositionals: true,
  options: { relay: { type: 'string' }, server: { type: 'string' }, file: { type: 'string' }, remove: { type: 'boolean' }, all: { type: 'boolean' }, 'dry-run': { type: 'boolean' }, json: { type: 'boolean' } },
  async run({ values, positionals }, io) {
    const [sub, ...rest] = positionals;
    const s = setupRun(values, io);
    if (sub === 'up') return setupUp(s, rest);
    if (sub === 'down') return setupDown(s, rest);
    if (sub === 'status') return setupStatus(s, rest);
    if (sub === 'hooks' || sub === 'unhooks') return s.finish(runHooks(sub === 'unhooks' || values.remove === true, rest, values, io, s.say));
    throw new UsageError(sub === undefined ? 'name a subcommand: up, down, status, hooks or unhooks' : `unknown subcommand '${sub}'; expected up, down, status, hooks or unhooks`);
  },
};
