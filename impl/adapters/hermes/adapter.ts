/**
 * The Hermes Agent adapter definition for the kit (the Hermes design record).
 *
 * Identity: `session_id` is the session (subagent hooks fall back to `extra.parent_session_id`);
 * the vendor's real per-turn `extra.turn_id` is the run, verbatim. `pre_llm_call` opens the run,
 * `on_session_end` (fired PER TURN) closes it, `on_session_finalize` ends the session.
 * Approval payloads carry `session_id: ""`: their `extra.session_key` is joined against the
 * sessions this daemon has already seen, and otherwise they land on the `unknown` lane (a gateway
 * key never mints a lane).
 *
 * Observed cards (every posture, `respond_via:["oob"]`, answers `via:"oob"`):
 * - the vendor's own approval gate: `pre_approval_request` opens the card under
 *   (session, pattern_key); `post_approval_response` answers it, or times it out (choice "timeout");
 * - the `clarify` form overlay, paired on `tool_call_id`.
 * Both are swept `dismissed` at `on_session_finalize`, before `session.ended`. A post without its
 * pre (daemon restart, attach mid-session) is emitted as the pure mapping says, unpaired.
 *
 * Opt-in legs:
 * - `AEP_HERMES_CONTROL=1`: a `pre_tool_call` whose tool name matches `AEP_HERMES_GATE_TOOLS`
 *   (a regex, default every tool) is held as an answerable allow/deny `attention.requested`
 *   (`respond_via:["control"]`) for the attention timeout (default 55 s, under the vendor's
 *   60 s hook timeout). allow → `{}` (the vendor's own gates still run); deny → the vendor block
 *   shape with the reason; timeout → `{}` (fail open). Gated off, hello declares `accepts: []`.
 * - `AEP_INSTRUCT=1`: steering rides `{"context":...}` on the `pre_llm_call` reply only (the one
 *   moment the runtime consumes context), at most 4000 characters; dropped at `on_session_finalize`.
 *
 * Answer rules beyond the kit's (respondGuard): an answer to an observed card or to an
 * already-released gate is refused; an empty answer is invalid. The gate card's `expires_at` is
 * now + the hold. Deviation from the design record, stated: the daemon cannot see the shim's
 * socket close, so a gate is released (dismissed) only at the timeout or the session's end.
 */
import type { AepEvent } from '../../core/event.js';
import type { AdapterDef, CommandOutcome, HookContext, HookInput, Mapped } from '../../adapter-kit/types.js';
import { parseAnswer } from '../../adapter-kit/held-loop.js';
import { ALLOW_DENY_OPTIONS, str } from '../../adapter-kit/mapping.js';
import { configureFrom, type Env } from '../../adapter-kit/configure.js';
import { levelFor, red } from '../../adapter-kit/capture.js';
import { ObservedCards, perContext } from '../../adapter-kit/observed-cards.js';
import { toolCallKey } from '../../adapter-kit/tool-calls.js';
import { AGENT, extraOf, hookOf, mapHook, schemaDrift } from './map-hooks.js';
import { NEUTRAL, contextReply, gateReply } from './replies.js';
import { descriptor } from './descriptor.js';

export interface HermesOptions {
  /** The opt-in operator-deny gate (`AEP_HERMES_CONTROL=1`). */
  control: boolean;
  /** Which tool names the gate holds (`AEP_HERMES_GATE_TOOLS`); default every tool. */
  gateTools?: RegExp;
}

/** The one moment whose `{"context":...}` reply the runtime consumes. */
export const STEERABLE = new Set(['pre_llm_call']);

/** The vendor's per-hook default timeout, which the hold must stay under. */
export const VENDOR_HOOK_TIMEOUT_MS = 60_000;

interface State {
  seen: Set<string>;
  cards: ObservedCards;
  /** The daemon's diagnostics (set at attach). */
  log: (line: string) => void;
  /** Whether the schema drift warning was already logged. */
  drifted: boolean;
  /** Gate requests already released (answered, timed out, dismissed), by id → session. */
  released: Map<string, string>;
}
const stateOf = perContext<State>(() => ({ seen: new Set(), cards: new ObservedCards(), log: () => {}, drifted: false, released: new Map() }));

