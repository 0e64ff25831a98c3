/**
 * The Codex adapter definition for the kit: identity mapping, the held PermissionRequest loop,
 * and the reply bytes.
 *
 * Identity: Codex's thread (`session_id`) is the AEP session and its `turn_id` is the AEP run,
 * taken verbatim (never minted). `UserPromptSubmit` opens the run, `Stop` closes it; a prompt
 * arriving while another turn is still open closes that turn as `run.cancelled{by:"user"}` first
 * (an interrupted turn fires no Stop: the interrupt drain).
 *
 * Held loop: PermissionRequest raises `attention.requested` (allow/deny) and holds the hook until
 * `control.attention.respond` answers it (AEP-0008 text rule: an option word is that option, other
 * text is a deny carrying the text as the decision message) or the attention timeout frees it with
 * the neutral (empty) reply, so Codex shows its own approval prompt. A PostToolUse for the same
 * tool while its request is pending dismisses it.
 *
 * Steering (opt-in): `additionalContext` on the five moments Codex documents. Codex has no
 * session-end hook, so queued steering is never dropped by a session end; it waits for the
 * session's next eligible moment (at the latest its next UserPromptSubmit).
 */
import type { HookContext, HookInput } from '../adapter-kit/types.js';
import { defineAdapter, dismissToolRequests, toolKey } from '../adapter-kit/define.js';
import { str } from '../adapter-kit/mapping.js';
import { permissionReply } from '../adapter-kit/replies.js';
import { AGENT, PERMISSION_OPTIONS, mapHook, mapPermissionRequest } from './map-hooks.js';
import { NEUTRAL } from './replies.js';

/** The moments whose `hookSpecificOutput.additionalContext` Codex feeds to the model. */
export const STEERABLE = new Set(['SessionStart', 'SubagentStart', 'PreToolUse', 'PostToolUse', 'UserPromptSubmit']);

async function handle(hookEvent: string, raw: HookInput, ctx: HookContext): Promise<string> {
  const input: HookInput = { ...raw, hook_event_name: hookEvent };
  const session = str(input.session_id);
  if (!session) return NEUTRAL;
  const turn = str(input.turn_id);
  const run = turn ?? ctx.run(session);
  switch (hookEvent) {
    case 'PermissionRequest': {
      const tool = str(input.tool_name) ?? 'unknown';
      const { settlement } = await ctx.hold({
        session,
        ...(run ? { run } : {}),
        mapped: mapPermissionRequest(input, ctx.posture),
        options: PERMISSION_OPTIONS.map((o) => ({ ...o })),
        refusing: 'deny',
        key: toolKey(session, tool),
      });
      return permissionReply(settlement, NEUTRAL);
    }
    case 'UserPromptSubmit': {
      const open = ctx.run(session);
      if (open && open !== turn) ctx.emit(session, { type: 'run.cancelled', data: { by: 'user' } }, { run: open });
      ctx.setRun(session, turn);
      break;
    }
    case 'PostToolUse':
      dismissToolRequests(input, session, ctx);
      break;
  }
  const mapped = mapHook(input, ctx.posture);
  if (mapped) {
    const runScoped = !mapped.type.startsWith('session.') && run !== undefined;
    ctx.emit(session, mapped, runScoped ? { run } : {});
  }
  if (hookEvent === 'Stop' && (turn === undefined || ctx.run(session) === turn)) ctx.setRun(session, null);
  return NEUTRAL;
}

export const adapter = defineAdapter({
  agent: AGENT,
  defaultPort: 8378,
  emits: ['session', 'run', 'tool', 'attention', 'delegation', 'control'],
  neutral: NEUTRAL,
  steerable: STEERABLE,
  handle,
});
