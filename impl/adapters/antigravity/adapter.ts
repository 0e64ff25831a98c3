/**
 * The Antigravity adapter definition for the kit (the Antigravity design record): observe-only,
 * with nothing to opt into. The hello carries no `control` block; every reply is the neutral one.
 *
 * Identity: `conversationId` is the session, verbatim; `session.started` is synthesized at its
 * first sight (`client.name` = the host marker, `antigravity` or `antigravity-cli`, map-hooks.ts `hostOf`); no `session.ended` is ever emitted. Runs are
 * synthesized per conversation: opened at the first PreInvocation of an execution
 * (`invocationNum` 0, or the first one seen on a mid-run attach), closed at Stop by its typed
 * `terminationReason`. Between a PreInvocation and its PostInvocation the tool events carry the
 * invocation's step (one invocation plus its tool executions is one sub-run phase). The
 * (conversationId, stepIdx) join table is this daemon's (join.ts): filled at
 * PreToolUse, an entry cleared on its join, a conversation's entries cleared at Stop.
 */
import type { AdapterDef, HookContext, HookInput } from '../../adapter-kit/types.js';
import { str } from '../../adapter-kit/mapping.js';
import { perContext } from '../../adapter-kit/observed-cards.js';
import { AGENT, mapHook, sessionStarted } from './map-hooks.js';
import { JoinTable } from './join.js';
import { neutralReply } from './replies.js';
import { descriptor } from './descriptor.js';

interface State {
  seen: Set<string>;
  join: JoinTable;
  /** The open invocation of each conversation: its `invocationNum`, the envelope step of the tool events inside it. */
  invocation: Map<string, string>;
}
const stateOf = perContext<State>(() => ({ seen: new Set(), join: new JoinTable(), invocation: new Map() }));

const stepIdxOf = (input: HookInput): number | undefined => (typeof input.stepIdx === 'number' && Number.isInteger(input.stepIdx) && input.stepIdx >= 0 ? input.stepIdx : undefined);

async function handle(hook: string, input: HookInput, ctx: HookContext): Promise<string> {
  const session = str(input.conversationId);
  const neutral = neutralReply(hook);
  if (!session) return neutral;
  const state = stateOf(ctx);
  if (!state.seen.has(session)) {
    state.seen.add(session);
    ctx.emit(session, sessionStarted(input));
  }
  const stepIdx = stepIdxOf(input);
  // The join is the daemon's: the mapper is handed its result, `{name}` or nothing.
  const join = hook === 'PostToolUse' && stepIdx !== undefined ? state.join.take(session, stepIdx) : undefined;
  const mapped = mapHook(hook, input, join ? { join } : {}, ctx.posture);
  if (hook === 'PreInvocation' && (input.invocationNum === 0 || !ctx.run(session))) {
    // An execution's first invocation (or the first one seen on a mid-run attach) opens the synthesized run.
    mapped.unshift({ type: 'run.started', data: { trigger: 'user' } });
  }
  if (hook === 'PreInvocation' && mapped.at(-1)?.step !== undefined) state.invocation.set(session, mapped.at(-1)!.step!);
  // A model invocation plus its tool executions is one sub-run phase: the tool events carry its step.
  const open = hook === 'PreToolUse' || hook === 'PostToolUse' ? state.invocation.get(session) : undefined;
  for (const m of mapped) {
    if (m.type === 'run.started') ctx.setRun(session, undefined);
    const run = ctx.run(session);
    ctx.emit(session, open !== undefined && m.step === undefined ? { ...m, step: open } : m, run ? { run } : {});
  }
  if (hook === 'PostInvocation' || hook === 'Stop') state.invocation.delete(session);
  if (hook === 'PreToolUse' && stepIdx !== undefined) state.join.remember(session, stepIdx, String((mapped[0]!.data.tool as { name: string }).name));
  if (hook === 'Stop') {
    ctx.setRun(session, null);
    state.join.forget(session);
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
