/**
 * Antigravity hook → AEP events, the pure half of the Antigravity adapter (AEP-0002 Annex A.11).
 *
 * `mapHook(hook, input, {join}, posture?)` returns an ARRAY of `{type, data, subject?, step?}`.
 * No Antigravity payload names its own event, so `hook` is the name the `hooks.json` registration
 * passed to the shim (`aep hook antigravity PreToolUse`). `join` is the result of the daemon's
 * (conversationId, stepIdx) join for a PostToolUse: `{name}`, the tool name its PreToolUse
 * carried, or absent when nothing joined (the function stays pure; the table is the daemon's,
 * adapter.ts + join.ts: filled at PreToolUse, an entry cleared on its join, a conversation's
 * entries at Stop). The daemon also synthesizes `session.started` at first sight and the
 * `run.started` of each execution.
 *
 * | hook | AEP types |
 * |---|---|
 * | PreToolUse | `tool.requested` (+ a join entry, daemon side) |
 * | PostToolUse, joined | `tool.completed` (empty `error`) or `tool.failed` |
 * | PostToolUse, unjoined | `x.antigravity.step.completed` (a tool name is never invented) |
 * | PreInvocation | `run.step.started`, step = invocationNum (the daemon opens the run before it) |
 * | PostInvocation | `run.step.finished`, step = invocationNum |
 * | Stop | `run.finished` (model_stop, max_steps_exceeded) or `run.failed` (error) |
 * | anything else | `x.antigravity.hook.<name, lower-cased>` |
 *
 * Documented deviations (Annex A requires them stated in the adapter):
 * - No session end is exposed: `session.ended` is never emitted; `session.started` is synthesized.
 * - Run ids are synthesized (no run id rides the wire).
 * - A dangling PreToolUse synthesizes nothing: denied, rejected and still-running are
 *   indistinguishable; approval outcomes are not hook-visible, so nothing maps to `attention.*`
 *   or `tool.denied`, and `invoke_subagent` is a tool call (no `delegation.*`).
 * - No compaction hook: no `session.compacted`.
 * - Path fields (`transcriptPath`, `artifactDirectoryPath`, `workspacePaths`) are never carried.
 */
import { DEFAULT_POSTURE, levelFor, red } from '../../adapter-kit/capture.js';
import { isPlainObject } from '../../core/event.js';
import { put, str } from '../../adapter-kit/mapping.js';
import { putContent, stepOf } from '../../adapter-kit/multi-map.js';
import type { HookInput, Mapped, Posture } from '../../adapter-kit/types.js';

export const AGENT = 'antigravity';

/** The five hooks of the `hooks.json` system. */
export const HOOKS = ['PreToolUse', 'PostToolUse', 'PreInvocation', 'PostInvocation', 'Stop'] as const;

/** The result of the daemon's join for one PostToolUse: the tool name its PreToolUse carried. */
export interface JoinResult {
  name: string;
}

/** The join result of a mapping call, if it is one (`{name}` with a non-empty name). */
export function joinedName(join: unknown): string | undefined {
  return isPlainObject(join) ? str(join.name) : undefined;
}

/**
 * The mechanical fallback for a hook no row names: `x.antigravity.hook.<name>`, the name
 * lower-cased as one segment (`SomeFutureHook` → `somefuturehook`; a character outside the type
 * grammar's segment alphabet becomes `_`), `unknown` when nothing is left.
 */
export function fallbackType(hook: string): string {
  const segment = hook.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
  return `x.${AGENT}.hook.${segment || 'unknown'}`;
}

const stepIdxOf = (input: HookInput): number | undefined => (typeof input.stepIdx === 'number' && Number.isInteger(input.stepIdx) && input.stepIdx >= 0 ? input.stepIdx : undefined);

/** The `error` of a payload as text; '' when empty or absent. */
function errorText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  return JSON.stringify(v);
}

