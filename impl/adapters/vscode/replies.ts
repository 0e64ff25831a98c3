/**
 * The exact stdout the VS Code agent receives from a command hook (exit 0, JSON on stdout).
 *
 * - Neutral: `{}`, no decision and no context; VS Code proceeds with its own approval settings.
 * - Gate deny: `hookSpecificOutput.permissionDecision:"deny"` with `permissionDecisionReason`
 *   (VS Code renders it in chat, where the model reads it).
 * - Gate ask: `permissionDecision:"ask"`, which escalates the call into VS Code's own user approval.
 * - A gate allow is "no hook objection": the neutral reply (the shared gate rule; nothing is minted).
 * - Steering: `hookSpecificOutput.additionalContext` (the kit's context reply).
 */
import { hookOutput } from '../../adapter-kit/replies.js';

export { contextReply } from '../../adapter-kit/replies.js';

export const NEUTRAL = '{}';

export function gateDenyReply(reason: string): string {
  return hookOutput({ hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason });
}

export function gateAskReply(): string {
  return hookOutput({ hookEventName: 'PreToolUse', permissionDecision: 'ask' });
}
