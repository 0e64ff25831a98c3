/**
 * The VS Code agent adapter definition for the kit: read-only by default, the opt-in held
 * PreToolUse gate, synthesized runs, and opt-in steering.
 *
 * Identity: `session_id` (or the Local harness's `sessionId`) is the AEP session; it is optional on
 * this surface, and a hook without one lands on the `unknown` session. No turn id exists: one run is
 * minted per UserPromptSubmit and closed by Stop with `run.finished` cause-linked to its
 * `run.started`; a run still open at the next prompt drains as `run.cancelled`. No session end
 * exists, so a run open when VS Code closes stays open (stated, not papered over).
 *
 * Gate (opt-in `AEP_VSCODE_CONTROL=1`, scoped by `AEP_VSCODE_GATE_TOOLS`): a matched PreToolUse is
 * held as `attention.requested` with the vendor's three decisions, allow / deny / ask, for the
 * hold window (default 25 s, always at least 5 s inside VS Code's 30 s hook timeout). deny blocks
 * with the reason (the guidance text, AEP-0008) and lands `tool.denied{by:"policy"}` cause-linked
 * to the answer; ask escalates to VS Code's own approval; allow and the timeout free the hook with
 * no decision (fail open). Gate off, the hello declares `control.accepts: []`.
 *
 * Steering (opt-in `AEP_INSTRUCT=1`): `additionalContext` on SessionStart, UserPromptSubmit,
 * SubagentStart, PreToolUse and PostToolUse (PreCompact has no output surface); a held gate reply
 * carries the decision, never steering; no session end exists, so nothing is ever dropped.
 */
import type { AdapterDef, HookContext, HookInput } from '../../adapter-kit/types.js';
import { defineAdapter } from '../../adapter-kit/define.js';
import { dismissGateRequests, gatedDef, gates, holdGate, type GateConfig } from '../../adapter-kit/gate.js';
import { str, toolRef } from '../../adapter-kit/mapping.js';
import { SynthesizedRuns } from '../../adapter-kit/synth-run.js';
import { AGENT, GATE_OPTIONS, mapGateRequest, mapHook, sessionOf } from './map-hooks.js';
import { NEUTRAL, contextReply, gateAskReply, gateDenyReply } from './replies.js';
import { descriptor } from './descriptor.js';

/** The moments whose `additionalContext` VS Code feeds to the model. */
export const STEERABLE = new Set(['SessionStart', 'UserPromptSubmit', 'SubagentStart', 'PreToolUse', 'PostToolUse']);

/** The eight events of the VS Code Local harness (what hooks.example.json registers). */
export const HOOKS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PreCompact', 'SubagentStart', 'SubagentStop', 'Stop'] as const;

/** The gate's variables and window: 25 s by default, never closer than 5 s to the 30 s hook timeout. */
export const GATE_VARS = { control: 'AEP_VSCODE_CONTROL', tools: 'AEP_VSCODE_GATE_TOOLS', defaultHoldMs: 25_000, vendorTimeoutMs: 30_000 } as const;

const OFF: GateConfig = { enabled: false, tools: null, holdMs: GATE_VARS.defaultHoldMs };

/** A fresh adapter instance with its own run table and gate configuration. */
export function createAdapter(gate: GateConfig = OFF): AdapterDef {
  const runs = new SynthesizedRuns();

  async function handle(hookEvent: string, raw: HookInput, ctx: HookContext): Promise<string> {
    const input: HookInput = { ...raw, hook_event_name: hookEvent };
    const session = sessionOf(raw);
    const mapped = mapHook(input, ctx.posture);
    if (!mapped) return NEUTRAL;
    switch (hookEvent) {
      case 'UserPromptSubmit':
        runs.open(ctx, session, mapped);
        return steer(ctx, session, hookEvent);
      case 'Stop':
        for (const p of ctx.pending(session)) ctx.settle(p.id, { kind: 'dismissed' });
        runs.close(ctx, session, mapped);
        return NEUTRAL;
      case 'PostToolUse':
        dismissGateRequests(input, session, ctx);
        break;
    }
    const run = mapped.type.startsWith('session.') ? undefined : ctx.run(session);
    ctx.emit(session, mapped, run ? { run } : {});
    const tool = str(input.tool_name) ?? 'unknown';
    if (hookEvent === 'PreToolUse' && gates(gate, tool)) {
      const decision = await holdGate(ctx, { session, mapped: mapGateRequest(input, ctx.posture), options: GATE_OPTIONS.map((o) => ({ ...o })), tool: toolRef(input), input: input.tool_input });
      if (decision.kind === 'deny') return gateDenyReply(decision.reason);
      if (decision.kind === 'other') return gateAskReply();
      return NEUTRAL;
    }
    return steer(ctx, session, hookEvent);
  }

  /** Queued steering on a steerable moment's otherwise neutral reply (the session may be `unknown`). */
  function steer(ctx: HookContext, session: string, hookEvent: string): string {
    if (!STEERABLE.has(hookEvent)) return NEUTRAL;
    const text = ctx.takeSteering(session);
    return text === null ? NEUTRAL : contextReply(hookEvent, text);
  }

  return {
    ...defineAdapter({
      agent: AGENT,
      defaultPort: descriptor.port,
      emits: ['session', 'run', 'tool', 'delegation', 'control', ...(gate.enabled ? ['attention'] : [])],
      neutral: NEUTRAL,
      // Steering is attached in `handle` (sessions may arrive as `sessionId` or not at all).
      steerable: new Set(),
      handle,
    }),
    ...gatedDef(gate, GATE_VARS, createAdapter),
  };
}

export const adapter = createAdapter();
