/**
 * Cline subprocess hook → AEP events, the pure half of the Cline adapter (AEP-0002 Annex A.9).
 *
 * `mapHook(input, posture?)` returns an ARRAY of `{type, data, subject?, step?}`: one hook can
 * close a run and a delegation pair at once. `input` is the JSON Cline writes to the hook script's
 * stdin; the hook is named by its typed `hookName` (the SDK generation's internal names). The
 * envelope identity (`taskId` → session, adapter-minted run ids per agent, the cause link of a
 * commanded cancel) is runtime state in adapter.ts.
 *
 * | Cline hook (typed) | legacy name | AEP types |
 * |---|---|---|
 * | agent_start / agent_resume | TaskStart / TaskResume | (`delegation.subagent.started` when parented) + `run.started{trigger:user\|resume}` |
 * | agent_end | TaskComplete | `run.finished` (+ `delegation.subagent.stopped` when parented) |
 * | agent_abort | TaskCancel | `run.cancelled{by:user}` (+ stopped when parented) |
 * | agent_error | TaskError | `run.failed{reason, error.type}` (+ stopped when parented) |
 * | tool_call | PreToolUse | `tool.requested` |
 * | tool_result | PostToolUse | `tool.completed`, or `tool.failed` when the record (or an entry of a batch's output) carries an error |
 * | prompt_submit | UserPromptSubmit | `x.cline.prompt.submitted` |
 * | pre_compact | PreCompact | `session.compacted` |
 * | session_shutdown | SessionShutdown | `session.ended{reason:"normal"}` |
 * | anything else | | `x.cline.<name with dots>` |
 *
 * Two payload generations, both mapped (vendor-surfaces: the docs of March 2026 show `hookName`
 * `PreToolUse` with camelCase sub-objects `preToolUse{toolName, parameters}`; the published SDK
 * sends the internal names with `tool_call`/`tool_result` records). The typed generation wins
 * when both are present; the legacy mirrors are read only when the typed field is absent.
 *
 * Documented deviations (Annex A requires them stated in the adapter):
 * - `pre_compact` is the vendor's only compaction moment, so `session.compacted` fires at the PRE
 *   moment (the post-moment rule cannot be met on this surface).
 * - `prompt_submit` stays vendor-scoped: `message.user.submitted` is reserved.
 * - `iteration` stamps the envelope `step`; no `run.step.*` events are synthesized.
 * - Free-text reasons (abort reason, error message, shutdown reason) never enter enums; they ride
 *   redacted-gated.
 * - `workspaceInfo` rides on `run.started`: the commit hash at metadata, the branch name at redacted+.
 */
import { DEFAULT_POSTURE, levelFor, red } from '../../adapter-kit/capture.js';
import { isPlainObject } from '../../core/event.js';
import { digest } from '../../core/digest.js';
import { content, put, str } from '../../adapter-kit/mapping.js';
import { num, putContent, stepOf, vendorFallbackType, withStep } from '../../adapter-kit/multi-map.js';
import type { HookInput, Mapped, Posture } from '../../adapter-kit/types.js';

export const AGENT = 'cline';

/** The typed hook names, by the legacy file/hook names the March 2026 docs used. */
export const LEGACY_NAMES: Readonly<Record<string, string>> = {
  TaskStart: 'agent_start',
  TaskResume: 'agent_resume',
  TaskCancel: 'agent_abort',
  TaskComplete: 'agent_end',
  TaskError: 'agent_error',
  PreToolUse: 'tool_call',
  PostToolUse: 'tool_result',
  UserPromptSubmit: 'prompt_submit',
  PreCompact: 'pre_compact',
  SessionShutdown: 'session_shutdown',
};

/** The typed hook name of a payload: its `hookName` (legacy names translated), else `fallback`. */
export function hookNameOf(input: HookInput, fallback?: string): string {
  const name = str(input.hookName) ?? str(fallback) ?? 'unknown';
  return LEGACY_NAMES[name] ?? name;
}