/**
 * The host a payload comes from, the design record's "host marker" for `session.started`'s
 * `client.name`: the app data directory its `transcriptPath` (else `artifactDirectoryPath`) lives
 * under, `~/.gemini/<host>/` (`antigravity` for the desktop app, `antigravity-cli` for the CLI).
 * Only the directory's name is read, never the path; `antigravity` when neither path says.
 */
export function hostOf(input: HookInput): string {
  for (const path of [input.transcriptPath, input.artifactDirectoryPath]) {
    const m = typeof path === 'string' ? /[\\/]\.gemini[\\/](antigravity(?:-[a-z0-9]+)*)[\\/]/.exec(path) : null;
    if (m) return m[1]!;
  }
  return AGENT;
}

/** The `session.started` synthesized at a conversation's first sight: the host marker as `client.name`. */
export function sessionStarted(input: HookInput): Mapped {
  return { type: 'session.started', data: { client: { name: hostOf(input) } } };
}

/** The pure mapping of one Antigravity hook call. */
export function mapHook(hook: string, input: HookInput, opts: { join?: JoinResult | undefined } = {}, posture: Posture = DEFAULT_POSTURE): Mapped[] {
  const at = (type: string) => levelFor(type, posture);
  const stepIdx = stepIdxOf(input);
  switch (hook) {
    case 'PreToolUse': {
      const call = isPlainObject(input.toolCall) ? input.toolCall : {};
      const name = str(call.name) ?? 'unknown';
      const data: Record<string, unknown> = { tool: { name } };
      putContent(data, 'args', call.args, at('tool.requested'));
      put(data, 'step_idx', stepIdx);
      return [{ type: 'tool.requested', data, subject: name }];
    }
    case 'PostToolUse': {
      const error = errorText(input.error);
      const name = joinedName(opts.join);
      if (name === undefined) {
        const type = `x.${AGENT}.step.completed`;
        const data: Record<string, unknown> = { failed: error !== '' };
        put(data, 'step_idx', stepIdx);
        return [{ type, data }];
      }
      const data: Record<string, unknown> = { tool: { name } };
      put(data, 'step_idx', stepIdx);
      if (error === '') return [{ type: 'tool.completed', data, subject: name }];
      // The vendor's own failure fact: the class at metadata, the message at redacted+.
      const err: Record<string, unknown> = { type: 'tool_error' };
      put(err, 'message', red(error, at('tool.failed')));
      data.error = err;
      return [{ type: 'tool.failed', data, subject: name }];
    }
    case 'PreInvocation':
    case 'PostInvocation': {
      const step = stepOf(input.invocationNum);
      const data: Record<string, unknown> = {};
      if (hook === 'PreInvocation') put(data, 'initial_num_steps', typeof input.initialNumSteps === 'number' ? input.initialNumSteps : undefined);
      return [{ type: hook === 'PreInvocation' ? 'run.step.started' : 'run.step.finished', data, ...(step !== undefined ? { step } : {}) }];
    }
    case 'Stop': {
      const reason = str(input.terminationReason);
      const data: Record<string, unknown> = {};
      put(data, 'execution_num', typeof input.executionNum === 'number' ? input.executionNum : undefined);
      put(data, 'fully_idle', typeof input.fullyIdle === 'boolean' ? input.fullyIdle : undefined);
      if (reason === 'error') {
        // The failure's reason is the run terminal's own `reason`: no termination_reason beside it.
        const text = errorText(input.error);
        const error: Record<string, unknown> = { type: 'error' };
        put(error, 'message', text === '' ? undefined : red(text, at('run.failed')));
        return [{ type: 'run.failed', data: { reason: 'error', error, ...data } }];
      }
      return [{ type: 'run.finished', data: { ...(reason !== undefined ? { termination_reason: reason } : {}), ...data } }];
    }
    default:
      return [{ type: fallbackType(hook), data: {} }];
  }
}