const APPROVAL_HOOKS = new Set(['pre_approval_request', 'post_approval_response']);
const SUBAGENT_HOOKS = new Set(['subagent_start', 'subagent_stop']);

/** The AEP session of an envelope, or undefined (nothing to attribute it to). */
function sessionOf(hook: string, input: HookInput, state: State): string | undefined {
  const extra = extraOf(input);
  const own = str(input.session_id) ?? (SUBAGENT_HOOKS.has(hook) ? str(extra.parent_session_id) : undefined);
  if (own) return own;
  if (APPROVAL_HOOKS.has(hook)) {
    const key = str(extra.session_key);
    return key && state.seen.has(key) ? key : 'unknown';
  }
  return undefined;
}

const approvalKey = (session: string, input: HookInput): string => `approval:${session}|${str(extraOf(input).pattern_key) ?? ''}`;
const clarifyKey = (session: string, call: string): string => `clarify:${session}|${call}`;

/** The answerable gate card of a held `pre_tool_call`. */
function gateRequest(input: HookInput, ctx: HookContext): Mapped {
  const tool = str(input.tool_name) ?? 'unknown';
  const level = levelFor('attention.requested', ctx.posture);
  const command = str((input.tool_input as Record<string, unknown> | null)?.command);
  const prompt = red(`Permission requested: ${tool}${command ? ` — ${command}` : ''}`, level) ?? `${AGENT} requests permission: ${tool}`;
  const expires = new Date(ctx.now() + ctx.attentionTimeoutMs).toISOString();
  return { type: 'attention.requested', data: { kind: 'permission', prompt, options: ALLOW_DENY_OPTIONS.map((o) => ({ ...o })), respond_via: ['control'], expires_at: expires }, subject: tool };
}

const severityOf = (type: string) => (type === `x.${AGENT}.api.error` ? ({ severity: 'error' } as const) : {});

/** One hook delivery, resolved: its payload, session, turn and run, the pure mapping and an emitter on the run. */
interface Delivery {
  ctx: HookContext;
  state: State;
  /** The hook's name (the payload's, else the path's). */
  hook: string;
  input: HookInput;
  extra: Record<string, unknown>;
  session: string;
  /** The vendor's `extra.turn_id` (a subagent's parent turn), if any. */
  turn: string | undefined;
  /** The run the events ride: the turn, else the session's open run. */
  run: string | undefined;
  mapped: Mapped[];
  emit: (m: Mapped) => AepEvent;
}

/**
 * Resolve one hook: log the first schema drift, attribute the session (none: nothing to emit),
 * open the turn's run at `pre_llm_call`, map the payload.
 */
function deliver(hookEvent: string, raw: HookInput, ctx: HookContext): Delivery | undefined {
  const hook = hookOf(raw, hookEvent);
  const input: HookInput = { ...raw, hook_event_name: hook };
  const state = stateOf(ctx);
  const drift = state.drifted ? null : schemaDrift(input);
  if (drift) {
    state.drifted = true;
    state.log(drift);
  }
  const session = sessionOf(hook, input, state);
  if (!session) return undefined;
  if (session !== 'unknown') state.seen.add(session);
  const extra = extraOf(input);
  const turn = str(extra.turn_id) ?? (SUBAGENT_HOOKS.has(hook) ? str(extra.parent_turn_id) : undefined);
  if (hook === 'pre_llm_call') ctx.setRun(session, turn);
  const run = turn ?? ctx.run(session);
  const runOf = (type: string) => (run !== undefined && !type.startsWith('session.') && type !== `x.${AGENT}.session.reset` ? { run } : {});
  const mapped = mapHook(input, ctx.posture);
  const emit = (m: Mapped) => ctx.emit(session, m, { ...runOf(m.type), ...severityOf(m.type) });
  return { ctx, state, hook, input, extra, session, turn, run, mapped, emit };
}

/** A hook's runtime rule: its reply, after emitting (and pairing) what it maps to. */
type HookRule = (d: Delivery, gate: RegExp | null) => string | Promise<string>;

