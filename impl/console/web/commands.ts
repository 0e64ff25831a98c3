/**
 * The console's commands, pure: the operator's envelope builders (impl/operator/command.ts)
 * under the console's identity, and the answer a form or a permission card sends.
 */
import { cancelCommand, respondCommand, type Answer } from '../../operator/command.js';

export const CONSOLE_AGENT = 'aep-console';

export interface Base {
  readonly id: string;
  readonly time: string;
  readonly host: string;
  readonly session: string;
}

const source = (host: string): string => `aep://${host}/operator/${CONSOLE_AGENT}`;

export function respond(base: Base, requestId: string, answer: Answer): Record<string, unknown> {
  return { ...respondCommand({ id: base.id, time: base.time, source: source(base.host), session: base.session }, requestId, answer), agent: CONSOLE_AGENT };
}

export function cancel(base: Base, run: string | undefined): Record<string, unknown> {
  return { ...cancelCommand({ id: base.id, time: base.time, source: source(base.host), session: base.session }, run, 'cancelled from the console'), agent: CONSOLE_AGENT };
}

/** A steering verb (`control.pause` / `control.resume`) for the session's run. */
export function steer(base: Base, type: 'control.pause' | 'control.resume', run: string | undefined): Record<string, unknown> {
  return {
    aep: '0.1',
    id: base.id,
    type,
    time: base.time,
    source: source(base.host),
    agent: CONSOLE_AGENT,
    session: base.session,
    ...(run === undefined ? {} : { run }),
    capture: 'metadata',
    data: { scope: run === undefined ? 'session' : 'run' },
  };
}
