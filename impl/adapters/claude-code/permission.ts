/**
 * The Claude Code PermissionRequest loop: one held `attention.requested` per request (a
 * permission, or the AskUserQuestion form), the vendor reply once it settles, and the tool
 * call's terminal when the adapter itself kept the tool from running.
 *
 * - Allow: `{behavior:"allow"}`, plus `updatedInput` for the tools that need it
 *   (`ALLOW_NEEDS_UPDATED_INPUT`, replies.ts).
 * - Deny over control: Claude Code then fires no post-tool hook (seen on 2.1.197 in the TUI and
 *   in SDK mode), so the adapter emits the call's terminal itself: `tool.denied{by:"runtime"}`,
 *   cause-linked to the answer: the person's decision is the `attention.answered` before it, and
 *   the runtime enforcing it is the block (the reading the standard's Kimi pin gives a rejected
 *   permission decision; the Codex adapter does the same). The call is the oldest open
 *   PreToolUse call with the same tool name and canonical input.
 * - Held requests are filed under `toolCallKey` (tool + canonical input), so a PostToolUse of a
 *   parallel call of the same tool leaves them held (adapter.ts dismisses only the equal call).
 */
import type { Answer, FieldSpec, HookContext, HookInput, Settlement } from '../../adapter-kit/types.js';
import { str } from '../../adapter-kit/mapping.js';
import { permissionReply } from '../../adapter-kit/replies.js';
import { isPlainObject } from '../../core/event.js';
import { callOf, runFor, sessionState, subagentCause, toolCallKey } from './identity.js';
import { answersFor, questionsOf } from './map-ask-user-question.js';
import { PERMISSION_OPTIONS, mapPermissionRequest } from './map-hooks.js';
import { ALLOW_NEEDS_UPDATED_INPUT, NEUTRAL, allowWithInputReply, questionReply } from './replies.js';

/** `tool.denied{by:"runtime"}` for a call a remote deny kept from running (no post-tool hook will say so). */
function emitDeniedCall(ctx: HookContext, session: string, input: HookInput, tool: string, settlement: Settlement, run: string | undefined): void {
  if (settlement.kind !== 'option' || settlement.via !== 'control' || settlement.option !== 'deny') return;
  const state = sessionState(ctx, session);
  const call = callOf(state, tool, input.tool_input);
  if (call === undefined) return; // no tool.requested to close (PreToolUse not wired, or already terminal)
  state.calls.delete(call);
  const extra = { ...(run ? { run } : {}), ...(settlement.answered ? { cause: settlement.answered } : {}) };
  ctx.emit(session, { type: 'tool.denied', data: { tool: { name: tool, call_id: call }, by: 'runtime' }, subject: tool }, extra);
}

export async function onPermissionRequest(input: HookInput, session: string, ctx: HookContext): Promise<string> {
  const tool = str(input.tool_name) ?? 'unknown';
  const mapped = mapPermissionRequest(input, ctx.posture);
  const run = runFor(ctx, session, input);
  const key = toolCallKey(session, tool, input.tool_input);
  const cause = subagentCause(ctx, session, input);
  const from = { ...(run ? { run } : {}), ...(cause ? { cause } : {}) };
  if (tool !== 'AskUserQuestion') {
    const { settlement } = await ctx.hold({ session, ...from, mapped, options: PERMISSION_OPTIONS.map((o) => ({ ...o })), refusing: 'deny', key });
    emitDeniedCall(ctx, session, input, tool, settlement, run);
    const allowed = settlement.kind === 'option' && settlement.via === 'control' && settlement.option === 'allow';
    if (allowed && ALLOW_NEEDS_UPDATED_INPUT[tool] === 'echo') return allowWithInputReply(input.tool_input);
    return permissionReply(settlement, NEUTRAL);
  }
  const questions = questionsOf(input.tool_input);
  const fields = (mapped.data.fields ?? []) as FieldSpec[];
  // AEP-0006 degradation: a single-question call also takes a plain {option} (a choice id) or {text}.
  const legacyAnswer = (answer: Answer): Record<string, unknown> | null => {
    if (questions.length !== 1) return null;
    const value = answer.option ?? answer.text;
    return value === undefined || value.trim() === '' ? null : { '1': value };
  };
  const { settlement } = await ctx.hold({ session, ...from, mapped, fields, legacyAnswer, key });
  if (settlement.kind !== 'values' || settlement.via !== 'control') return NEUTRAL;
  return questionReply(isPlainObject(input.tool_input) ? input.tool_input.questions : [], answersFor(questions, settlement.values));
}
