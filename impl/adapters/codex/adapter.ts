/**
 * The Codex adapter definition for the kit: identity mapping, run bookkeeping, the held
 * PermissionRequest loop, and the reply bytes.
 *
 * Identity: Codex's thread (`session_id`) is the AEP session and its `turn_id` is the AEP run,
 * taken verbatim (never minted). One run per turn, one terminal per run:
 * - `UserPromptSubmit` opens the turn; a second prompt for the turn already open (input typed
 *   while it runs) opens nothing, and a subagent's prompt (`agent_id` set) touches no run.
 * - `Stop` closes it `run.finished`; `Interrupt` closes it at once `run.cancelled{by:"user"}`;
 *   `StopFailure` (not sent by Codex 0.171.0) closes it `run.failed{reason:"error"}`.
 * - The interrupt drain: a turn still open when the next prompt (another `turn_id`) or
 *   `SessionEnd` arrives ended without any of those hooks. Nothing in the payload says why (an
 *   API error ends a Codex turn with no hook; so does an interrupt whose hook is not wired or
 *   not trusted), so it closes `run.cancelled` with no `by`: it never claims the user did it.
 *
 * Held loop: PermissionRequest raises `attention.requested` (allow/deny) and holds the hook until
 * `control.attention.respond` answers it (AEP-0008 text rule) or the hold window (`holdMs`,
 * below) frees it with the neutral (empty) reply, so Codex shows its own approval prompt. A
 * PostToolUse of the same call (same tool, same `tool_input` but the request's added
 * `description`) while its request is pending dismisses it, never a parallel call's request; Interrupt and
 * SessionEnd dismiss every request of the session. After a remote deny Codex fires no post-tool
 * hook, so the adapter closes the denied call itself: `tool.denied{by:"runtime"}` (the runtime
 * enforced the human's answer), with the PreToolUse's tool name and `call_id`, cause-linked to the answer
 * (`attention.answered`). The call is found at the ask (ledger.ts `callFor`), also when the
 * request names another tool than the call (an `apply_patch` heredoc escalated through
 * `exec_command`: `Bash` at PreToolUse, `apply_patch` at PermissionRequest; the latter rides as
 * `requested_tool`).
 *
 * Steering (opt-in): `additionalContext` on the five moments Codex documents; queued steering is
 * dropped with an audit event at SessionEnd.
 */
import type { HookContext, HookInput, Mapped } from '../../adapter-kit/types.js';
import { defineAdapter, specFromDescriptor } from '../../adapter-kit/define.js';
import { dismissToolRequests, toolCallKey } from '../../adapter-kit/tool-calls.js';
import { str } from '../../adapter-kit/mapping.js';
import { permissionReply } from '../../adapter-kit/replies.js';
import { CodexLedger } from './ledger.js';
import { PERMISSION_OPTIONS, mapHook, mapPermissionRequest } from './map-hooks.js';
import { NEUTRAL } from './replies.js';
import { descriptor } from './descriptor.js';

/*
 * Facts read from the descriptor (descriptor.ts), not restated here: the moments whose
 * `hookSpecificOutput.additionalContext` Codex feeds to the model (`steering`), hello
 * `capabilities.emits`, the port, and the hold window (`holdMs`, 20 s). Codex runs
 * PermissionRequest before it shows its own approval prompt, so while a hook is held the person
 * at the terminal sees no prompt: the window is kept short, and `hooks.example.json` gives the
 * hook a 30 s timeout (the window plus the shim's 5 s slack, inside it).
 */

/**
 * The `tool_input` member Codex's PermissionRequest adds to the call's input (PreToolUse and
 * PostToolUse do not carry it): left out when a held request is paired with its call's PostToolUse.
 */
const NOT_IN_CALL = ['description'] as const;

/** One ledger per engine: the kit hands each engine's handler the same context object. */
const ledgers = new WeakMap<HookContext, CodexLedger>();
function ledgerOf(ctx: HookContext): CodexLedger {
  let ledger = ledgers.get(ctx);
  if (!ledger) ledgers.set(ctx, (ledger = new CodexLedger()));
  return ledger;
}

/** Emit a run terminal once per turn; clears the session's open run when it is that turn. */
function closeRun(ctx: HookContext, session: string, run: string, mapped: Mapped): void {
  if (ledgerOf(ctx).closeRun(session, run)) ctx.emit(session, mapped, { run });
  if (ctx.run(session) === run) ctx.setRun(session, null);
}

function dismissAll(ctx: HookContext, session: string): void {
  for (const p of ctx.pending(session)) ctx.settle(p.id, { kind: 'dismissed' });
}

