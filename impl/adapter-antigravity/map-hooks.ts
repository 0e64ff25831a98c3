/**
 * Antigravity hook → AEP events, the pure half of the Antigravity adapter (AEP-0002 Annex A.11).
 *
 * `mapHook(hook, input, {join}, posture?)` returns an ARRAY of `{type, data, subject?, step?}`.
 * No Antigravity payload names its own event, so `hook` is the name the `hooks.json` registration
 * passed to the shim (`aep hook antigravity PreToolUse`). `join` is the adapter's
 * (conversationId, stepIdx) table, passed in so the function stays pure: an array of
 * `{conversationId, stepIdx, name}` entries (the JSON fixture form) or a Map keyed `joinKey(...)`.
 * The daemon (adapter.ts) fills the table at PreToolUse, clears an entry on its join and the
 * conversation's entries at Stop, and synthesizes `session.started` at first sight.
 *
 * | hook | AEP types |
 * |---|---|
 * | PreToolUse | `tool.requested` (+ a join entry, daemon side) |
 * | PostToolUse, joined | `tool.completed` (empty `error`) or `tool.failed` |
 * | PostToolUse, unjoined | `x.antigravity.step.completed` (a tool name is never invented) |
 * | PreInvocation | (`run.started` at `invocationNum` 0) + `run.step.started`, step = invocationNum |
 * | PostInvocation | `run.step.finished`, step = invocationNum |
 * | Stop | `run.finished` (model_stop, max_steps_exceeded) or `run.failed` (error) |
 * | anything else | `x.antigravity.hook.<name>` |
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
import { DEFAULT_POSTURE, levelFor, red } from '../adapter-kit/capture.js';
import { digest } from '../core/digest.js';
import { isPlainObject } from '../core/event.js';
import { put, str } from '../adapter-kit/mapping.js';
import { putContent, stepOf, vendorFallbackType } from '../adapter-kit/multi-map.js';
import type { HookInput, Mapped, Posture } from '../adapter-kit/types.js';

export const AGENT = 'antigravity';

/** The five hooks of the `hooks.json` system. */
export const HOOKS = ['PreToolUse', 'PostToolUse', 'PreInvocation', 'PostInvocation', 'Stop'] as const;

export interface JoinEntry {
  conversationId: string;
  stepIdx: number;
  /** The tool name PreToolUse carried. */
  name: string;
}

export type JoinTable = readonly JoinEntry[] | ReadonlyMap<string, JoinEntry>;

export const joinKey = (conversationId: string, stepIdx: number): string => `${conversationId}\u0000${stepIdx}`;

/** The entry for (conversationId, stepIdx), if the table has one. */
export function lookupJoin(join: JoinTable | undefined, conversationId: string, stepIdx: number): JoinEntry | undefined {
  if (!join) return undefined;
  if (Array.isArray(join)) return (join as readonly JoinEntry[]).find((e) => e.conversationId === conversationId && e.stepIdx === stepIdx);
  return (join as ReadonlyMap<string, JoinEntry>).get(joinKey(conversationId, stepIdx));
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
export function mapHook(hook: string, input: HookInput, opts: { join?: JoinTable } = {}, posture: Posture = DEFAULT_POSTURE): Mapped[] {
  const at = (type: string) => levelFor(type, posture);
  const conversation = str(input.conversationId) ?? '';
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
      const entry = stepIdx === undefined ? undefined : lookupJoin(opts.join, conversation, stepIdx);
      if (!entry) {
        const type = `x.${AGENT}.step.completed`;
        const data: Record<string, unknown> = { failed: error !== '' };
        put(data, 'step_idx', stepIdx);
        return [{ type, data }];
      }
      const data: Record<string, unknown> = { tool: { name: entry.name } };
      put(data, 'step_idx', stepIdx);
      if (error === '') return [{ type: 'tool.completed', data, subject: entry.name }];
      const err: Record<string, unknown> = { type: 'tool_error' };
      put(err, 'message', red(error, at('tool.failed')));
      data.error = err;
      data.message_digest = digest(error);
      return [{ type: 'tool.failed', data, subject: entry.name }];
    }
    case 'PreInvocation':
    case 'PostInvocation': {
      const step = stepOf(input.invocationNum);
      const data: Record<string, unknown> = {};
      if (hook === 'PreInvocation') put(data, 'initial_num_steps', typeof input.initialNumSteps === 'number' ? input.initialNumSteps : undefined);
      const mapped: Mapped = { type: hook === 'PreInvocation' ? 'run.step.started' : 'run.step.finished', data, ...(step !== undefined ? { step } : {}) };
      if (hook === 'PreInvocation' && input.invocationNum === 0) return [{ type: 'run.started', data: { trigger: 'user' } }, mapped];
      return [mapped];
    }
    case 'Stop': {
      const reason = str(input.terminationReason);
      const data: Record<string, unknown> = {};
      put(data, 'termination_reason', reason);
      put(data, 'execution_num', typeof input.executionNum === 'number' ? input.executionNum : undefined);
      put(data, 'fully_idle', typeof input.fullyIdle === 'boolean' ? input.fullyIdle : undefined);
      if (reason === 'error') {
        const text = errorText(input.error);
        const error: Record<string, unknown> = { type: 'error' };
        put(error, 'message', text === '' ? undefined : red(text, at('run.failed')));
        if (text !== '') data.message_digest = digest(text);
        return [{ type: 'run.failed', data: { reason: 'error', error, ...data } }];
      }
      return [{ type: 'run.finished', data }];
    }
    default:
      return [{ type: vendorFallbackType(AGENT, hook, 'hook'), data: {} }];
  }
}
