/** A command's state as one human line (pure): what was sent, and what the relay and target said. */
import type { Command } from './model.js';

export function commandLine(c: Command | undefined, what: string): string {
  if (!c) return '';
  switch (c.state) {
    case 'sent':
      return `${what}: sent, waiting for the agent's acknowledgement…`;
    case 'accepted':
      return `${what}: accepted by the agent; waiting for the outcome on the stream…`;
    case 'done':
      return `${what}: done.`;
    case 'nacked':
      return `${what}: rejected '${c.reason ?? 'unknown'}' by the ${c.by ?? 'target'}${c.detail ? `: ${c.detail}` : ''}`;
    case 'timeout':
      return `${what}: no acknowledgement within ${c.ackWindowMs} ms; the agent may be gone. Try again.`;
  }
}
