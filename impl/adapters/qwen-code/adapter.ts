/**
 * The Qwen Code adapter definition for the kit: synthesized runs, the held PermissionRequest
 * loop (on by default, the Claude Code loop), and opt-in steering.
 *
 * Identity: `session_id` is the AEP session. No turn id is documented, so one run is minted per
 * UserPromptSubmit and closed by Stop (`run.finished`) or StopFailure (`run.failed`), the terminal
 * cause-linked to its `run.started`; a run still open at the next prompt or at SessionEnd drains
 * as `run.cancelled`. `tool_use_id` pairs the tool events (it rides as `tool.call_id`).
 * Qwen Code 0.24.4 fires UserPromptSubmit again when it sends the tool results back to the model
 * (seen by the real-vendors lane: same `prompt_id`, empty `prompt`): a UserPromptSubmit whose
 * `prompt_id` is the open run's is that run continuing, and emits nothing.
 *
 * Held loop: PermissionRequest raises `attention.requested` (allow/deny, over control) and holds
 * the hook until `control.attention.respond` answers (AEP-0008: an option word is that option,
 * other text is a deny carrying the text as the decision message) or the attention timeout frees
 * it with `{}` (Qwen Code shows its own prompt). PostToolUse, PostToolUseFailure or
 * PermissionDenied for the same tool dismiss a pending request; SessionEnd dismisses every one.
 * A remote deny emits the call's `tool.denied{by:"runtime"}` (cause-linked to the answer), since
 * Qwen Code fires no hook for a call its PermissionRequest hook denied.
 *
 * Steering (opt-in, `AEP_INSTRUCT=1`): `additionalContext` on the seven moments Qwen Code
 * documents; SessionEnd drops what is still queued.
 */
import type { AdapterDef, HookContext, HookInput } from '../../adapter-kit/types.js';
import { defineAdapter, specFromDescriptor } from '../../adapter-kit/define.js';
import { dismissToolRequests, toolCallKey } from '../../adapter-kit/tool-calls.js';
import { str } from '../../adapter-kit/mapping.js';
import { permissionReply } from '../../adapter-kit/replies.js';
import { SynthesizedRuns } from '../../adapter-kit/synth-run.js';
import { AGENT, PERMISSION_OPTIONS, mapHook, mapPermissionRequest } from './map-hooks.js';
import { NEUTRAL } from './replies.js';
import { descriptor } from './descriptor.js';

/* The moments whose `hookSpecificOutput.additionalContext` Qwen Code feeds to the model, hello `capabilities.emits` and the port: read from the descriptor. */

/** The sixteen hooks of the standard's pin plus PermissionDenied (what settings.example.json registers). */
export const HOOKS = [
  'SessionStart', 'SessionEnd', 'UserPromptSubmit', 'Stop', 'StopFailure', 'PreToolUse', 'PostToolUse',
  'PostToolUseFailure', 'PermissionRequest', 'PermissionDenied', 'SubagentStart', 'SubagentStop',
  'PreCompact', 'PostCompact', 'Notification', 'TodoCreated', 'TodoCompleted',
] as const;

/** A fresh adapter instance (its own run table). */
export function createAdapter(): AdapterDef {
  const runs = new SynthesizedRuns();
  /** The `prompt_id` of each session's open run (a repeat of it continues the run). */
  const promptIds = new Map<string, string>();

  async function handle(hookEvent: string, raw: HookInput, ctx: HookContext): Promise<string> {
    const input: HookInput = { ...raw, hook_event_name: hookEvent };
    const session = str(input.session_id);
    if (!session) return NEUTRAL;
    switch (hookEvent) {
      case 'PermissionRequest': {
        const tool = str(input.tool_name) ?? 'unknown';
        const run = ctx.run(session);
        const { settlement } = await ctx.hold({
          session,
          ...(run ? { run } : {}),
          mapped: mapPermissionRequest(input, ctx.posture),
          options: PERMISSION_OPTIONS.map((o) => ({ ...o })),
          refusing: 'deny',
          key: toolCallKey(session, tool, input.tool_input),
        });
        // After a deny over control Qwen Code fires no PreToolUse, PostToolUse or PermissionDenied
        // (0.24.4, seen by the real-vendors lane): the adapter that denied records the call's end.
        if (settlement.kind === 'option' && settlement.via === 'control' && settlement.option === 'deny') {
          const extra = { ...(run ? { run } : {}), ...(settlement.answered ? { cause: settlement.answered } : {}) };
          ctx.emit(session, { type: 'tool.denied', data: { tool: { name: tool }, by: 'runtime' }, subject: tool }, extra);
        }
        return permissionReply(settlement, NEUTRAL);
      }
      case 'PostToolUse':
      case 'PostToolUseFailure':
      case 'PermissionDenied':
        dismissToolRequests(input, session, ctx);
        break;
    }
    const mapped = mapHook(input, ctx.posture);
    switch (hookEvent) {
      case 'UserPromptSubmit': {
        const promptId = str(input.prompt_id);
        if (promptId !== undefined && promptIds.get(session) === promptId && ctx.run(session) !== undefined) return NEUTRAL;
        if (promptId !== undefined) promptIds.set(session, promptId);
        else promptIds.delete(session);
        if (mapped) runs.open(ctx, session, mapped);
        return NEUTRAL;
      }
      case 'Stop':
      case 'StopFailure':
        promptIds.delete(session);
        if (mapped) runs.close(ctx, session, mapped);
        return NEUTRAL;
      case 'SessionEnd':
        promptIds.delete(session);
        for (const p of ctx.pending(session)) ctx.settle(p.id, { kind: 'dismissed' });
        runs.drain(ctx, session);
        ctx.dropSteering(session);
        if (mapped) ctx.emit(session, mapped);
        return NEUTRAL;
    }
    if (mapped) {
      const run = mapped.type.startsWith('session.') ? undefined : ctx.run(session);
      ctx.emit(session, mapped, run ? { run } : {});
    }
    return NEUTRAL;
  }

  return {
    ...defineAdapter({
      ...specFromDescriptor(descriptor),
      neutral: NEUTRAL,
      handle,
    }),
    configure: () => createAdapter(),
  };
}

export const adapter = createAdapter();
