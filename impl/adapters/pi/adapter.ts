/**
 * The pi adapter definition for the kit (daemon port: its descriptor's). The vendor-side half is
 * `pi-extension.js`, an extension factory loaded by explicit path (settings `extensions`, or `-e`).
 *
 * Wire (extension → daemon): `POST /hook/<pi event name>`, body `{session, event, deltas?}`:
 * the session id read in-process (`ctx.sessionManager.getSessionId()`), the bus event with its
 * name as `event.type`, and `deltas: true` on the stream updates the extension forwards only under
 * its `AEP_PI_DELTAS=1` opt-in; `session_start` also carries `session_file`. Replies: `{}`,
 * except a settled gate: `{"block":true,"reason":…}`.
 *
 * Identity: one run per agent loop (`agent_start` opens it, `agent_end` closes it by the last
 * assistant `stopReason`; an `agent_end` with no assistant message and no open run is dropped); turns are steps (`step` = the `turnIndex`); `toolCallId` pairs the tools.
 *
 * The opt-in gate (`AEP_PI_CONTROL=1` on both sides): the extension registers the blockable
 * `tool_call` and forwards it held; the daemon raises `attention.requested` (allow/deny) and
 * declares `control.attention.respond`. Allow, a timeout and any failure answer `{}` (the tool
 * runs; pi's own checks still apply); deny answers `{"block":true,"reason":…}` (the operator's text
 * or the default). The blocked call's own `tool_execution_end` (isError) stays the pinned
 * `tool.failed`, cause-linked to the request. Gate off, a `tool_call` POST is answered `{}` at once
 * and hello declares `accepts: []`.
 */
import { defineAdapter } from '../../adapter-kit/define.js';
import { configureFrom, type Env } from '../../adapter-kit/configure.js';
import { str } from '../../adapter-kit/mapping.js';
import { DENY_MESSAGE } from '../../adapter-kit/replies.js';
import { isPlainObject } from '../../core/event.js';
import type { AdapterDef, HookContext, HookInput, Mapped } from '../../adapter-kit/types.js';
import { AGENT, eventSeverity, lastAssistant, mapEvent, mapToolGate } from './map-events.js';
import { descriptor } from './descriptor.js';

export const DEFAULT_PORT = descriptor.port;
export const NEUTRAL = '{}';

/** The gate's reply: a block only for a deny answered over control. */
export function gateReply(settlement: Awaited<ReturnType<HookContext['hold']>>['settlement']): string {
  if (settlement.kind !== 'option' || settlement.via !== 'control' || settlement.option !== 'deny') return NEUTRAL;
  return JSON.stringify({ block: true, reason: settlement.text ?? DENY_MESSAGE });
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});

/** Types that ride the session, not the open run. */
const SESSION_SCOPED = (type: string): boolean => type.startsWith('session.') || type.startsWith('x.pi.session.') || type === 'x.pi.agent.settled' || type === 'x.pi.model.select' || type === 'x.pi.thinking.select';

/** Emit a mapped event: on the open run unless it rides the session, with its cause and severity. */
function emitScoped(ctx: HookContext, session: string, mapped: Mapped, cause?: string): void {
  const run = SESSION_SCOPED(mapped.type) ? undefined : ctx.run(session);
  const severity = eventSeverity(mapped.type);
  ctx.emit(session, mapped, { ...(run ? { run } : {}), ...(cause ? { cause } : {}), ...(severity ? { severity } : {}) });
}

/** The held-loop key of one tool call. */
const callKey = (session: string, call: string): string => `call:${session}:${call}`;

/**
 * The runtime half of one pi adapter: the gate switch and, per engine, the calls the operator
 * denied (their `tool_execution_end` is cause-linked to the request).
 */
class PiHooks {
  private readonly denied = new WeakMap<HookContext, Map<string, string>>();

  constructor(private readonly control: boolean) {}

  private deniedOf(ctx: HookContext): Map<string, string> {
    let m = this.denied.get(ctx);
    if (!m) this.denied.set(ctx, (m = new Map()));
    return m;
  }