const obj = (v: unknown): Record<string, unknown> | undefined => (isPlainObject(v) ? v : undefined);

/** The parent agent id when the payload names one (a sub-agent). */
export function parentOf(input: HookInput): string | undefined {
  return str(input.parent_agent_id);
}

/** The tool call of a `tool_call`: typed `tool_call{id,name,input}`, else legacy `preToolUse{toolName|tool, parameters}`. */
function toolCall(input: HookInput): { name: string; call_id?: string; args: unknown } {
  const typed = obj(input.tool_call);
  if (typed) return { name: str(typed.name) ?? 'unknown', ...(str(typed.id) ? { call_id: typed.id as string } : {}), args: typed.input };
  const legacy = obj(input.preToolUse) ?? {};
  return { name: str(legacy.toolName) ?? str(legacy.tool) ?? 'unknown', args: legacy.parameters };
}

interface ToolRecord {
  name: string;
  call_id?: string;
  output: unknown;
  error?: string;
  durationMs?: number;
}

/** The record of a `tool_result`: typed `ToolCallRecord`, else legacy `postToolUse{toolName, result, success, executionTimeMs}`. */
/**
 * A batch tool's failure (Cline 3.0.65 `run_commands`, seen by the real-vendors lane): the record
 * has no `error`, and its legacy mirror says `success: true`, but an `output` entry says
 * `{success: false, error}`. The first failed entry's error (or "failed") is the tool's.
 */
function failedEntry(output: unknown): string | undefined {
  if (!Array.isArray(output)) return undefined;
  const failed = output.find((e): e is Record<string, unknown> => isPlainObject(e) && e.success === false);
  if (!failed) return undefined;
  return str(failed.error) ?? 'failed';
}

function toolRecord(input: HookInput): ToolRecord {
  const typed = obj(input.tool_result);
  if (typed) {
    const error = typed.error === undefined || typed.error === null || typed.error === '' ? failedEntry(typed.output) : typeof typed.error === 'string' ? typed.error : JSON.stringify(typed.error);
    const rec: ToolRecord = { name: str(typed.name) ?? 'unknown', output: typed.output };
    if (str(typed.id)) rec.call_id = typed.id as string;
    if (error !== undefined) rec.error = error;
    const ms = num(typed.durationMs);
    if (ms !== undefined) rec.durationMs = ms;
    return rec;
  }
  const legacy = obj(input.postToolUse) ?? {};
  const rec: ToolRecord = { name: str(legacy.toolName) ?? str(legacy.tool) ?? 'unknown', output: legacy.result };
  if (legacy.success === false) rec.error = typeof legacy.result === 'string' ? legacy.result : 'failed';
  const ms = num(legacy.executionTimeMs);
  if (ms !== undefined) rec.durationMs = ms;
  return rec;
}

/**
 * `run.started` with the workspace facts of `workspaceInfo` (`@cline/shared` `WorkspaceInfo`): the
 * commit hash is metadata (`git_commit`); the branch name is user content (`git_branch`, redacted+).
 */
function runStarted(trigger: 'user' | 'resume', input: HookInput, posture: Posture): Mapped {
  const data: Record<string, unknown> = { trigger };
  const ws = obj(input.workspaceInfo);
  if (ws) {
    put(data, 'git_commit', str(ws.latestGitCommitHash));
    put(data, 'git_branch', str(ws.latestGitBranchName) && red(ws.latestGitBranchName as string, levelFor('run.started', posture)));
  }
  return { type: 'run.started', data };
}

/** The terminal of a run plus, for a sub-agent, the delegation close (after the run's terminal). */
function terminal(input: HookInput, mapped: Mapped, step: string | undefined): Mapped[] {
  const out = [withStep(mapped, step)];
  const agentId = str(input.agent_id);
  if (parentOf(input) && agentId) out.push({ type: 'delegation.subagent.stopped', data: {}, subject: agentId });
  return out;
}

