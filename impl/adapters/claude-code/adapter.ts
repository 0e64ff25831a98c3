/**
 * The Claude Code adapter definition for the kit: identity rules, the held loops and replies.
 *
 * Identity (identity.ts): `session_id` is the AEP session. `UserPromptSubmit` opens a run (one
 * Claude Code turn) named by its `prompt_id`; `Stop`/`StopFailure` close it. A prompt arriving
 * while a run is still open:
 * - typed by a person (`source` absent, `user` or `sdk`): the open run closes first as
 *   `run.cancelled{by:"user"}` (an interrupted turn fires no Stop, and the payload says no more);
 * - injected by Claude Code itself (`schedule_wakeup`, `loop_wakeup`, `poll_event`, `system`:
 *   scheduled tasks, background-subagent reports): it joins the open run, which nothing ended,
 *   and is recorded as `x.claude-code.session.user_prompt_submit` with its `trigger`.
 *   What the payload cannot tell (a person interrupted, then a wake-up arrived) is documented.
 * A second Stop for a run already closed (a Stop hook that blocked, then the turn went on) emits
 * no second terminal. SessionEnd with a run still open closes it `run.cancelled` (`by:"user"`
 * for the person's own exits, else `by:"shutdown"`).
 *
 * SessionStart: `session.started` once per session; for a session already open (`source`
 * `compact`, `resume`, `clear` re-fire it) the adapter emits `x.claude-code.session.session_start`
 * with the `trigger` instead: AEP-0002 §4.1 `session.started` means a session began, and this
 * one did not (the compaction itself is `session.compacted`, at PostCompact). The same holds for a
 * session resumed after it ended (`claude --resume` keeps the id): its events continue the same
 * AEP session, and its second SessionEnd is `x.claude-code.session.session_end`, because
 * `session.ended` is a session's single terminal. Only sessions this daemon saw end are known:
 * after a daemon restart a resumed session opens with `session.started` again.
 *
 * Subagents: SubagentStart/SubagentStop map to the delegation pair; the stop is cause-linked to
 * its start, and hooks fired inside a subagent (their payload carries its `agent_id`), held
 * requests included, are cause-linked to its `delegation.subagent.started`. An internal agent's
 * stop (`agent_type: ""`, no SubagentStart) emits nothing; a named subagent's stop is emitted even
 * when its start predates this daemon (a restart), just without the cause link.
 *
 * Held loops: permission.ts (PermissionRequest), elicitation.ts (Elicitation/ElicitationResult).
 * A PostToolUse/PostToolUseFailure/PermissionDenied dismisses only the held request of the same
 * call (tool name and canonical input equal). Session end closes whatever is still open (the kit).
 */
import type { HookContext, HookInput, Mapped } from '../../adapter-kit/types.js';
import { defineAdapter, specFromDescriptor } from '../../adapter-kit/define.js';
import { dismissCallRequest } from '../../adapter-kit/tool-calls.js';
import { mapUnknownHook, put, str } from '../../adapter-kit/mapping.js';
import { onElicitation, onElicitationResult } from './elicitation.js';
import { callMatch, closeRun, runFor, sessionState, subagentCause, toolCallKey } from './identity.js';
import { AGENT, mapHook } from './map-hooks.js';
import { onPermissionRequest } from './permission.js';
import { NEUTRAL } from './replies.js';
import { descriptor } from './descriptor.js';

/*
 * The moments whose `hookSpecificOutput.additionalContext` Claude Code feeds to the model (a
 * conservative subset of the vendor's context-accepting moments, documented in the README), hello
 * `capabilities.emits` and the port are read from the descriptor (`steering`, `emits`, `port`).
 */

/** UserPromptSubmit sources that mean a person (or the SDK host on their behalf) sent the prompt. */
const PERSON_SOURCES = new Set(['user', 'sdk']);
/** SessionEnd reasons that are the person's own exit. */
const PERSON_EXITS = new Set(['clear', 'logout', 'prompt_input_exit', 'resume']);

function onPrompt(input: HookInput, session: string, ctx: HookContext): boolean {
  const open = ctx.run(session);
  const source = str(input.source);
  if (open && source !== undefined && !PERSON_SOURCES.has(source)) return false; // joins the open run
  if (open) {
    ctx.emit(session, { type: 'run.cancelled', data: { by: 'user' } }, { run: open });
    closeRun(ctx, session, open);
  }
  const prompt = str(input.prompt_id);
  const state = sessionState(ctx, session);
  ctx.setRun(session, prompt && !state.closedRuns.has(prompt) ? prompt : undefined);
  return true;
}

