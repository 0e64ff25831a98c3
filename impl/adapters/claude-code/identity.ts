/**
 * Claude Code identity rules: what the adapter remembers per session (in the kit's `ctx.state`)
 * to give each event its session, run and cause, and to match hooks that carry no shared id.
 *
 * - Run: `UserPromptSubmit` opens a run named by the payload's `prompt_id` (Claude Code 2.1.196+;
 *   AEP-0001 §9: adapters pass vendor ids through verbatim), else a minted ULID. Other hooks join
 *   the open run; with none open, a hook's `prompt_id` names its run unless that run already
 *   reached its terminal (so a daemon restarted mid-turn still groups the turn correctly, and a
 *   MessageDisplay after Stop is not attached to a finished run).
 * - Tool calls: PreToolUse records each `tool_use_id` with the call's match key, so a
 *   PermissionRequest (which carries no `tool_use_id`) can be tied to its call by tool name and
 *   canonical input equality.
 * - Subagents: SubagentStart records `agent_id` → its `delegation.subagent.started` id; hooks
 *   from inside the subagent (payloads with that `agent_id`) are cause-linked to it.
 */
import { isPlainObject } from '../../core/event.js';
import { str } from '../../adapter-kit/mapping.js';
import { callMatch as inputMatch, toolCallKey as callKeyOf } from '../../adapter-kit/tool-calls.js';
import type { HookContext, HookInput } from '../../adapter-kit/types.js';

export interface OpenCall {
  tool: string;
  match: string;
}

export interface CcSession {
  /** `session.started` was emitted for this session (and no `session.ended` since). */
  started: boolean;
  /** Runs that reached their terminal. */
  closedRuns: Set<string>;
  /** Tool calls requested (PreToolUse) and not yet terminal, by `tool_use_id`, in order. */
  calls: Map<string, OpenCall>;
  /** Running subagents: `agent_id` → the `delegation.subagent.started` event id. */
  subagents: Map<string, string>;
}

export function sessionState(ctx: HookContext, session: string): CcSession {
  return ctx.state<CcSession>(session, () => ({ started: false, closedRuns: new Set(), calls: new Map(), subagents: new Map() }));
}

/** The run a (non session-level) hook belongs to, or undefined. */
export function runFor(ctx: HookContext, session: string, input: HookInput): string | undefined {
  const open = ctx.run(session);
  if (open) return open;
  const prompt = str(input.prompt_id);
  return prompt && !sessionState(ctx, session).closedRuns.has(prompt) ? prompt : undefined;
}

/** Close the session's open run (or `run`) as having reached its terminal. */
export function closeRun(ctx: HookContext, session: string, run: string | undefined): void {
  if (run) sessionState(ctx, session).closedRuns.add(run);
  if (run === undefined || ctx.run(session) === run) ctx.setRun(session, null);
}

/**
 * The part of a tool input two hooks of the same call agree on: the whole input, except for
 * AskUserQuestion, whose completed call carries the `answers` the person gave (only `questions`
 * identifies it).
 */
function matchPart(tool: string, toolInput: unknown): unknown {
  return tool === 'AskUserQuestion' && isPlainObject(toolInput) ? { questions: toolInput.questions } : toolInput;
}

/** The call's match: the kit's canonical JSON (RFC 8785 key order) of its identifying part. */
export function callMatch(tool: string, toolInput: unknown): string {
  return inputMatch(matchPart(tool, toolInput));
}

/** The key a held tool request is filed under: the kit's `toolCallKey` of the identifying part. */
export function toolCallKey(session: string, tool: string, toolInput: unknown): string {
  return callKeyOf(session, tool, matchPart(tool, toolInput));
}

/** The open call (oldest first) a PermissionRequest is about: same tool, same canonical input. */
export function callOf(state: CcSession, tool: string, toolInput: unknown): string | undefined {
  const match = callMatch(tool, toolInput);
  for (const [id, call] of state.calls) if (call.tool === tool && call.match === match) return id;
  return undefined;
}

/** The `delegation.subagent.started` id of the subagent a hook fired inside, if known. */
export function subagentCause(ctx: HookContext, session: string, input: HookInput): string | undefined {
  const agent = str(input.agent_id);
  return agent ? sessionState(ctx, session).subagents.get(agent) : undefined;
}
