/**
 * The exact stdout Claude Code receives from a hook (its documented hook output JSON).
 * Every builder returns the final bytes; tests pin them byte for byte.
 */

/** No decision, no context: Claude Code proceeds as if unhooked (and shows its own dialogs). */
export const NEUTRAL = '{}';

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

/** An AskUserQuestion answer: allow with the tool input rewritten to carry the answers. */
export function questionReply(questions: unknown, answers: Record<string, string>): string {
  return out({ hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: { questions, answers } } });
}

/** An Elicitation accepted with its content. */
export function elicitationReply(content: Record<string, unknown>): string {
  return out({ hookEventName: 'Elicitation', action: 'accept', content });
}

/** Steering delivered as model-visible context on a context-accepting moment. */
export function contextReply(hookEventName: string, additionalContext: string): string {
  return out({ hookEventName, additionalContext });
}