/** A tool call reached its terminal: forget it, and dismiss the held request of that very call. */
function onToolTerminal(input: HookInput, session: string, ctx: HookContext): void {
  const tool = str(input.tool_name) ?? 'unknown';
  const call = str(input.tool_use_id);
  if (call) sessionState(ctx, session).calls.delete(call);
  dismissCallRequest(ctx, session, toolCallKey(session, tool, input.tool_input));
}

async function handle(hookEvent: string, raw: HookInput, ctx: HookContext): Promise<string> {
  const input: HookInput = { ...raw, hook_event_name: hookEvent };
  const session = str(input.session_id);
  if (!session) return NEUTRAL;
  const state = sessionState(ctx, session);
  // The held loops map their own hook: nothing is mapped here first and thrown away.
  if (hookEvent === 'PermissionRequest') return onPermissionRequest(input, session, ctx);
  if (hookEvent === 'Elicitation') return onElicitation(input, session, ctx);
  if (hookEvent === 'ElicitationResult') {
    onElicitationResult(input, session, ctx);
    return NEUTRAL;
  }
  let mapped: Mapped | null = mapHook(input, ctx.posture);
  let cause = subagentCause(ctx, session, input);
  switch (hookEvent) {
    case 'SessionStart':
      if ((state.started || ctx.ended(session)) && mapped) {
        mapped = { type: mapUnknownHook('SessionStart', AGENT).type, data: triggerOf(mapped) };
        state.started = true;
      }
      break;
    case 'UserPromptSubmit':
      // A prompt that joins the open run is recorded as the vendor moment, not as a second run.started.
      if (!onPrompt(input, session, ctx) && mapped) mapped = { type: mapUnknownHook('UserPromptSubmit', AGENT).type, data: triggerOf(mapped) };
      break;
    case 'Stop':
    case 'StopFailure': {
      // The terminal of a turn already closed (a second Stop, or a late one for a cancelled turn) is on record.
      const prompt = str(input.prompt_id);
      if (prompt !== undefined && state.closedRuns.has(prompt)) mapped = null;
      break;
    }
    case 'PreToolUse': {
      const call = str(input.tool_use_id);
      const tool = str(input.tool_name) ?? 'unknown';
      if (call) state.calls.set(call, { tool, match: callMatch(tool, input.tool_input) });
      break;
    }
    case 'PostToolUse':
    case 'PostToolUseFailure':
    case 'PermissionDenied':
      onToolTerminal(input, session, ctx);
      break;
    case 'SubagentStop': {
      const agent = str(input.agent_id);
      cause = agent ? state.subagents.get(agent) : undefined;
      if (agent) state.subagents.delete(agent);
      break;
    }
    case 'SessionEnd': {
      // Close what the session leaves open, in order: its requests, its run (the kit would
      // dismiss the requests at session.ended anyway, but after the run's terminal).
      for (const p of ctx.pending(session)) ctx.settle(p.id, { kind: 'dismissed' });
      const open = ctx.run(session);
      if (open) {
        ctx.emit(session, { type: 'run.cancelled', data: { by: PERSON_EXITS.has(str(input.reason) ?? '') ? 'user' : 'shutdown' } }, { run: open });
        closeRun(ctx, session, open);
      }
      if (ctx.ended(session) && mapped) {
        // A resumed session ending again: its single terminal is already on record.
        ctx.dropSteering(session);
        mapped = { type: mapUnknownHook('SessionEnd', AGENT).type, data: mapped.data };
      }
      break;
    }
  }
  if (mapped) {
    const run = mapped.type.startsWith('session.') ? undefined : runFor(ctx, session, input);
    const event = ctx.emit(session, mapped, { ...(run ? { run } : {}), ...(cause ? { cause } : {}) });
    if (mapped.type === 'session.started') state.started = true;
    if (mapped.type === 'delegation.subagent.started' && event.subject) state.subagents.set(event.subject, event.id);
    if (mapped.type.startsWith('run.') && mapped.type !== 'run.started') closeRun(ctx, session, run);
  }
  return NEUTRAL;
}

/** The structural data kept when a start moment is recorded as its vendor extension: trigger and model. */
function triggerOf(mapped: Mapped): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  put(data, 'trigger', mapped.data.trigger);
  put(data, 'gen_ai.request.model', mapped.data['gen_ai.request.model']);
  return data;
}

export const adapter = defineAdapter({
  ...specFromDescriptor(descriptor),
  neutral: NEUTRAL,
  steeringCap: 10_000,
  handle,
});