/** The pure mapping of one Cline hook payload: an array (possibly of one) of mapped events. */
export function mapHook(input: HookInput, posture: Posture = DEFAULT_POSTURE, hookEvent?: string): Mapped[] {
  const hook = hookNameOf(input, hookEvent);
  const at = (type: string) => levelFor(type, posture);
  const step = stepOf(input.iteration);
  switch (hook) {
    case 'agent_start':
    case 'agent_resume': {
      const out: Mapped[] = [];
      const agentId = str(input.agent_id);
      if (hook === 'agent_start' && parentOf(input) && agentId) out.push({ type: 'delegation.subagent.started', data: {}, subject: agentId });
      out.push(withStep(runStarted(hook === 'agent_start' ? 'user' : 'resume', input, posture), step));
      return out;
    }
    case 'agent_end':
      return terminal(input, { type: 'run.finished', data: {} }, step);
    case 'agent_abort': {
      const data: Record<string, unknown> = { by: 'user' };
      put(data, 'reason', str(input.reason) && red(input.reason as string, at('run.cancelled')));
      return terminal(input, { type: 'run.cancelled', data }, step);
    }
    case 'agent_error': {
      const err = obj(input.error) ?? {};
      const name = str(err.name) ?? str(err.type) ?? 'error';
      const error: Record<string, unknown> = { type: name };
      put(error, 'message', str(err.message) && red(err.message as string, at('run.failed')));
      return terminal(input, { type: 'run.failed', data: { reason: name, error } }, step);
    }
    case 'tool_call': {
      const call = toolCall(input);
      const tool = { name: call.name, ...(call.call_id ? { call_id: call.call_id } : {}) };
      const data: Record<string, unknown> = { tool };
      putContent(data, 'args', call.args, at('tool.requested'));
      return [withStep({ type: 'tool.requested', data, subject: tool.name }, step)];
    }
    case 'tool_result': {
      const rec = toolRecord(input);
      const tool = { name: rec.name, ...(rec.call_id ? { call_id: rec.call_id } : {}) };
      const data: Record<string, unknown> = { tool };
      put(data, 'duration_ms', rec.durationMs);
      if (rec.error !== undefined) {
        const error: Record<string, unknown> = { type: 'tool_error' };
        put(error, 'message', red(rec.error, at('tool.failed')));
        data.error = error;
        return [withStep({ type: 'tool.failed', data, subject: tool.name }, step)];
      }
      putContent(data, 'result', rec.output, at('tool.completed'));
      return [withStep({ type: 'tool.completed', data, subject: tool.name }, step)];
    }
    case 'prompt_submit': {
      const type = `x.${AGENT}.prompt.submitted`;
      const data: Record<string, unknown> = {};
      const prompt = str(obj(input.userPromptSubmit)?.prompt) ?? str(input.prompt);
      if (prompt !== undefined) {
        data.message_digest = digest(prompt);
        put(data, 'prompt', red(prompt, at(type)));
      }
      return [withStep({ type, data }, step)];
    }
    case 'pre_compact': {
      const pc = obj(input.preCompact) ?? {};
      const data: Record<string, unknown> = {};
      put(data, 'strategy', str(pc.compactionStrategy));
      put(data, 'gen_ai.usage.input_tokens', num(pc.tokensIn));
      put(data, 'gen_ai.usage.output_tokens', num(pc.tokensOut));
      const level = at('session.compacted');
      put(data, 'context_json_path', str(pc.contextJsonPath) && content(pc.contextJsonPath, level));
      put(data, 'context_raw_path', str(pc.contextRawPath) && content(pc.contextRawPath, level));
      return [{ type: 'session.compacted', data }];
    }
    case 'session_shutdown':
      return [{ type: 'session.ended', data: { reason: 'normal' } }];
    default:
      return [withStep({ type: vendorFallbackType(AGENT, hook), data: {} }, step)];
  }
}
