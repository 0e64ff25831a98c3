/**
 * The exact stdout Claude Code receives from a hook (its documented hook output JSON).
 * Every builder returns the final bytes; tests pin them byte for byte. The allow/deny and
 * context replies are the kit's (`adapter-kit/replies.ts`); the form replies are Claude Code's own.
 */
import { hookOutput } from '../../adapter-kit/replies.js';

export { DENY_MESSAGE, allowReply, contextReply, denyReply } from '../../adapter-kit/replies.js';

/** No decision, no context: Claude Code proceeds as if unhooked (and shows its own dialogs). */
export const NEUTRAL = '{}';

/**
 * Tools whose PermissionRequest `allow` Claude Code applies only when it carries
 * `decision.updatedInput` (the tool's whole input), and what the adapter puts there:
 * - `ExitPlanMode`: since Claude Code 2.1.200 an allow without `updatedInput` is discarded and
 *   the vendor shows its own plan dialog again (the hooks reference: "AskUserQuestion/ExitPlanMode
 *   need allow + updatedInput"; reported downstream as backnotprop/plannotator#995). The adapter
 *   echoes the plan's `tool_input` back unchanged: approving is not editing.
 * - `AskUserQuestion`: the answers travel in `updatedInput` (`{questions, answers}`); a form, so
 *   its reply is `questionReply`, built from the form's values.
 */
export const ALLOW_NEEDS_UPDATED_INPUT: Readonly<Record<string, 'echo' | 'answers'>> = Object.freeze({
  ExitPlanMode: 'echo',
  AskUserQuestion: 'answers',
});

/** A PermissionRequest allow that carries the tool input back (`ALLOW_NEEDS_UPDATED_INPUT` "echo"). */
export function allowWithInputReply(toolInput: unknown): string {
  return hookOutput({ hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: toolInput ?? {} } });
}

/** An AskUserQuestion answer: allow with the tool input rewritten to carry the answers. */
export function questionReply(questions: unknown, answers: Record<string, string>): string {
  return hookOutput({ hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: { questions, answers } } });
}

/** An Elicitation accepted with its content. */
export function elicitationReply(content: Record<string, unknown>): string {
  return hookOutput({ hookEventName: 'Elicitation', action: 'accept', content });
}
