/** A command's state as one human line (pure): what was sent, and what the relay and target said. */
import type { Command } from './model.js';

const VERB: Record<string, string> = { 'control.attention.respond': 'Answer', 'control.cancel': 'Cancel', 'control.pause': 'Pause', 'control.resume': 'Resume' };

/** What the settling outcome event means, per command. */
function settled(c: Command): string {
  switch (c.outcome) {
    case 'run.paused':
      return 'paused.';
    case 'run.resumed':
      return 'resumed.';
    case 'run.cancelled':
      return 'the run was cancelled.';
    case 'session.ended':
      return 'the session ended.';
    case undefined:
      return 'done.';
    default:
      return c.type === 'control.attention.respond' ? 'answered.' : `done (${c.outcome}).`;
  }
}

export function verbOf(c: Command): string {
  return VERB[c.type] ?? c.type;
}

export function commandLine(c: Command | undefined): string {
  if (!c) return '';
  const what = verbOf(c);
  switch (c.state) {
    case 'sent':
      return `${what}: sent, waiting for the agent's acknowledgement…`;
    case 'accepted':
      return `${what}: accepted by the agent; waiting for the outcome on the stream…`;
    case 'done':
      return `${what}: ${settled(c)}`;
    case 'nacked':
      return `${what}: rejected '${c.reason ?? 'unknown'}' by the ${c.by ?? 'target'}${c.detail ? `: ${c.detail}` : ''}`;
    case 'timeout':
      return `${what}: no acknowledgement within ${c.ackWindowMs} ms; the agent may be gone. Try again.`;
  }
}

/** Whether the line is a problem the operator must see (an alert), not progress. */
export const isProblem = (c: Command | undefined): boolean => c !== undefined && (c.state === 'nacked' || c.state === 'timeout');
