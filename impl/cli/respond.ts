/** `aep respond <session> <request-id> (--option ID | --text S | --values JSON)`. */
import { UsageError } from './io.js';
import type { Verb } from './verb.js';
import { respondCommand, type Answer } from '../operator/command.js';
import { CONTROL_FLAGS, CONTROL_HELP, base, positionalArgs, runControl } from '../operator/control-verb.js';
import { RELAY_ENV_HELP, RELAY_HELP } from '../operator/relay-opts.js';

const HELP = `usage: aep respond <session> <request-id> (--option ID | --text S | --values JSON) [flags]

Answers an open attention request (an attention.requested event; 'aep tail --attention' lists
them with the exact command) by sending control.attention.respond over the relay's WebSocket.
The command carries no seq; subject and cause are the request id; an option id is declared
capture 'metadata', free text and form values 'redacted'. The sender subscribes to the session
first, then waits the ack window for control.accepted/control.rejected with cause = the command
id; on silence it resends the same envelope (same id), so a target never executes twice.
Control needs a relay started with AEP_TOKEN and the same token here.

answer (exactly one):
  --option ID      an option id of the request (e.g. allow, deny)
  --text S         a free-text answer
  --values JSON    form values, a JSON object {"field-id": value}

flags:
${RELAY_HELP}
${CONTROL_HELP}

${RELAY_ENV_HELP}
`;

export const verb: Verb = {
  name: 'respond',
  summary: 'answer an attention request over control (exit 0 accepted, 3 nacked, 4 timeout)',
  help: HELP,
  allowPositionals: true,
  options: { ...CONTROL_FLAGS, option: { type: 'string' }, text: { type: 'string' }, values: { type: 'string' } },
  async run({ values, positionals }, io) {
    const [session, request] = positionalArgs(positionals, ['<session>', '<request-id>']) as [string, string];
    const given = (['option', 'text', 'values'] as const).filter((k) => values[k] !== undefined);
    if (given.length !== 1) throw new UsageError(given.length === 0 ? 'give the answer: --option ID, --text S or --values JSON' : `give one answer, not ${given.map((k) => `--${k}`).join(' and ')}`);
    let answer: Answer;
    if (given[0] === 'option') {
      if (values.option === '') throw new UsageError('--option must not be empty');
      answer = { option: values.option as string };
    } else if (given[0] === 'text') answer = { text: values.text as string };
    else {
      let parsed: unknown;
      try {
        parsed = JSON.parse(values.values as string);
      } catch {
        throw new UsageError(`--values is not JSON; expected an object like '{"field-id": "choice-id"}'`);
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError('--values must be a JSON object {"field-id": value}');
      answer = { values: parsed as Record<string, unknown> };
    }
    return runControl(values, io, respondCommand(base(session), request, answer), `respond ${request}`);
  },
};
