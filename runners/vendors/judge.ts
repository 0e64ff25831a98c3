/**
 * The verdict of one scenario run (pure): what the vendor's hooks, the relay, the adapter's log
 * and the file system show, against what the spec and the scenario require.
 */
import type { HookRecord } from './recorder.js';
import { unexcused } from '../judge/scenario-judge.js';
import { judgeTerminals, renderTerminalFindings } from '../judge/terminals.js';

/** The vendors' post-tool moments: each one fired is a call the vendor ended. */
export const POST_TOOL_HOOKS: ReadonlySet<string> = new Set(['PostToolUse', 'PostToolUseFailure', 'AfterTool', 'tool.execute.after', 'tool_result', 'tool_execution_end']);

export interface Expectation {
  /** Hook events that must have fired, in this order (others may fire in between). */
  hooks: readonly string[];
  /** Event types that must reach the relay for the session, in this order (others may come in between). */
  events: readonly string[];
  /** Event types that must not reach the relay. */
  noEvents?: readonly string[];
  /** The tool's side effect: the proof file exists, or does not. */
  effect?: 'proof-exists' | 'proof-absent';
  /** Text the model must get back in a later request (a tool result, a deny message, a form answer). */
  modelSees?: string;
  /** The decision in the PermissionRequest hook's reply. */
  permissionReply?: 'allow' | 'deny' | 'neutral';
  /** Hooks the vendor may cut short (kill before their reply), e.g. a held hook when the user quits. */
  cutHooks?: readonly string[];
  /** Whether the vendor fell back to its own prompt (answered locally, or still pending after the turn where the mode can tell). */
  localPrompt?: boolean;
  /** The host ended cleanly (exit 0, or its run completed: plugin-shaped hosts, see VendorSession.exitCode). */
  hostExitsClean?: boolean;
  /** The hooks' receiver is down on purpose (a daemon-down scenario): an uncompleted hook call is expected. */
  hooksMayFail?: boolean;
}

export interface Observation {
  hooks: readonly HookRecord[];
  /** Relay event frames of the adapter (parsed), in arrival order; null for record-only runs. */
  events: readonly Record<string, unknown>[] | null;
  /** The adapter log's problems (parse + validateStream), rendered; null for record-only runs. */
  logProblems: readonly string[] | null;
  /** How many events the adapter's log holds. */
  logEvents: number;
  proofExists: boolean;
  /** Every model request body after the first, as JSON text. */
  laterModelRequests: readonly string[];
  localPrompt: boolean;
  /** The host's exit code, where the session reports it. */
  hostExit?: number | null | undefined;
  /** The adapter's agent name: the relay stream is judged for paired terminals (runners/judge) under it. */
  integration?: string;
}

/** The first element of `want` missing from `have` as an ordered subsequence, with its position; null when all are there. */
export function missingInOrder(want: readonly string[], have: readonly string[]): { index: number; item: string } | null {
  let at = 0;
  for (let i = 0; i < want.length; i++) {
    const found = have.indexOf(want[i]!, at);
    if (found < 0) return { index: i, item: want[i]! };
    at = found + 1;
  }
  return null;
}

/** The decision a PermissionRequest reply carries: allow, deny, or neutral (no decision). */
export function replyDecision(reply: string | undefined): 'allow' | 'deny' | 'neutral' | 'unparsable' {
  if (reply === undefined) return 'unparsable';
  const text = reply.trim();
  if (text === '' || text === '{}') return 'neutral';
  try {
    const value = JSON.parse(text) as { hookSpecificOutput?: { decision?: { behavior?: unknown } }; decision?: unknown };
    const behavior = value.hookSpecificOutput?.decision?.behavior ?? value.decision;
    return behavior === 'allow' || behavior === 'deny' ? behavior : 'neutral';
  } catch {
    return 'unparsable';
  }
}

/** Every way the observation falls short of the expectation; empty when the run passed. */
export function judge(exp: Expectation, obs: Observation): string[] {
  const problems: string[] = [];
  const fired = obs.hooks.map((h) => h.event);
  const missingHook = missingInOrder(exp.hooks, fired);
  if (missingHook) problems.push(`hook ${missingHook.item} (expected #${missingHook.index + 1} of ${exp.hooks.join(', ')}) did not fire in order; fired: ${fired.join(', ') || 'none'}`);
  for (const h of obs.hooks) {
    if (h.reply === undefined && (exp.hooksMayFail || exp.cutHooks?.includes(h.event))) continue;
    if (h.reply === undefined) problems.push(`the ${h.event} hook never completed (no reply recorded)`);
    else if (h.via === 'command' && h.code !== 0) problems.push(`the ${h.event} hook command exited ${String(h.code)} (the shim must always exit 0)`);
  }
  if (exp.permissionReply) {
    const perm = obs.hooks.filter((h) => h.event === 'PermissionRequest');
    if (perm.length === 0) problems.push('PermissionRequest never fired');
    for (const h of perm) {
      const got = replyDecision(h.reply);
      if (got !== exp.permissionReply) problems.push(`the PermissionRequest reply decided ${got}, expected ${exp.permissionReply}: ${JSON.stringify(h.reply)}`);
    }
  }
  if (obs.events !== null) {
    const types = obs.events.map((e) => String(e.type));
    const missing = missingInOrder(exp.events, types);
    if (missing) problems.push(`event ${missing.item} (expected #${missing.index + 1} of ${exp.events.join(', ')}) did not reach the relay in order; got: ${types.join(', ') || 'none'}`);
    for (const t of exp.noEvents ?? []) if (types.includes(t)) problems.push(`event ${t} reached the relay, and must not`);
    if (obs.integration !== undefined) {
      // Where the vendor delivered an end: each post-tool hook that fired ended one call, and a
      // session.ended ends its runs; those calls and runs must have reached paired terminals.
      const endedCalls = obs.hooks.filter((h) => POST_TOOL_HOOKS.has(h.event)).length;
      for (const line of renderTerminalFindings(unexcused(obs.integration, judgeTerminals(obs.events, { endedCalls })))) problems.push(`terminals judge: ${line}`);
    }
  }
  if (obs.logProblems !== null) {
    if (obs.logEvents === 0) problems.push("the adapter's log is empty");
    for (const p of obs.logProblems.slice(0, 5)) problems.push(`adapter log: ${p}`);
  }
  if (exp.effect === 'proof-exists' && !obs.proofExists) problems.push('the tool did not run: the proof file is absent');
  if (exp.effect === 'proof-absent' && obs.proofExists) problems.push('the tool ran: the proof file exists');
  if (exp.modelSees !== undefined && !obs.laterModelRequests.some((r) => r.includes(exp.modelSees!))) {
    problems.push(`the model never got ${JSON.stringify(exp.modelSees)} back (in ${obs.laterModelRequests.length} later request(s))`);
  }
  if (exp.localPrompt !== undefined && exp.localPrompt !== obs.localPrompt) {
    problems.push(exp.localPrompt ? 'the vendor never showed its own permission prompt' : "the vendor's own permission prompt was still waiting after the hook decided");
  }
  if (exp.hostExitsClean && obs.hostExit !== 0) problems.push(`the host did not end cleanly: exit ${String(obs.hostExit)} (the plugin must never break the host)`);
  return problems;
}
