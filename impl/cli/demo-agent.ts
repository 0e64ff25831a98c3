import { runDemoAgent } from '../demo-agent/agent.js';
import { UsageError } from './io.js';
import { target } from '../operator/relay-opts.js';
import type { Verb } from './verb.js';
import { DEFAULT_RELAY_URL, RELAY_URL_ALIAS, RELAY_URL_ENV } from '../integrations/registry.js';

const HELP = `usage: aep demo-agent [--relay URL] [--token T] [--session S] [--run R]

A synthetic control-capable target. It connects to the relay's WebSocket ({relay}/socket),
says hello declaring control.accepts ["control.attention.respond", "control.cancel"] (not
control.pause) with ack_window_ms 10000, then emits session.started, run.started and one
open permission request (attention.requested, options allow/deny) for session S, run R.

It honors control.cancel of its run (scope run, or scope session: the session has one run)
with control.accepted then run.cancelled cause-linked to the command, refuses an already-terminal run ('refused'), answers its permission request over
control.attention.respond ('invalid' for any other request id; a text answer follows the
AEP-0008 receiver rule: a word naming an option is that option, any other text applies deny
with the words as the reason), nacks undeclared commands 'unsupported', and re-sends the
recorded ack byte-identically for a retransmitted command. Each reconnect sends the session's
whole history again, so a relay that restarted empty also learns the request's outcome.

Prints 'demo-agent ready session=S run=R' on stdout once the hello completed and the opening
events were sent. Reconnects with backoff (250 ms doubling to 5 s); exits 0 on SIGINT/SIGTERM,
1 when the relay refuses the credentials.

flags:
  --relay URL    relay base URL (default ${RELAY_URL_ENV}, else ${DEFAULT_RELAY_URL})
  --token T      bearer token (default: the AEP_TOKEN environment variable; control needs one)
  --session S    the session it owns (default demo-session)
  --run R        the open run (default demo-run)

environment:
  AEP_TOKEN      used when --token is not given
  ${RELAY_URL_ENV}  the relay when --relay is not given (${RELAY_URL_ALIAS}: the old name, read with a notice)

Diagnostics go to stderr as 'aep demo-agent: ...'; the ready line above is the only stdout.

exit codes: 0 stopped on SIGINT/SIGTERM (a second signal exits at once, 130/143) · 1 the relay
refused the credentials · 2 usage error
`;

export const verb: Verb = {
  name: 'demo-agent',
  summary: 'run a synthetic control-capable target (owns a session with an open run)',
  help: HELP,
  allowPositionals: false,
  options: {
    relay: { type: 'string' },
    token: { type: 'string' },
    session: { type: 'string' },
    run: { type: 'string' },
  },
  async run({ values }, io) {
    // The relay as every verb finds it: --relay, else AEP_RELAY_URL (the old AEP_RELAY with a notice), else the default.
    const { relay, token } = target(values, io.env);
    const nonEmpty = (k: string, dflt: string): string => {
      const v = values[k];
      if (v === undefined) return dflt;
      if (typeof v !== 'string' || v === '') throw new UsageError(`--${k} must not be empty`);
      return v;
    };
    return runDemoAgent(
      { relay, ...(token ? { token } : {}), session: nonEmpty('session', 'demo-session'), run: nonEmpty('run', 'demo-run') },
      io.stopSignal,
      io,
    );
  },
};
