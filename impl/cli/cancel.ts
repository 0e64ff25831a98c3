/** `aep cancel <session> [--run R] [--reason S]`. */
import { UsageError } from './io.js';
import type { Verb } from './verb.js';
import { cancelCommand } from '../operator/command.js';
import { CONTROL_FLAGS, CONTROL_HELP, base, positionalArgs, runControl } from '../operator/control-verb.js';
import { RELAY_ENV_HELP, RELAY_HELP } from '../operator/relay-opts.js';

const HELP = `usage: aep cancel <session> [--run R] [--reason S] [flags]

Cancels a run (--run R: scope 'run') or the whole session (no --run: scope 'session') by
sending control.cancel over the relay's WebSocket. The command carries no seq; the reason rides
at capture 'redacted'. The ack is control.accepted/control.rejected with cause = the command id;
the outcome (run.cancelled) follows on the session's stream. A retry resends the same id.
Control needs a relay started with AEP_TOKEN and the same token here.

flags:
  --run R          the run to cancel (default: the session)
  --reason S       why, for the people reading the stream
${RELAY_HELP}
${CONTROL_HELP}

${RELAY_ENV_HELP}
`;

export const verb: Verb = {
  name: 'cancel',
  summary: 'cancel a run or a session over control (exit 0 accepted, 3 nacked, 4 timeout)',
  help: HELP,
  allowPositionals: true,
  options: { ...CONTROL_FLAGS, run: { type: 'string' }, reason: { type: 'string' } },
  async run({ values, positionals }, io) {
    const [session] = positionalArgs(positionals, ['<session>']) as [string];
    if (values.run === '') throw new UsageError('--run must not be empty');
    const run = values.run as string | undefined;
    const cmd = cancelCommand(base(session), run, values.reason as string | undefined);
    return runControl(values, io, cmd, run === undefined ? `cancel session ${session}` : `cancel run ${run}`);
  },
};
