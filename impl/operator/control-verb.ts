/** What `aep respond` and `aep cancel` share: flags, help text, sending and rendering. */
import { randomUUID } from 'node:crypto';
import { UsageError, type CliIo } from '../contract/cli.js';
import { exitFor, operatorSource, renderOutcome, type CommandBase } from './command.js';
import { RELAY_FLAGS, target } from './relay-opts.js';
import { SendError, sendControl } from './sender.js';

export const CONTROL_FLAGS = {
  ...RELAY_FLAGS,
  'ack-window': { type: 'string' },
  retries: { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
} as const;

export const CONTROL_HELP = `  --ack-window MS  how long each attempt waits for control.accepted/control.rejected (default 10000)
  --retries N      resends of the SAME envelope (same id) after a silent window (default 2)
  -q, --quiet      no progress lines on stderr

exit codes: 0 accepted · 2 usage · 3 nacked (by the target or by the relay on its behalf;
the reason on stderr) · 4 no acknowledgement within the ack window (every attempt)
· 1 the relay could not be used (unreachable, token refused)`;

function nonNegInt(v: unknown, flag: string, dflt: number, min = 0): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (typeof v !== 'string' || !/^\d+$/.test(v) || n < min) throw new UsageError(`${flag} must be an integer >= ${min}, got '${String(v)}'`);
  return n;
}

/**
 * The verb's positional arguments, checked: exactly `names.length` of them, none empty. `names`
 * are as the usage line writes them (`<session>`, `<request-id>`).
 */
export function positionalArgs(positionals: string[], names: readonly string[]): string[] {
  if (positionals.length !== names.length) throw new UsageError(`expected ${names.join(' ')}, got ${positionals.length} argument${positionals.length === 1 ? '' : 's'}`);
  if (positionals.some((p) => p === '')) throw new UsageError(`${names.join(' and ')} must not be empty`);
  return positionals;
}

export function base(session: string, id: string = randomUUID()): CommandBase {
  return { id, time: new Date().toISOString(), source: operatorSource(), session };
}

/** Sends, renders, returns the exit code (0/3/4, or 1 when the relay could not be used). */
export async function runControl(values: Record<string, unknown>, io: CliIo, command: Record<string, unknown>, what: string): Promise<number> {
  const t = target(values, io.env);
  const ackWindowMs = nonNegInt(values['ack-window'], '--ack-window', 10_000, 1);
  const retries = nonNegInt(values.retries, '--retries', 2);
  const verb = String(command.type) === 'control.cancel' ? 'cancel' : 'respond';
  const progress = values.quiet || values.json ? undefined : (l: string) => io.stderr(`aep ${verb}: ${l}\n`);
  let outcome;
  try {
    outcome = await sendControl(t, command, { ackWindowMs, retries, ...(progress ? { progress } : {}) });
  } catch (err) {
    if (err instanceof SendError) {
      io.stderr(`aep ${verb}: ${err.message}\n`);
      if (values.json) io.stdout(`${JSON.stringify({ kind: 'error', command: command.id, error: err.message })}\n`);
      return 1;
    }
    throw err;
  }
  if (values.json) io.stdout(`${JSON.stringify(outcome)}\n`);
  const line = `${renderOutcome(outcome, what, typeof command.session === 'string' ? command.session : undefined)}\n`;
  if (outcome.kind === 'accepted') {
    if (!values.json) io.stdout(line);
  } else io.stderr(`aep ${verb}: ${line}`);
  return exitFor(outcome);
}
