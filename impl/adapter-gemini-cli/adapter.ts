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
 * AfterModel fires once per streamed chunk: it is emitted at severity `debug`, and the example
 * settings leave it unregistered.
 *
 * Why observe-only: no Gemini hook is a human-in-the-loop moment this adapter could answer
 * (Notification can neither grant nor deny), so claiming control would be a lie. The vendor's
 * context-injection surfaces (BeforeAgent/AfterTool `additionalContext`) are deliberately unused.
 */
import type { AdapterDef, HookContext, HookInput } from '../adapter-kit/types.js';
import { defineAdapter } from '../adapter-kit/define.js';
import { str } from '../adapter-kit/mapping.js';
import { SynthesizedRuns } from '../adapter-kit/synth-run.js';
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
        ctx.emit(session, mapped);
        return NEUTRAL;
      case 'SessionStart':
        ended.delete(session);
        break;
    }
    const run = mapped.type.startsWith('session.') ? undefined : ctx.run(session);
    ctx.emit(session, mapped, { ...(run ? { run } : {}), ...(hookEvent === 'AfterModel' ? { severity: 'debug' as const } : {}) });
    return NEUTRAL;
  }

  return {
    ...defineAdapter({
      agent: AGENT,
      defaultPort: descriptor.port,
      emits: ['session', 'run', 'tool', 'progress'],
      neutral: NEUTRAL,
      steerable: new Set(),
      handle,
    }),
    accepts: [],
    observeOnly: true,
    configure: () => createAdapter(),
  };
}

export const adapter = createAdapter();
