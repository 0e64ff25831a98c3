/**
 * The Kimi Code CLI adapter definition for the kit: read-only by default with the permission
 * pair observed out of band, the opt-in held PreToolUse gate, synthesized runs, and opt-in steering.
 *
 * Identity: `session_id` is the AEP session, `unknown` where absent (the subagent hooks carry
 * none). One run is minted per UserPromptSubmit (never for a steer submission) and closed by Stop,
 * StopFailure or Interrupt, the terminal cause-linked to its `run.started`; a run left open drains
 * as `run.cancelled` at the next prompt or at SessionEnd. `tool_call_id` pairs the tool trio and
 * the permission pair; `turn_id` never becomes the run id.
 *
 * The observed permission pair (every posture): PermissionRequest opens an `attention.requested`
 * card with `respond_via:["oob"]` and no options, cause-linked to the call's `tool.requested`, and
 * is answered at once (nothing is held: its reply carries no decision). PermissionResult closes
 * it: `attention.answered{via:"oob"}` + `attention.resolved{answered}`; a rejection also lands
 * `tool.denied{by:"runtime"}` cause-linked to the answer; `cancelled` resolves dismissed. A card
 * still open when its tool reports (PostToolUse/PostToolUseFailure) or the session ends is dismissed.
 * A call's `tool.denied` is its terminal: the PostToolUseFailure Kimi fires for a denied call emits
 * nothing more (a tool call has exactly one terminal, AEP-0002 §2).
 *
 * Gate (opt-in `AEP_KIMI_CONTROL=1`, scoped by `AEP_KIMI_GATE_TOOLS`): a matched PreToolUse is held
 * as an answerable binary allow/deny request (the control matrix and the design record; the vendor
 * surface has no ask tier) for 50 s by default, inside the 60 s timeout the config writer registers.
 * deny blocks with the reason and lands `tool.denied{by:"policy"}` cause-linked to the answer;
 * allow is "no hook objection"; a timeout frees the hook with no decision (fail open).
 *
 * Steering (opt-in `AEP_INSTRUCT=1`): `{message}` on the next UserPromptSubmit reply (the one
 * context-accepting reply), at most 4000 characters per text; SessionEnd drops leftovers.
 */
import type { AepEvent } from '../../core/event.js';
import type { AdapterDef, HookContext, HookInput } from '../../adapter-kit/types.js';
import { ALLOW_DENY_OPTIONS, str } from '../../adapter-kit/mapping.js';
import { defineAdapter } from '../../adapter-kit/define.js';
import { dismissGateRequests, gatedDef, gates, holdGate, type GateConfig } from '../../adapter-kit/gate.js';
import { ObservedCards, oobPermissionData } from '../../adapter-kit/observed-cards.js';
import { levelFor } from '../../adapter-kit/capture.js';
import { SynthesizedRuns } from '../../adapter-kit/synth-run.js';
import { AGENT, kimiToolRef, mapHook, permissionPrompt } from './map-hooks.js';
import { NEUTRAL, gateDenyReply, steeringReply } from './replies.js';
import { descriptor } from './descriptor.js';

/** The sixteen events of the pinned 0.28 surface (what the config writer registers). */
export const HOOKS = [
  'SessionStart', 'SessionEnd', 'UserPromptSubmit', 'Stop', 'StopFailure', 'Interrupt',
  'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'PermissionResult',
  'SubagentStart', 'SubagentStop', 'PreCompact', 'PostCompact', 'Notification',
] as const;

/** The gate's variables and window: 50 s by default, inside the 60 s PreToolUse timeout we register. */
export const GATE_VARS = { control: 'AEP_KIMI_CONTROL', tools: 'AEP_KIMI_GATE_TOOLS', defaultHoldMs: 50_000, vendorTimeoutMs: 60_000 } as const;

/** Kimi's cap on one steering text. */
export const STEERING_CAP = 4000;

const OFF: GateConfig = { enabled: false, tools: null, holdMs: GATE_VARS.defaultHoldMs };

type MappedEvent = { type: string; data: Record<string, unknown>; subject?: string };

/** Emit a mapped event on the open run (a `session.*` event rides the session), with its cause. */
function emitOnRun(ctx: HookContext, session: string, mapped: MappedEvent, cause?: string): AepEvent {
  const run = mapped.type.startsWith('session.') ? undefined : ctx.run(session);
  return ctx.emit(session, mapped, { ...(run ? { run } : {}), ...(cause ? { cause } : {}) });
}

/** The card key of a tool or permission moment: its call id, else its tool name. */
const cardKey = (input: HookInput): string => str(input.tool_call_id) ?? str(input.tool_name) ?? 'unknown';

/** The per-session key of a call. */
const callKey = (session: string, input: HookInput): string => `${session}\u0000${cardKey(input)}`;

/** The runtime half of one adapter instance: its run table, open oob cards, call links and gate. */
class KimiHooks {
  private readonly runs = new SynthesizedRuns();
  private readonly cards = new ObservedCards({ reopen: 'supersede' });
  /** The `tool.requested` id of each call, so its permission card can be cause-linked to it. */
  private readonly requested = new Map<string, string>();
  /** Calls that already reached their terminal as `tool.denied` (a tool call has exactly one terminal). */
  private readonly denied = new Set<string>();

  constructor(private readonly gate: GateConfig) {}

