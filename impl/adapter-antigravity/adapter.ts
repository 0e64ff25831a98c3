/**
 * The Antigravity adapter definition for the kit (the Antigravity design record): observe-only,
 * with nothing to opt into. The hello carries no `control` block; every reply is the neutral one.
 *
 * Identity: `conversationId` is the session, verbatim; `session.started` is synthesized at its
 * first sight (`client.name` = the host marker, `antigravity` or `antigravity-cli`, map-hooks.ts `hostOf`); no `session.ended` is ever emitted. Runs are
 * synthesized per conversation: opened at the first PreInvocation of an execution
 * (`invocationNum` 0, or the first one seen on a mid-run attach), closed at Stop by its typed
 * `terminationReason`. The (conversationId, stepIdx) join table is this daemon's: filled at
 * PreToolUse, an entry cleared on its join, a conversation's entries cleared at Stop.
 */
import type { AdapterDef, HookContext, HookInput } from '../adapter-kit/types.js';
import { str } from '../adapter-kit/mapping.js';
import { perContext } from '../adapter-kit/observed-cards.js';
import { AGENT, joinKey, mapHook, sessionStarted, type JoinEntry } from './map-hooks.js';
import { neutralReply } from './replies.js';
import { descriptor } from './descriptor.js';

interface State {
  seen: Set<string>;
  join: Map<string, JoinEntry>;
}
const stateOf = perContext<State>(() => ({ seen: new Set(), join: new Map() }));

async function handle(hook: string, input: HookInput, ctx: HookContext): Promise<string> {
  const session = str(input.conversationId);
  const neutral = neutralReply(hook);
  if (!session) return neutral;
  const state = stateOf(ctx);
  if (!state.seen.has(session)) {
    state.seen.add(session);
    ctx.emit(session, sessionStarted(input));
  }
  const mapped = mapHook(hook, input, { join: state.join }, ctx.posture);
  if (hook === 'PreInvocation' && !ctx.run(session) && mapped[0]?.type !== 'run.started') {
    // A mid-run attach: the first invocation seen opens the (synthesized) run.
    mapped.unshift({ type: 'run.started', data: { trigger: 'user' } });
  }
  for (const m of mapped) {
    if (m.type === 'run.started') ctx.setRun(session, undefined);
    const run = ctx.run(session);
    ctx.emit(session, m, run ? { run } : {});
  }
  const stepIdx = typeof input.stepIdx === 'number' ? input.stepIdx : undefined;
  if (hook === 'PreToolUse' && stepIdx !== undefined) state.join.set(joinKey(session, stepIdx), { conversationId: session, stepIdx, name: String((mapped[0]!.data.tool as { name: string }).name) });
  if (hook === 'PostToolUse' && stepIdx !== undefined) state.join.delete(joinKey(session, stepIdx));
  if (hook === 'Stop') {
    ctx.setRun(session, null);
    for (const [key, entry] of state.join) if (entry.conversationId === session) state.join.delete(key);
  }
  return neutral;
}

export const adapter: AdapterDef = {
  agent: AGENT,
  defaultPort: descriptor.port,
  emits: ['session', 'run', 'tool'],
  accepts: [],
  neutralReply,
  steerable: () => false,
  steeringReply: (hook) => neutralReply(hook),
  instruct: false,
  observeOnly: true,
  handle,
};