  /** One hook POST: the runtime events by their own rules, every other event through `mapEvent`. */
  async handle(hookEvent: string, raw: HookInput, ctx: HookContext): Promise<string> {
    // The extension sends the id; the standard's mapping inputs give `{id, file, cwd}`: both are read.
    const session = str(raw.session) ?? str(obj(raw.session).id) ?? str(raw.session_id);
    if (!session) return NEUTRAL;
    const event: Obj = { ...obj(raw.event), type: str(obj(raw.event).type) ?? hookEvent };
    switch (event.type) {
      case 'tool_call':
        return this.control ? this.gate(session, event, ctx) : NEUTRAL;
      case 'agent_start': {
        const mapped = mapEvent({ session, event }, { posture: ctx.posture })!;
        ctx.emit(session, mapped, { run: ctx.setRun(session, undefined)! });
        return NEUTRAL;
      }
      case 'agent_end':
        return agentEnd(session, event, ctx);
      case 'session_shutdown':
        for (const p of ctx.pending(session)) ctx.settle(p.id, { kind: 'dismissed' });
        ctx.setRun(session, null);
        break;
      case 'tool_execution_end':
        return this.toolEnd(session, event, ctx);
    }
    const mapped = mapEvent({ session: raw.session, event, session_file: raw.session_file }, { deltas: raw.deltas === true, posture: ctx.posture });
    if (mapped) emitScoped(ctx, session, mapped);
    return NEUTRAL;
  }

  /** A gated `tool_call`: held as an allow/deny request; a deny is remembered for the call's end. */
  private async gate(session: string, event: Obj, ctx: HookContext): Promise<string> {
    const call = str(event.toolCallId);
    const { request, settlement } = await ctx.hold({
      session,
      mapped: mapToolGate(event, ctx.posture),
      options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }],
      refusing: 'deny',
      ...(call ? { key: callKey(session, call) } : {}),
    });
    const reply = gateReply(settlement);
    if (reply !== NEUTRAL && call) this.deniedOf(ctx).set(`${session}\u0000${call}`, request.id);
    return reply;
  }

  /** A tool's end: dismisses its held gate, cause-links a denied call's failure to the request. */
  private toolEnd(session: string, event: Obj, ctx: HookContext): string {
    const call = str(event.toolCallId);
    if (call) for (const p of ctx.pending(session, callKey(session, call))) ctx.settle(p.id, { kind: 'dismissed' });
    const cause = call ? this.deniedOf(ctx).get(`${session}\u0000${call}`) : undefined;
    if (cause) this.deniedOf(ctx).delete(`${session}\u0000${call}`);
    const mapped = mapEvent({ session, event }, { posture: ctx.posture });
    if (mapped) emitScoped(ctx, session, mapped, cause);
    return NEUTRAL;
  }
}

/** `agent_end` closes the open run by the last assistant `stopReason`. */
function agentEnd(session: string, event: Obj, ctx: HookContext): string {
  const run = ctx.run(session);
  // A loop with no assistant message closes as a bare completion, and only a loop this daemon saw open.
  if (!run && lastAssistant(event.messages) === undefined) return NEUTRAL;
  const mapped = mapEvent({ session, event }, { posture: ctx.posture })!;
  ctx.emit(session, mapped, run ? { run } : {});
  ctx.setRun(session, null);
  return NEUTRAL;
}

export function createAdapter(opts: { control?: boolean } = {}): AdapterDef {
  const control = opts.control === true;
  const hooks = new PiHooks(control);
  const def = defineAdapter({
    agent: AGENT,
    defaultPort: DEFAULT_PORT,
    emits: ['session', 'run', 'tool', 'control', ...(control ? ['attention'] : [])],
    neutral: NEUTRAL,
    steerable: new Set(),
    handle: (hookEvent, raw, ctx) => hooks.handle(hookEvent, raw, ctx),
  });
  if (!control) def.accepts = [];
  // No pi moment's reply carries context, so queued steering could never be delivered.
  def.instruct = false;
  def.configure = configureFrom(optionsFromEnv, createAdapter);
  return def;
}

/** The daemon's posture from the environment: the gate is on exactly with `AEP_PI_CONTROL=1`. */
export function optionsFromEnv(env: Env): { control: boolean } {
  return { control: env.AEP_PI_CONTROL === '1' };
}

export const adapter = createAdapter();

/** What the offline control-loop scenarios drive: the opt-in tool gate on (`AEP_PI_CONTROL=1`). */
export const scenarioAdapter = createAdapter({ control: true });