async function onPermissionRequest(input: HookInput, session: string, run: string | undefined, ctx: HookContext): Promise<string> {
  const tool = str(input.tool_name) ?? 'unknown';
  const ledger = ledgerOf(ctx);
  // Paired at the ask, not at the answer: the call Codex is about to run is the one asked about.
  const call = ledger.callFor(session, tool, input.tool_input, run);
  const { request, settlement } = await ctx.hold({
    session,
    ...(run ? { run } : {}),
    mapped: mapPermissionRequest(input, ctx.posture),
    options: PERMISSION_OPTIONS.map((o) => ({ ...o })),
    refusing: 'deny',
    // Filed under the CALL's key, so the call's own PostToolUse (which names the call's tool and
    // input, e.g. `Bash` for an `apply_patch` request) dismisses it.
    key: call ? toolCallKey(session, call.tool, call.input, NOT_IN_CALL) : toolCallKey(session, tool, input.tool_input, NOT_IN_CALL),
  });
  if (settlement.kind === 'option' && settlement.option === 'deny') {
    if (!call || ledger.closeCall(session, call.id)) {
      // The terminal names the call as its tool.requested did (tool name and call_id), so a
      // consumer pairs it; the tool the request named rides as `requested_tool` when it differs.
      const ref: { name: string; call_id?: string } = call ? { name: call.tool, call_id: call.id } : { name: tool };
      const data: Record<string, unknown> = { tool: ref, by: 'runtime' };
      if (call && call.tool !== tool) data.requested_tool = tool;
      const on = call?.run ?? request.run;
      ctx.emit(session, { type: 'tool.denied', data, subject: ref.name }, { ...(on ? { run: on } : {}), cause: settlement.answered ?? request.id });
    }
  }
  return permissionReply(settlement, NEUTRAL);
}

async function handle(hookEvent: string, raw: HookInput, ctx: HookContext): Promise<string> {
  const input: HookInput = { ...raw, hook_event_name: hookEvent };
  const session = str(input.session_id);
  if (!session) return NEUTRAL;
  const ledger = ledgerOf(ctx);
  const turn = str(input.turn_id);
  const run = turn ?? ctx.run(session);
  const mapped = mapHook(input, ctx.posture);
  switch (hookEvent) {
    case 'PermissionRequest':
      return onPermissionRequest(input, session, run, ctx);
    case 'UserPromptSubmit': {
      if (!mapped) return NEUTRAL; // a subagent's prompt
      const open = ctx.run(session);
      if (turn !== undefined && (open === turn || ledger.runClosed(session, turn))) return NEUTRAL; // the turn is already known
      if (open) closeRun(ctx, session, open, { type: 'run.cancelled', data: {} });
      ctx.setRun(session, turn);
      break;
    }
    case 'Stop':
    case 'Interrupt':
    case 'StopFailure':
      if (hookEvent !== 'Stop') dismissAll(ctx, session);
      if (mapped && run !== undefined) closeRun(ctx, session, run, mapped);
      else if (mapped) ctx.emit(session, mapped); // no turn known: the terminal is all there is to say
      return NEUTRAL;
    case 'SessionEnd': {
      dismissAll(ctx, session);
      const open = ctx.run(session);
      if (open) closeRun(ctx, session, open, { type: 'run.cancelled', data: {} });
      ctx.dropSteering(session);
      ledger.endSession(session);
      break;
    }
    case 'PreToolUse': {
      const call = str(input.tool_use_id);
      if (!mapped) break;
      const sent = ctx.emit(session, mapped, run !== undefined ? { run } : {});
      if (call) ledger.openCall(session, { id: call, tool: str(input.tool_name) ?? 'unknown', input: input.tool_input, requested: sent.id, ...(run ? { run } : {}) });
      return NEUTRAL;
    }
    case 'PostToolUse': {
      dismissToolRequests(input, session, ctx, NOT_IN_CALL);
      const call = str(input.tool_use_id);
      const requested = call ? ledger.openCallOf(session, call)?.requested : undefined;
      if (call && !ledger.closeCall(session, call)) return NEUTRAL; // already terminal (denied): one terminal per call
      if (mapped) ctx.emit(session, mapped, { ...(run !== undefined ? { run } : {}), ...(requested ? { cause: requested } : {}) });
      return NEUTRAL;
    }
  }
  if (mapped) {
    const runScoped = !mapped.type.startsWith('session.') && run !== undefined;
    ctx.emit(session, mapped, runScoped ? { run } : {});
  }
  return NEUTRAL;
}

export const adapter = defineAdapter({
  ...specFromDescriptor(descriptor),
  neutral: NEUTRAL,
  handle,
});
