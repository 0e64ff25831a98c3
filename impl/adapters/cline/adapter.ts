/**
 * The Cline adapter definition for the kit (the Cline design record).
 *
 * Identity: `taskId` is the session; runs are REAL (the vendor's own boundaries) but carry no
 * vendor id, so the adapter mints one (a ULID) per agent: `agent_start`/`agent_resume` open the
 * run of `agent_id`, `agent_end`/`agent_abort`/`agent_error` close it. A sub-agent (typed
 * `parent_agent_id`) gets its own run; its delegation pair rides the PARENT agent's run. The
 * typed `iteration` stamps the envelope `step` (no `run.step.*` synthesis).
 *
 * Posture: observe-only by default, with a read-only hello (`accepts: []`). Hook replies are `{}`,
 * never a `SubprocessHookControl` field (`cancel`, `review`, `context`, `overrideInput`,
 * `systemPrompt`, `appendMessages`): an observer that changes what it observes breaks capture
 * honesty. `AEP_INSTRUCT` does not apply: Cline's steering verb is the hub's user-plane
 * `x.cline.control.send_input` (hub-tap.ts), deliberately not `instruct`.
 *
 * Opt-in hub legs (hub-tap.ts): `AEP_CLINE_HUB=1` mirrors the hub's approval loop as attention
 * events; `AEP_CLINE_HUB_CONTROL=1` (implies the tap) also answers it, aborts runs and sends input.
 * A commanded `control.cancel` leaves a per-session pending-cancel note: the hook-reported
 * `agent_abort` that follows carries `cause` = the command id.
 */
import type { AdapterDef, CommandOutcome, HookContext, HookInput, Mapped } from '../../adapter-kit/types.js';
import { str } from '../../adapter-kit/mapping.js';
import { configureFrom, type Env } from '../../adapter-kit/configure.js';
import { perContext } from '../../adapter-kit/observed-cards.js';
import { AGENT, hookNameOf, mapHook, parentOf } from './map-hooks.js';
import { ClineHubTap, type HubConfig } from './hub-tap.js';

/** Cline reads hook stdout as JSON control; `{}` carries none. */
export const NEUTRAL = '{}';

const ROOT = 'root';
const RUN_OPENERS = new Set(['agent_start', 'agent_resume']);
const RUN_TERMINALS = new Set(['agent_end', 'agent_abort', 'agent_error']);

/** The per-agent run key in the engine's run table. */
export const runKey = (session: string, agent: string): string => `${session}\u0000${agent}`;

export interface ClineState {
  /** Commanded cancels awaiting their hook-reported abort, by session. */
  pendingCancel: Map<string, string>;
  /** The root agent (the one without a parent) of each session: its run is the one hub `run.abort` ends. */
  root: Map<string, string>;
  /** The hub tap, when enabled. */
  tap?: ClineHubTap;
}
export const stateOf = perContext<ClineState>(() => ({ pendingCancel: new Map(), root: new Map() }));

async function handle(hookEvent: string, input: HookInput, ctx: HookContext): Promise<string> {
  const session = str(input.taskId);
  if (!session) return NEUTRAL;
  const hook = hookNameOf(input, hookEvent);
  const state = stateOf(ctx);
  const agent = str(input.agent_id) ?? ROOT;
  const parent = parentOf(input);
  const parentRun = parent ? ctx.run(runKey(session, parent)) : undefined;
  if (RUN_OPENERS.has(hook)) {
    ctx.setRun(runKey(session, agent), undefined);
    if (!parent) state.root.set(session, agent);
  }
  const run = ctx.run(runKey(session, agent));
  for (const m of mapHook(input, ctx.posture, hookEvent)) {
    if (m.type.startsWith('delegation.')) {
      ctx.emit(session, m, parentRun ? { run: parentRun } : {});
      continue;
    }
    const extra: { run?: string; cause?: string; severity?: 'debug' } = {};
    if (run && !m.type.startsWith('session.')) extra.run = run;
    if (m.type === 'run.cancelled' && state.pendingCancel.has(session)) {
      extra.cause = state.pendingCancel.get(session)!;
      state.pendingCancel.delete(session);
    }
    if (m.type === `x.${AGENT}.prompt.submitted`) extra.severity = 'debug';
    if (m.type === 'session.ended') state.tap?.endSession(ctx, session);
    ctx.emit(session, m as Mapped, extra);
  }
  if (RUN_TERMINALS.has(hook)) ctx.setRun(runKey(session, agent), null);
  return NEUTRAL;
}

export interface ClineOptions {
  /** The hub endpoint, when the tap is on (`AEP_CLINE_HUB=1` or `AEP_CLINE_HUB_CONTROL=1`). */
  hub?: HubConfig;
  /** Hub control (`AEP_CLINE_HUB_CONTROL=1`). */
  control?: boolean;
}

/** The core and vendor verbs hub control accepts. */
export const HUB_ACCEPTS = ['control.attention.respond', 'control.cancel', `x.${AGENT}.control.send_input`];

export function clineAdapter(opts: ClineOptions = {}): AdapterDef {
  const hub = opts.hub;
  const control = Boolean(hub && opts.control);
  const def: AdapterDef = {
    agent: AGENT,
    defaultPort: descriptor.port,
    emits: ['session', 'run', 'tool', 'delegation', ...(hub ? ['attention'] : []), 'control'],
    accepts: control ? [...HUB_ACCEPTS] : [],
    neutralReply: () => NEUTRAL,
    steerable: () => false,
    steeringReply: () => NEUTRAL,
    instruct: false,
    handle,
    configure: configureFrom(optionsFromEnv, clineAdapter),
  };
  if (hub) {
    def.attach = (ctx, log) => {
      const tap = new ClineHubTap(ctx, hub, { control, log, runOf: (session) => activeRun(ctx, session) });
      stateOf(ctx).tap = tap;
      tap.start();
      return { close: () => tap.close() };
    };
  }
  if (control) {
    def.command = (cmd, ctx): Promise<CommandOutcome> | undefined => {
      const tap = stateOf(ctx).tap;
      if (!tap) return Promise.resolve({ ok: false, reason: 'busy', detail: 'the Cline hub tap is not running' });
      if (cmd.type === 'control.cancel') {
        return tap.cancel(cmd).then((outcome) => {
          if (outcome.ok && typeof cmd.session === 'string') stateOf(ctx).pendingCancel.set(cmd.session, cmd.id as string);
          return outcome;
        });
      }
      if (cmd.type === 'control.attention.respond') return tap.respond(cmd);
      if (cmd.type === `x.${AGENT}.control.send_input`) return tap.sendInput(cmd);
      return undefined;
    };
  }
  return def;
}

/** The run of the session's root agent (the run a hub `run.abort` targets). */
function activeRun(ctx: HookContext, session: string): string | undefined {
  return ctx.run(runKey(session, stateOf(ctx).root.get(session) ?? ROOT));
}

/** The options `configure(env)` reads; an error string for an unusable hub configuration. */
export function optionsFromEnv(env: Env): ClineOptions | string {
  const control = env.AEP_CLINE_HUB_CONTROL === '1';
  if (env.AEP_CLINE_HUB !== '1' && !control) return {};
  const hub = hubConfigFromEnv(env);
  return typeof hub === 'string' ? hub : { hub, control };
}

export { hubConfigFromEnv } from './hub-config.js';
import { hubConfigFromEnv } from './hub-config.js';
import { descriptor } from './descriptor.js';

/** The default posture: observe-only, read-only hello. */
export const adapter: AdapterDef = clineAdapter();
