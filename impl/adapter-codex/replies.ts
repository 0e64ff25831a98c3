/**
 * The exact stdout Codex receives from a command hook. Every builder returns the final bytes;
 * tests pin them byte for byte.
 *
 * Codex reads a hook's stdout as JSON when there is any; empty stdout with exit 0 is "no
 * opinion", so the neutral reply is the empty string: Codex proceeds as if unhooked and, for
 * a PermissionRequest, shows its own approval prompt.
 */

/** No decision, no context. */
export const NEUTRAL = '';

/** The canned message of a plain deny (no guidance text). */
export const DENY_MESSAGE = 'Denied via AEP attention loop';

const out = (hookSpecificOutput: Record<string, unknown>): string => JSON.stringify({ hookSpecificOutput });

/** A PermissionRequest allow. */
export function allowReply(): string {
  return out({ hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } });
}

/** A PermissionRequest deny; the message is the guidance text when there is one. */
export function denyReply(message?: string): string {
  return out({ hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: message ?? DENY_MESSAGE } });
}

/** Steering delivered as model-visible context on one of the five context-accepting moments. */
export function contextReply(hookEventName: string, additionalContext: string): string {
  return out({ hookEventName, additionalContext });
}
