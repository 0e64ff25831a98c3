/**
 * The Claude Code adapter definition for the kit: identity mapping, the held loops and replies.
 *
 * Identity: `session_id` is the AEP session; `UserPromptSubmit` opens a run (one Claude Code turn),
 * `Stop`/`StopFailure` close it; a prompt arriving while a run is still open closes that run as
 * `run.cancelled{by:"user"}` first (an interrupted turn fires no Stop).
 *
 * Held loops: PermissionRequest (allow/deny, AEP-0008 text rule), AskUserQuestion (one form per
 * call, `updatedInput` reply), Elicitation (form, `{action:"accept", content}` reply). A PostToolUse
 * for the same tool while its request is pending dismisses it; an ElicitationResult while an
 * Elicitation of the same server is pending settles it as answered `via:"oob"`. SessionEnd
 * dismisses whatever is still pending and drops queued steering before `session.ended`.
 */
import type { Answer, HookContext, HookInput } from '../adapter-kit/types.js';
import { defineAdapter, dismissToolRequests, toolKey } from '../adapter-kit/define.js';
import { str } from '../adapter-kit/mapping.js';
import { permissionReply } from '../adapter-kit/replies.js';
import { isPlainObject } from '../core/event.js';
import { answersFor, questionsOf } from './map-ask-user-question.js';
import { AGENT, PERMISSION_OPTIONS, mapElicitationHook, mapHook, mapPermissionRequest } from './map-hooks.js';
import { NEUTRAL, elicitationReply, questionReply } from './replies.js';

/**
 * Moments whose `hookSpecificOutput.additionalContext` Claude Code feeds to the model. A
 * conservative subset of the vendor's context-accepting moments (documented in the README).
 */
export const STEERABLE = new Set(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'SubagentStart']);

async function onPermissionRequest(input: HookInput, session: string, ctx: HookContext): Promise<string> {
  const tool = str(input.tool_name) ?? 'unknown';
  const mapped = mapPermissionRequest(input, ctx.posture);
  if (tool !== 'AskUserQuestion') {
    const { settlement } = await ctx.hold({ session, mapped, options: PERMISSION_OPTIONS.map((o) => ({ ...o })), refusing: 'deny', key: toolKey(session, tool) });
    return permissionReply(settlement, NEUTRAL);
  }
  const questions = questionsOf(input.tool_input);
  const fields = (mapped.data.fields ?? []) as NonNullable<Parameters<HookContext['hold']>[0]['fields']>;
  // AEP-0006 degradation: a single-question call also takes a plain {option} (a choice id) or {text}.
  const legacyAnswer = (answer: Answer): Record<string, unknown> | null => {
    if (questions.length !== 1) return null;
    const value = answer.option ?? answer.text;
    return value === undefined || value.trim() === '' ? null : { '1': value };
  };
  const { settlement } = await ctx.hold({ session, mapped, fields, legacyAnswer, key: toolKey(session, tool) });
  if (settlement.kind !== 'values' || settlement.via !== 'control') return NEUTRAL;
  return questionReply(isPlainObject(input.tool_input) ? input.tool_input.questions : [], answersFor(questions, settlement.values));
}

async function onElicitation(input: HookInput, session: string, ctx: HookContext): Promise<string> {
  const mapped = mapElicitationHook(input, ctx.posture);
  if (!Array.isArray(mapped.data.fields)) {
    ctx.emit(session, mapped, { run: ctx.run(session) });
    return NEUTRAL;
  }
  const key = `elicitation:${session}:${str(input.mcp_server_name) ?? ''}`;
  const fields = mapped.data.fields as NonNullable<Parameters<HookContext['hold']>[0]['fields']>;
  const { settlement } = await ctx.hold({ session, mapped, fields, key });
  if (settlement.kind !== 'values' || settlement.via !== 'control') return NEUTRAL;
  return elicitationReply(settlement.values);
}

function onElicitationResult(input: HookInput, session: string, ctx: HookContext): void {
  const [pending] = ctx.pending(session, `elicitation:${session}:${str(input.mcp_server_name) ?? ''}`);
  if (!pending) return; // an orphan result emits nothing: one terminal per request
  const action = str(input.action);
  if (action === 'accept' && isPlainObject(input.content)) ctx.settle(pending.id, { kind: 'oob', answer: { values: input.content } });
  else if (action === 'decline') ctx.settle(pending.id, { kind: 'oob', answer: { option: 'decline' } });
  else ctx.settle(pending.id, { kind: 'dismissed' });
}

async function handle(hookEvent: string, raw: HookInput, ctx: HookContext): Promise<string> {
  const input: HookInput = { ...raw, hook_event_name: hookEvent };
  const session = str(input.session_id);
  if (!session) return NEUTRAL;
  switch (hookEvent) {
    case 'PermissionRequest':
      return onPermissionRequest(input, session, ctx);
    case 'Elicitation':
      return onElicitation(input, session, ctx);
    case 'ElicitationResult':
      onElicitationResult(input, session, ctx);
      return NEUTRAL;
    case 'UserPromptSubmit': {
      const open = ctx.run(session);
      if (open) ctx.emit(session, { type: 'run.cancelled', data: { by: 'user' } }, { run: open });
      ctx.setRun(session, undefined);
      break;
    }
    case 'PostToolUse':
    case 'PostToolUseFailure':
      dismissToolRequests(input, session, ctx);
      break;
    case 'SessionEnd':
      for (const p of ctx.pending(session)) ctx.settle(p.id, { kind: 'dismissed' });
      ctx.dropSteering(session);
      break;
  }
  const mapped = mapHook(input, ctx.posture);
  if (mapped) {
    const sessionLevel = mapped.type.startsWith('session.');
    const run = sessionLevel ? undefined : ctx.run(session);
    ctx.emit(session, mapped, run ? { run } : {});
  }
  if (hookEvent === 'Stop' || hookEvent === 'StopFailure' || hookEvent === 'SessionEnd') ctx.setRun(session, null);
  return NEUTRAL;
}

export const adapter = defineAdapter({
  agent: AGENT,
  defaultPort: 8377,
  emits: ['session', 'run', 'tool', 'attention', 'delegation', 'progress', 'agent', 'control'],
  neutral: NEUTRAL,
  steerable: STEERABLE,
  steeringCap: 10_000,
  handle,
});