/** The hooks with a runtime rule beyond "emit what the pure mapping says". */
const RULES: Readonly<Record<string, HookRule>> = {
  /** `tool.requested`; a gated tool is held as allow/deny; a `clarify` card is opened, paired on the call. */
  pre_tool_call: async ({ ctx, state, input, extra, session, run, mapped, emit }, gate) => {
    const [requested, card] = mapped;
    const toolEvent = emit(requested!);
    const tool = str(input.tool_name) ?? 'unknown';
    const held = gate && gate.test(tool)
      ? ctx.hold({ session, ...(run ? { run } : {}), mapped: gateRequest(input, ctx), options: ALLOW_DENY_OPTIONS.map((o) => ({ ...o })), refusing: 'deny', key: toolCallKey(session, tool, input.tool_input) })
      : undefined;
    // Without a tool_call_id the card cannot be paired; it is still filed, so the session-end sweep closes it.
    const call = str(extra.tool_call_id) ?? toolEvent.id;
    if (card) state.cards.open(ctx, session, card, { key: clarifyKey(session, call), ...(run ? { run } : {}), cause: toolEvent.id });
    if (!held) return NEUTRAL;
    const { request, settlement } = await held;
    state.released.set(request.id, session);
    return gateReply(settlement);
  },
  /** The tool's terminal; the `clarify` outcome settles its open card, or is emitted unpaired. */
  post_tool_call: ({ ctx, state, extra, session, mapped, emit }) => {
    const [terminal, outcome] = mapped;
    emit(terminal!);
    const call = str(extra.tool_call_id);
    const card = call ? state.cards.take(session, clarifyKey(session, call)) : undefined;
    if (outcome && card) settleCard(ctx, state.cards, card, outcome);
    else if (outcome) emit(outcome);
    return NEUTRAL;
  },
  /** The vendor's approval gate opens an observed card under (session, pattern_key). */
  pre_approval_request: ({ ctx, state, input, session, run, mapped }) => {
    state.cards.open(ctx, session, mapped[0]!, { key: approvalKey(session, input), ...(run ? { run } : {}) });
    return NEUTRAL;
  },
  /** The approval's answer (or timeout) settles its card, or is emitted unpaired. */
  post_approval_response: ({ ctx, state, input, session, mapped, emit }) => {
    const card = state.cards.take(session, approvalKey(session, input));
    if (card) settleCard(ctx, state.cards, card, mapped[0]!);
    else emit(mapped[0]!);
    return NEUTRAL;
  },
  /** Fired per turn: emits, and closes the turn's run (or the open one, without a turn id). */
  on_session_end: ({ ctx, session, turn, mapped, emit }) => {
    for (const m of mapped) emit(m);
    if (turn === undefined || ctx.run(session) === turn) ctx.setRun(session, null);
    return NEUTRAL;
  },
  /** The session's end: held gates and cards dismissed, steering dropped, then the events; the session forgotten. */
  on_session_finalize: ({ ctx, state, session, mapped, emit }) => {
    for (const p of ctx.pending(session)) ctx.settle(p.id, { kind: 'dismissed' });
    state.cards.sweep(ctx, session);
    ctx.dropSteering(session);
    for (const m of mapped) emit(m);
    ctx.setRun(session, null);
    state.seen.delete(session);
    for (const [id, owner] of state.released) if (owner === session) state.released.delete(id);
    return NEUTRAL;
  },
};

/** One hook POST: resolved, then its runtime rule, or every mapped event emitted. */
async function handleHook(gate: RegExp | null, hookEvent: string, raw: HookInput, ctx: HookContext): Promise<string> {
  const d = deliver(hookEvent, raw, ctx);
  if (!d) return NEUTRAL;
  if (Object.hasOwn(RULES, d.hook)) return RULES[d.hook]!(d, gate);
  for (const m of d.mapped) d.emit(m);
  return NEUTRAL;
}

