/**
 * Qwen Code hook → AEP event, the pure half of the Qwen Code adapter (AEP-0002 Annex A.4).
 *
 * `mapHook(input, posture?)` returns `{type, data, subject?}` or null (a deliberate silence).
 * Qwen Code's hooks are Claude-Code-shaped (same snake_case stdin, `tool_use_id` pairing);
 * envelope identity (`session_id` → session, runs synthesized per UserPromptSubmit) and the held
 * PermissionRequest loop are runtime state in adapter.ts.
 *
 * | Qwen hook | AEP type |
 * |---|---|
 * | SessionStart / SessionEnd | `session.started` (with `permission_mode`) / `session.ended` |
 * | UserPromptSubmit / Stop / StopFailure | `run.started` / `run.finished` / `run.failed` |
 * | PreToolUse / PostToolUse / PostToolUseFailure | `tool.requested` / `tool.completed` / `tool.failed` |
 * | PermissionRequest | `attention.requested` (kind permission, allow/deny, over control) |
 * | SubagentStart / SubagentStop | `delegation.subagent.started` / `.stopped` |
 * | PreCompact / PostCompact | nothing / `session.compacted` |
 * | Notification | `progress.status`; nothing for `permission_prompt` |
 * | TodoCreated / TodoCompleted | `progress.task.planned` / `.completed`; nothing in the `validation` phase |
 * | PermissionDenied (0.24 surface) | `tool.denied{by:"policy"}` |
 * | anything else (PostToolBatch, UserPromptExpansion, SessionDelete, MessageDisplay, InstructionsLoaded, ...) | `x.qwen-code.session.<snake_case(hook)>` |
 *
 * Documented deviations (Annex A requires them stated in the adapter):
 * - PreCompact emits nothing; `session.compacted` fires once, at PostCompact.
 * - The `permission_prompt` Notification emits nothing: PermissionRequest already raised that request.
 * - Every todo hook fires twice per write (a `validation` phase, then `postWrite`): only the
 *   persisted write is an event; an absent or unknown phase emits (fail open to emission).
 * - PermissionDenied is not in the standard's 16-hook pin (Qwen Code 0.24 added it): it maps like
 *   the Claude Code sibling's, `tool.denied` by policy.
 * - `permission_mode` (default / plan / auto_edit / auto / yolo) rides at metadata: it is the
 *   session's security posture.
 */
import { isPlainObject, type CaptureLevel } from '../../core/event.js';
import { DEFAULT_POSTURE, levelFor, red } from '../../adapter-kit/capture.js';
import { ALLOW_DENY_OPTIONS, heldPermissionRequest, mapCommonHook, mapUnknownHook, put, str, toolRef } from '../../adapter-kit/mapping.js';
import type { HookInput, Mapped, Posture } from '../../adapter-kit/types.js';

export const AGENT = 'qwen-code';

/** The options of every Qwen Code permission request. */
export const PERMISSION_OPTIONS = ALLOW_DENY_OPTIONS;

const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);

/** ` — <command or path> (<description>)`, the human summary of a tool call in a permission prompt. */
function toolSummary(toolInput: unknown): string {
  if (!isPlainObject(toolInput)) return '';
  const what = str(toolInput.command) ?? str(toolInput.file_path) ?? str(toolInput.path) ?? str(toolInput.url);
  const why = str(toolInput.description);
  return `${what ? ` — ${what}` : ''}${why ? ` (${why})` : ''}`;
}

/** `attention.requested` for a PermissionRequest: the hook's text at redacted and above, structure only at metadata. */
export function mapPermissionRequest(input: HookInput, posture: Posture = DEFAULT_POSTURE): Mapped {
  return heldPermissionRequest(AGENT, input, toolSummary(input.tool_input), posture, PERMISSION_OPTIONS);
}

/** The pure mapping of one Qwen Code hook payload; null where the adapter deliberately emits nothing. */
export function mapHook(input: HookInput, posture: Posture = DEFAULT_POSTURE): Mapped | null {
  const hook = str(input.hook_event_name) ?? 'Unknown';
  const at = (type: string): CaptureLevel => levelFor(type, posture);
  const data: Record<string, unknown> = {};
  switch (hook) {
    case 'SessionStart': {
      const mapped = mapCommonHook(hook, input, AGENT, posture)!;
      put(mapped.data, 'permission_mode', str(input.permission_mode));
      put(mapped.data, 'agent_type', str(input.agent_type));
      return mapped;
    }
    case 'SessionEnd':
      return { type: 'session.ended', data: { reason: 'normal' } };
    case 'Stop':
      put(data, 'gen_ai.usage.input_tokens', count(input.input_tokens));
      put(data, 'gen_ai.usage.output_tokens', count(input.output_tokens));
      return { type: 'run.finished', data };
    case 'StopFailure': {
      data.reason = str(input.error) ?? 'error';
      const detail = str(input.error_details) ?? str(input.error_message);
      const message = detail && red(detail, at('run.failed'));
      if (message) data.error = { message };
      return { type: 'run.failed', data };
    }
    case 'PostToolUseFailure': {
      const tool = toolRef(input);
      const error: Record<string, unknown> = { type: input.is_interrupt === true ? 'interrupt' : 'tool_error' };
      put(error, 'message', str(input.error) && red(input.error as string, at('tool.failed')));
      return { type: 'tool.failed', data: { tool, error }, subject: tool.name };
    }
    case 'PermissionRequest':
      return mapPermissionRequest(input, posture);
    case 'PermissionDenied': {
      const tool = toolRef(input);
      return { type: 'tool.denied', data: { tool, by: 'policy' }, subject: tool.name };
    }
    case 'Notification': {
      const kind = str(input.notification_type);
      if (kind === 'permission_prompt') return null;
      put(data, 'message', str(input.message) && red(input.message as string, at('progress.status')));
      return kind ? { type: 'progress.status', data, subject: kind } : { type: 'progress.status', data };
    }
    case 'TodoCreated':
    case 'TodoCompleted': {
      if (input.phase === 'validation') return null;
      const type = hook === 'TodoCreated' ? 'progress.task.planned' : 'progress.task.completed';
      const title = str(input.todo_content) && red(input.todo_content as string, at(type));
      if (title) data.task = { title };
      const id = str(input.todo_id);
      return id ? { type, data, subject: id } : { type, data };
    }
  }
  const common = mapCommonHook(hook, input, AGENT, posture);
  return common !== undefined ? common : mapUnknownHook(hook, AGENT);
}
