/**
 * The operator's commands (AEP-0004 §5, §6), pure: envelopes built without `seq` (§2.2) and
 * the classification of what came back. The id and clock are injected.
 */
import { hostname } from 'node:os';

type Json = Record<string, unknown>;

export const OPERATOR_AGENT = 'aep-cli';
export const operatorSource = (): string => `aep://${hostname()}/operator/aep-cli`;

export type Answer = { option: string } | { text: string } | { values: Record<string, unknown> };

export interface CommandBase {
  id: string;
  time: string;
  source: string;
  session: string;
}

/** `control.attention.respond`: subject and cause are the request id; free text is declared redacted. */
export function respondCommand(base: CommandBase, requestId: string, answer: Answer): Json {
  const redacted = 'text' in answer || 'values' in answer;
  return {
    aep: '0.1',
    id: base.id,
    type: 'control.attention.respond',
    time: base.time,
    source: base.source,
    agent: OPERATOR_AGENT,
    session: base.session,
    subject: requestId,
    cause: requestId,
    capture: redacted ? 'redacted' : 'metadata',
    data: { answer },
  };
}

/** `control.cancel`: scope run when a run is named, session otherwise; the reason rides at redacted. */
export function cancelCommand(base: CommandBase, run: string | undefined, reason: string | undefined): Json {
  return {
    aep: '0.1',
    id: base.id,
    type: 'control.cancel',
    time: base.time,
    source: base.source,
    agent: OPERATOR_AGENT,
    session: base.session,
    ...(run === undefined ? {} : { run }),
    capture: 'redacted',
    data: { scope: run === undefined ? 'session' : 'run', ...(reason === undefined ? {} : { reason }) },
  };
}

/** The outcome of sending a command, as data; the exit code and the stderr line follow from it. */
export type ControlOutcome =
  | { kind: 'accepted'; command: string; ack: Json; attempts: number; ms: number }
  | { kind: 'nacked'; command: string; reason: string; detail?: string; by: 'target' | 'relay'; attempts: number; ms: number }
  | { kind: 'timeout'; command: string; attempts: number; ms: number; windowMs: number };

export const CONTROL_EXIT = { accepted: 0, usage: 2, nacked: 3, timeout: 4 } as const;

export function exitFor(o: ControlOutcome): number {
  return o.kind === 'accepted' ? CONTROL_EXIT.accepted : o.kind === 'nacked' ? CONTROL_EXIT.nacked : CONTROL_EXIT.timeout;
}

/** What a frame or event received after sending means for command `id`, or undefined when unrelated. */
export function classify(
  frame: Json,
  id: string,
): { kind: 'accepted'; ack: Json } | { kind: 'nacked'; reason: string; detail?: string; by: 'target' | 'relay' } | undefined {
  if (frame.cause !== id) return undefined;
  if (frame.type === 'control.accepted') return { kind: 'accepted', ack: frame };
  if (frame.type === 'control.rejected') {
    const data = (frame.data ?? {}) as Json;
    return { kind: 'nacked', reason: String(data.reason ?? 'unknown'), ...(typeof data.detail === 'string' ? { detail: data.detail } : {}), by: 'target' };
  }
  if (frame.type === 'error') {
    return { kind: 'nacked', reason: String(frame.code ?? 'error'), ...(typeof frame.detail === 'string' ? { detail: frame.detail } : {}), by: 'relay' };
  }
  return undefined;
}

/** The human line for an outcome (stdout for acceptance, stderr for nacks and timeouts). */
export function renderOutcome(o: ControlOutcome, what: string, session?: string): string {
  const tailCmd = `aep tail --session ${session === undefined ? '<SESSION>' : shellWord(session)}`;
  const tries = o.attempts === 1 ? '1 attempt' : `${o.attempts} attempts (same id each time)`;
  switch (o.kind) {
    case 'accepted':
      return `${what}: accepted (command ${o.command}, ${o.ms} ms, ${tries}); the outcome follows on the session's stream`;
    case 'nacked': {
      const hint = o.reason === 'no-route' ? noRouteHint(session) : (NACK_HINTS[o.reason] ?? '');
      return `${what}: rejected '${o.reason}' by the ${o.by}${o.detail ? `: ${o.detail}` : ''} (command ${o.command})${hint ? `. ${hint}` : ''}`;
    }
    case 'timeout':
      return `${what}: no acknowledgement within the ${o.windowMs} ms ack window after ${tries} (command ${o.command}); the target may be down or not control-capable. Raise --ack-window or --retries, or check it with '${tailCmd}'`;
  }
}

/** A POSIX shell word: bare when safe, else single-quoted. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * `no-route`: nothing connected owns the session, so the agent that asked is gone; the request may
 * still be listed as open (nothing closed it), and answering it again cannot work.
 */
function noRouteHint(session: string | undefined): string {
  return `No connected target owns ${session === undefined ? 'this session' : `session ${session}`}: the agent that asked is gone (it disconnected or its session ended), so this request can no longer be answered here and retrying will not help. Answer in the agent's own UI if it is still open there, or start the agent again`;
}

const NACK_HINTS: Record<string, string> = {
  unauthorized: 'Control needs an authenticated binding: start the relay with AEP_TOKEN set and pass the same token (--token or AEP_TOKEN)',
  unsupported: 'The target does not accept this command type',
  invalid: 'The target does not know this request or run: list open requests with `aep tail --attention`',
  refused: 'The target refused it (for a cancel: the run is probably already over)',
  busy: 'The target is busy: retry later',
};