  /** One hook: the runtime moments by their own rules, every other mapped event on the open run. */
  async handle(hookEvent: string, raw: HookInput, ctx: HookContext): Promise<string> {
    const input: HookInput = { ...raw, hook_event_name: hookEvent };
    const session = str(input.session_id) ?? 'unknown';
    const mapped = mapHook(input, ctx.posture);
    if (!mapped) return NEUTRAL;
    switch (hookEvent) {
      case 'UserPromptSubmit':
        if (mapped.type === 'run.started') this.runs.open(ctx, session, mapped);
        else emitOnRun(ctx, session, mapped);
        return NEUTRAL;
      case 'Stop':
      case 'StopFailure':
      case 'Interrupt':
        this.runs.close(ctx, session, mapped);
        return NEUTRAL;
      case 'SessionEnd':
        this.cards.sweep(ctx, session);
        for (const p of ctx.pending(session)) ctx.settle(p.id, { kind: 'dismissed' });
        this.runs.drain(ctx, session);
        ctx.dropSteering(session);
        ctx.emit(session, mapped);
        return NEUTRAL;
      case 'PreToolUse':
        return this.preToolUse(session, input, mapped, ctx);
      case 'PostToolUse':
      case 'PostToolUseFailure':
        return this.toolEnd(session, input, mapped, ctx);
      case 'PermissionRequest': {
        const run = ctx.run(session);
        const cause = this.requested.get(callKey(session, input));
        this.cards.open(ctx, session, mapped, { key: cardKey(input), ...(run ? { run } : {}), ...(cause ? { cause } : {}) });
        return NEUTRAL;
      }
      case 'PermissionResult':
        if (mapped.type !== 'attention.answered' && mapped.type !== 'attention.resolved') break;
        return this.permissionResult(session, input, mapped, ctx);
    }
    emitOnRun(ctx, session, mapped);
    return NEUTRAL;
  }

  /** `tool.requested`, then (gate on and the tool matched) the held allow/deny request. */
  private async preToolUse(session: string, input: HookInput, mapped: MappedEvent, ctx: HookContext): Promise<string> {
    const event = emitOnRun(ctx, session, mapped);
    this.requested.set(callKey(session, input), event.id);
    const tool = kimiToolRef(input);
    if (!gates(this.gate, tool.name)) return NEUTRAL;
    const decision = await holdGate(ctx, {
      session,
      mapped: {
        type: 'attention.requested',
        data: { kind: 'permission', prompt: permissionPrompt(input, levelFor('attention.requested', ctx.posture)), options: ALLOW_DENY_OPTIONS.map((o) => ({ ...o })), respond_via: ['control'] },
        subject: tool.name,
      },
      options: ALLOW_DENY_OPTIONS.map((o) => ({ ...o })),
      tool,
      input: input.tool_input,
    });
    if (decision.kind !== 'deny') return NEUTRAL;
    this.denied.add(callKey(session, input));
    return gateDenyReply(decision.reason);
  }

  /** A tool's report: dismisses its open card and gate request; a denied call's failure emits nothing. */
  private toolEnd(session: string, input: HookInput, mapped: MappedEvent, ctx: HookContext): string {
    const open = this.cards.take(session, cardKey(input));
    if (open) this.cards.dismissed(ctx, open);
    dismissGateRequests(input, session, ctx);
    this.requested.delete(callKey(session, input));
    // The vendor reports a denied call's failure too; the denial already is that call's terminal.
    if (this.denied.delete(callKey(session, input))) return NEUTRAL;
    emitOnRun(ctx, session, mapped);
    return NEUTRAL;
  }

  /** PermissionResult closes its card: answered (a rejection also lands `tool.denied`) or dismissed. */
  private permissionResult(session: string, input: HookInput, mapped: MappedEvent, ctx: HookContext): string {
    const key = cardKey(input);
    // An orphan result (the daemon never saw the PermissionRequest, e.g. it started mid-prompt):
    // the vendor's prompt certainly opened, so its card is reconstructed (synthesized prompt)
    // before the answer, and every answer still follows the request it answers.
    const card = this.cards.take(session, key) ?? this.reconstruct(ctx, session, input, key);
    if (mapped.type === 'attention.resolved') {
      this.cards.dismissed(ctx, card);
      return NEUTRAL;
    }
    const answered = this.cards.answered(ctx, card, mapped.data);
    if (input.decision === 'rejected') {
      const tool = kimiToolRef(input);
      ctx.emit(session, { type: 'tool.denied', data: { tool, by: 'runtime' }, subject: tool.name }, { ...(card.run ? { run: card.run } : {}), cause: answered.id });
      this.denied.add(callKey(session, input));
    }
    return NEUTRAL;
  }

  /** Open (and take back) the card of a PermissionRequest the daemon never saw. */
  private reconstruct(ctx: HookContext, session: string, input: HookInput, key: string) {
    const run = ctx.run(session);
    const tool = str(input.tool_name) ?? 'unknown';
    const mapped = { type: 'attention.requested', data: oobPermissionData(`${AGENT} requests permission: ${tool}`), subject: tool };
    this.cards.open(ctx, session, mapped, { key, ...(run ? { run } : {}) });
    return this.cards.take(session, key)!;
  }
}

/** A fresh adapter instance: its own run table, open oob cards and gate configuration. */
export function createAdapter(gate: GateConfig = OFF): AdapterDef {
  const hooks = new KimiHooks(gate);
  return {
    ...defineAdapter({
      agent: AGENT,
      defaultPort: descriptor.port,
      emits: ['session', 'run', 'tool', 'attention', 'delegation', 'progress', 'control'],
      neutral: NEUTRAL,
      steerable: new Set(['UserPromptSubmit']),
      steeringCap: STEERING_CAP,
      handle: (hookEvent, raw, ctx) => hooks.handle(hookEvent, raw, ctx),
    }),
    steeringReply,
    ...gatedDef(gate, GATE_VARS, createAdapter),
  };
}

export const adapter = createAdapter();
