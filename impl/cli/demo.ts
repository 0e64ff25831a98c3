/** `aep demo` (what `npm run demo` runs): the five beats, checked, then torn down. */
import type { Verb } from './verb.js';
import { BEATS, runDemo } from '../demo/run.js';

const HELP = `usage: aep demo [--json]

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
  --json   print only the beats as JSON on stdout

exit codes: 0 every beat happened · 1 a beat failed · 130/143 interrupted (SIGINT/SIGTERM)
`;

export const verb: Verb = {
  name: 'demo',
  summary: 'play the five-beat demo (relay, adapter daemon, demo agent, tail, respond, cancel)',
  help: HELP,
  allowPositionals: false,
  options: { json: { type: 'boolean' } },
  async run({ values }, io) {
    const json = values.json === true;
    const t0 = Date.now();
    const result = await runDemo({
      out: (l) => {
        if (!json) io.stdout(`${l}\n`);
      },
      progress: (l) => io.stderr(`demo: ${l}\n`),
      stop: io.stopSignal,
    });
    const ok = result.beats.length === BEATS.length && result.beats.every((b) => b.ok);
    if (json) io.stdout(`${JSON.stringify({ ok, beats: result.beats, ms: Date.now() - t0 })}\n`);
    else io.stdout(`\n${ok ? 'demo: all 5 beats happened' : `demo: ${result.beats.filter((b) => b.ok).length} of 5 beats happened`} (${((Date.now() - t0) / 1000).toFixed(1)} s); everything is stopped\n`);
    if (result.interrupted) return result.interrupted === 'SIGINT' ? 130 : 143;
    return ok ? 0 : 1;
  },
};