export function hermesAdapter(opts: HermesOptions): AdapterDef {
  const gate = opts.control ? (opts.gateTools ?? /.*/) : null;
  const def: AdapterDef = {
    agent: AGENT,
    defaultPort: descriptor.port,
    emits: ['session', 'run', 'tool', 'attention', 'delegation', 'control'],
    accepts: gate ? ['control.attention.respond'] : [],
    neutralReply: () => NEUTRAL,
    steerable: (hookEvent) => STEERABLE.has(hookEvent),
    steeringReply: (_hook, text) => contextReply(text),
    steeringCap: 4000,
    handle: (hookEvent, raw, ctx) => handleHook(gate, hookEvent, raw, ctx),
    attach(ctx, log) {
      stateOf(ctx).log = log;
      return undefined;
    },
  };
  if (gate) def.command = respondGuard;
  def.configure = configureFrom(optionsFromEnv, hermesAdapter);
  return def;
}

/**
 * The design record's answer rules the kit's held loop does not carry, checked before the kit
 * takes the answer: an answer to an observed card is refused (it is answered in Hermes's own UI);
 * an answer to an already-released gate is refused; an empty answer is invalid (never a silent deny).
 * Everything else is the kit's (the AEP-0008 text rule, foreign options and values nacked invalid).
 */
function respondGuard(cmd: Record<string, unknown>, ctx: HookContext): Promise<CommandOutcome> | undefined {
  if (cmd.type !== 'control.attention.respond') return undefined;
  const state = stateOf(ctx);
  const subject = typeof cmd.subject === 'string' ? cmd.subject : undefined;
  if (subject && state.cards.isOpen(subject)) {
    return Promise.resolve({ ok: false, reason: 'refused', detail: "this request is observed only (respond_via [\"oob\"]): it is answered in Hermes's own UI, never from the bus" });
  }
  if (subject && state.released.has(subject)) {
    return Promise.resolve({ ok: false, reason: 'refused', detail: 'this gate was already released (answered, timed out or dismissed); an answer can no longer reach Hermes' });
  }
  const answer = parseAnswer(cmd.data);
  if (answer && answer.values === undefined && answer.option === undefined && (answer.text ?? '').trim() === '') {
    return Promise.resolve({ ok: false, reason: 'invalid', detail: 'an empty answer decides nothing: send answer.option "allow" or "deny", or a text reason (which denies)' });
  }
  return undefined;
}

/** Settle an observed card with the pure mapping's answer/terminal for it. */
function settleCard(ctx: HookContext, cards: ObservedCards, card: ReturnType<ObservedCards['take']> & object, outcome: Mapped): void {
  if (outcome.type === 'attention.answered') cards.answered(ctx, card, { answer: (outcome.data.answer as Record<string, unknown>) ?? {} });
  else if (outcome.type === 'attention.timeout') cards.timedOut(ctx, card, outcome.data);
  else cards.dismissed(ctx, card);
}

/** The options `configure(env)` reads; an error string for a malformed `AEP_HERMES_GATE_TOOLS`. */
export function optionsFromEnv(env: Env): HermesOptions | string {
  const control = env.AEP_HERMES_CONTROL === '1';
  let gateTools: RegExp | undefined;
  if (env.AEP_HERMES_GATE_TOOLS) {
    try {
      gateTools = new RegExp(env.AEP_HERMES_GATE_TOOLS);
    } catch (err) {
      return `AEP_HERMES_GATE_TOOLS must be a regular expression over tool names: ${(err as Error).message}`;
    }
  }
  return { control, ...(gateTools ? { gateTools } : {}) };
}

/** The default posture: observe-only, read-only hello. */
export const adapter: AdapterDef = hermesAdapter({ control: false });

/**
 * The gate on and scoped to the `terminal` tool (`AEP_HERMES_CONTROL=1 AEP_HERMES_GATE_TOOLS=^terminal$`):
 * the control-loop corpus runs this one, so it covers the gated and the ungated tool paths.
 */
export const gatedAdapter: AdapterDef = hermesAdapter({ control: true, gateTools: /^terminal$/ });

/** What the offline control-loop scenarios drive: the gated posture. */
export const scenarioAdapter = gatedAdapter;
