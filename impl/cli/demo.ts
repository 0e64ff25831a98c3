/** `aep demo` (what `npm run demo` runs): the five beats, checked, then torn down. */
import type { Verb } from './verb.js';
import { UsageError } from './io.js';
import { BEATS, runDemo } from '../demo/run.js';
import { CONSOLE_PORT, CONSOLE_PORT_ENV } from '../integrations/registry.js';

const HELP = `usage: aep demo [--json] [--console [--console-port N] [--lead S]]

Plays the whole AEP loop on this machine with real processes on loopback ports picked by the
system: a relay with a fresh AEP_TOKEN, the Claude Code adapter daemon fed synthetic hooks
(the way Claude Code's http hooks post them), 'aep demo-agent', an 'aep tail' consumer, and the
operator verbs. Five beats, each checked against what the relay holds:
  1. a session and run lifecycle (session.started → run.started → run.finished → session.ended)
  2. tools, including a failure (tool.requested, tool.completed, tool.failed)
  3. a permission prompt held by the adapter, found with 'aep tail --attention', answered with
     'aep respond ... --option allow'; the held hook replies allow
  4. 'aep cancel' of the demo agent's run: control.accepted and run.cancelled, cause-linked
  5. the consumer killed (SIGKILL) and reattached with its state file: it receives exactly the
     events after its saved position, no gap, no duplicate
then prints the session's causal tree ('aep timeline --dag'). Every process is stopped at the
end, and on Ctrl-C. Progress goes to stderr.

flags:
  --json             print only the beats as JSON on stdout
  --console          watch it in Mission Control: the relay lets the console's origin read it,
                     'aep console' watches it and its URL is printed before the beats; after the
                     beats everything stays up until Ctrl-C (then exit 0 when every beat happened)
  --console-port N   the console's port (default ${CONSOLE_PORT_ENV}, then ${CONSOLE_PORT}; 0 picks a free one)
  --lead S           seconds between the console's URL and the first beat, to open the page
                     (default 5)

exit codes: 0 every beat happened · 1 a beat failed · 130/143 interrupted (SIGINT/SIGTERM)
`;

export const verb: Verb = {
  name: 'demo',
  summary: 'play the five-beat demo (relay, adapter daemon, demo agent, tail, respond, cancel)',
  help: HELP,
  allowPositionals: false,
  options: { json: { type: 'boolean' }, console: { type: 'boolean' }, 'console-port': { type: 'string' }, lead: { type: 'string' } },
  async run({ values }, io) {
    const json = values.json === true;
    const watch = values.console === true;
    if (!watch && (values['console-port'] !== undefined || values.lead !== undefined)) throw new UsageError('--console-port and --lead go with --console');
    const portText = typeof values['console-port'] === 'string' ? values['console-port'] : io.env[CONSOLE_PORT_ENV];
    const port = portText === undefined || portText === '' ? CONSOLE_PORT : Number(portText);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`${typeof values['console-port'] === 'string' ? '--console-port' : CONSOLE_PORT_ENV} must be a port number 0-65535, got '${portText}'`);
    const lead = typeof values.lead === 'string' ? Number(values.lead) : 5;
    if (!Number.isFinite(lead) || lead < 0 || lead > 600) throw new UsageError(`--lead must be a number of seconds 0-600, got '${String(values.lead)}'`);
    const t0 = Date.now();
    const result = await runDemo({
      out: (l) => {
        if (!json) io.stdout(`${l}\n`);
      },
      progress: (l) => io.stderr(`demo: ${l}\n`),
      stop: io.stopSignal,
    }, watch ? { console: { port, leadMs: lead * 1000 } } : {});
    const ok = result.beats.length === BEATS.length && result.beats.every((b) => b.ok);
    if (json) io.stdout(`${JSON.stringify({ ok, beats: result.beats, ms: Date.now() - t0 })}\n`);
    else io.stdout(`\n${ok ? 'demo: all 5 beats happened' : `demo: ${result.beats.filter((b) => b.ok).length} of 5 beats happened`} (${((Date.now() - t0) / 1000).toFixed(1)} s); everything is stopped\n`);
    if (result.interrupted) return result.interrupted === 'SIGINT' ? 130 : 143;
    return ok ? 0 : 1;
  },
};
