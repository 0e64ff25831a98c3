/**
 * The Gemini CLI adapter definition for the kit: observe-only (the hello carries no `control`
 * block, commands are never accepted, `AEP_INSTRUCT` is ignored), identity, and synthesized runs.
 *
 * Identity: `session_id` is the AEP session. Gemini exposes no turn id, so the adapter mints one
 * run per BeforeAgent and closes it at AfterAgent with `run.finished` cause-linked to its
 * `run.started`. A BeforeAgent arriving while a run is still open (AfterAgent never fired) drains
 * that run as `run.cancelled` first; SessionEnd drains one the same way. Tool, model-plane,
 * compaction and notification events ride the open run when there is one.
 *
 * Tool calls: Gemini CLI names no call, and several calls of one turn may finish in another order
 * than they were asked. BeforeTool mints a `call_id` (`call_<ULID>`) on `tool.requested`; the
 * AfterTool of the same session, `tool_name` and canonical `tool_input` (first in, first out)
 * carries it on its `tool.completed` / `tool.failed`, with `cause` = the request's id
 * (tool-pairs.ts). An AfterTool with no such BeforeTool (BeforeTool not wired) stays unpaired.
 *
 * AfterModel fires once per streamed chunk: it is emitted at severity `debug`, and the example
 * settings leave it unregistered.
 *
 * Why observe-only: no Gemini hook is a human-in-the-loop moment this adapter could answer
 * (Notification can neither grant nor deny), so claiming control would be a lie. The vendor's
 * context-injection surfaces (BeforeAgent/AfterTool `additionalContext`) are deliberately unused.
 */
import type { AdapterDef, HookContext, HookInput } from '../../adapter-kit/types.js';
import { defineAdapter, specFromDescriptor } from '../../adapter-kit/define.js';
import { str } from '../../adapter-kit/mapping.js';
import { SynthesizedRuns } from '../../adapter-kit/synth-run.js';
import { ulid } from '../../core/ulid.js';
import { isPlainObject } from '../../core/event.js';
import type { Mapped } from '../../adapter-kit/types.js';
import { ToolPairs } from './tool-pairs.js';
import { AGENT, mapHook } from './map-hooks.js';
import { NEUTRAL } from './replies.js';
import { descriptor } from './descriptor.js';

/** Every hook the adapter maps by name (the example settings register all but AfterModel). */
export const HOOKS = [
  'SessionStart', 'SessionEnd', 'BeforeAgent', 'AfterAgent', 'BeforeTool', 'AfterTool',
  'BeforeModel', 'AfterModel', 'BeforeToolSelection', 'PreCompress', 'Notification',
] as const;

/** A fresh adapter instance (its own run table). */
export function createAdapter(): AdapterDef {
  const runs = new SynthesizedRuns();
  /** Sessions whose SessionEnd was seen since their last SessionStart (a repeat emits nothing). */
  const ended = new Set<string>();
  /** BeforeTool ↔ AfterTool (tool-pairs.ts): minted call ids, request ids for the terminals' cause. */
  const calls = new ToolPairs(() => `call_${ulid()}`);

  const withCallId = (mapped: Mapped, callId: string): Mapped => {
    const tool = isPlainObject(mapped.data.tool) ? mapped.data.tool : {};
    return { ...mapped, data: { ...mapped.data, tool: { ...tool, call_id: callId } } };
  };

  async function handle(hookEvent: string, raw: HookInput, ctx: HookContext): Promise<string> {
    const input: HookInput = { ...raw, hook_event_name: hookEvent };
    const session = str(input.session_id);
    if (!session) return NEUTRAL;
    const mapped = mapHook(input, ctx.posture);
    if (!mapped) return NEUTRAL;
    switch (hookEvent) {
      case 'BeforeAgent':
        runs.open(ctx, session, mapped);
        return NEUTRAL;
      case 'AfterAgent':
        runs.close(ctx, session, mapped);
        return NEUTRAL;
      case 'SessionEnd':
        // Gemini CLI has fired SessionEnd twice in non-interactive runs (a vendor bug, since fixed):
        // one session has one end, so a repeat emits nothing.
        if (ended.has(session)) return NEUTRAL;
        ended.add(session);
        runs.drain(ctx, session);
        calls.endSession(session);
        ctx.emit(session, mapped);
        return NEUTRAL;
      case 'SessionStart':
        ended.delete(session);
        break;
      case 'BeforeTool': {
        const run = ctx.run(session);
        const callId = calls.newCallId();
        const sent = ctx.emit(session, withCallId(mapped, callId), run ? { run } : {});
        calls.opened(session, str(input.tool_name) ?? 'unknown', input.tool_input, { callId, requested: sent.id });
        return NEUTRAL;
      }
      case 'AfterTool': {
        const run = ctx.run(session);
        const call = calls.take(session, str(input.tool_name) ?? 'unknown', input.tool_input);
        ctx.emit(session, call ? withCallId(mapped, call.callId) : mapped, { ...(run ? { run } : {}), ...(call ? { cause: call.requested } : {}) });
        return NEUTRAL;
      }
    }
    const run = mapped.type.startsWith('session.') ? undefined : ctx.run(session);
    ctx.emit(session, mapped, { ...(run ? { run } : {}), ...(hookEvent === 'AfterModel' ? { severity: 'debug' as const } : {}) });
    return NEUTRAL;
  }

  return {
    ...defineAdapter({
      ...specFromDescriptor(descriptor),
      neutral: NEUTRAL,
      handle,
    }),
    accepts: [],
    observeOnly: true,
    configure: () => createAdapter(),
  };
}

export const adapter = createAdapter();
