/**
 * The exact stdout Kimi Code receives from a command hook (exit 0; JSON on stdout).
 *
 * - Neutral: `{}` on every event: no objection, no context (the design record's default posture).
 * - Gate deny: `hookSpecificOutput.permissionDecision:"deny"` with `permissionDecisionReason`;
 *   only the literal `deny` blocks, and only on PreToolUse, Stop and UserPromptSubmit.
 * - A gate allow is "no hook objection": the neutral reply; Kimi's own permission flow still runs.
 * - Steering: `{"message": <text>}` on a UserPromptSubmit reply, the one reply Kimi appends to the
 *   model's context.
 */
import { hookOutput } from '../../adapter-kit/replies.js';

export const NEUTRAL = '{}';

export function gateDenyReply(reason: string): string {
  return hookOutput({ permissionDecision: 'deny', permissionDecisionReason: reason });
}

export function steeringReply(_hookEvent: string, text: string): string {
  return JSON.stringify({ message: text });
}
