/**
 * The exact stdout Claude Code receives from a hook (its documented hook output JSON).
 * Every builder returns the final bytes; tests pin them byte for byte. The allow/deny and
 * context replies are the kit's (`adapter-kit/replies.ts`); the form replies are Claude Code's own.
 */
import { hookOutput } from '../adapter-kit/replies.js';

export { DENY_MESSAGE, allowReply, contextReply, denyReply } from '../adapter-kit/replies.js';

/** No decision, no context: Claude Code proceeds as if unhooked (and shows its own dialogs). */
export const NEUTRAL = '{}';

/** An AskUserQuestion answer: allow with the tool input rewritten to carry the answers. */
export function questionReply(questions: unknown, answers: Record<string, string>): string {
  return hookOutput({ hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: { questions, answers } } });
}

/** An Elicitation accepted with its content. */
export function elicitationReply(content: Record<string, unknown>): string {
  return hookOutput({ hookEventName: 'Elicitation', action: 'accept', content });
}
