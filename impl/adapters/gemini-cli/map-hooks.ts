/**
 * Gemini CLI hook → AEP event, the pure half of the Gemini CLI adapter (AEP-0002 Annex A.3).
 *
 * `mapHook(input, posture?)` returns `{type, data, subject?}` or null. `input` is the hook JSON
 * Gemini CLI writes to the command's stdin, named by its `hook_event_name`. Envelope identity
 * (`session_id` → session; runs synthesized per BeforeAgent/AfterAgent) is runtime state in adapter.ts.
 *
 * | Gemini hook | AEP type |
 * |---|---|
 * | SessionStart / SessionEnd | `session.started` / `session.ended` (every vendor reason → `normal`) |
 * | BeforeAgent / AfterAgent | `run.started` / `run.finished` |
 * | BeforeTool | `tool.requested` |
 * | AfterTool | `tool.completed`, or `tool.failed` when `tool_response.error` is set or a shell command exited non-zero |
 * | BeforeModel / AfterModel / BeforeToolSelection | `x.gemini-cli.session.*` with the model id |
 * | PreCompress | `session.compacted` |
 * | Notification | `progress.status` (subject: the notification type) |
 * | anything else | `x.gemini-cli.session.<snake_case(hook)>` |
 *
 * Documented deviations (Annex A requires them stated in the adapter):
 * - PreCompress is the vendor's only compaction moment (a pre moment), so `session.compacted` is
 *   emitted there rather than after the fact, unlike the Claude Code family's post-moment rule.
 * - Notification (`ToolPermission`) can neither grant nor deny: it is `progress.status`, never
 *   `attention.requested`; this adapter is observe-only and answers nothing.
 * - The model plane has no core type: BeforeModel, AfterModel (per streamed chunk) and
 *   BeforeToolSelection stay in the vendor namespace with the model id only.
 * - Gemini exposes no tool call id: the mapping carries the tool name only; the adapter
 *   (adapter.ts, tool-pairs.ts) mints `call_id` at BeforeTool and pairs AfterTool with it.
 * - A shell command that exits non-zero is not an error to Gemini CLI (0.61.0, seen by the
 *   real-vendors lane): `tool_response` has no `error`, only `llmContent` text ending in an
 *   `Exit Code: N` line. For `run_shell_command` that last line decides: N ≠ 0 is `tool.failed`
 *   with `error.type = "exit_code"`.
 * - The agent's reply text (`prompt_response`) is message-stream content and is never captured.
 */
import { isPlainObject, type CaptureLevel } from '../../core/event.js';
import { DEFAULT_POSTURE, levelFor, red } from '../../adapter-kit/capture.js';
import { mapCommonHook, mapUnknownHook, put, str, toolRef } from '../../adapter-kit/mapping.js';
import type { HookInput, Mapped, Posture } from '../../adapter-kit/types.js';

export const AGENT = 'gemini-cli';

/** The model-plane hooks: vendor-namespaced, model id at metadata. */
export const MODEL_PLANE = new Set(['BeforeModel', 'AfterModel', 'BeforeToolSelection']);

/** `tool.failed` for an AfterTool whose response reports an error (an object `{type, message}` or a bare string). */
function toolFailure(input: HookInput, error: unknown, level: CaptureLevel): Mapped {
  const tool = toolRef(input);
  const info: Record<string, unknown> = {};
  if (isPlainObject(error)) {
    put(info, 'type', str(error.type) ?? str(error.name) ?? str(error.code));
    put(info, 'message', str(error.message) && red(error.message as string, level));
  } else {
    put(info, 'message', str(error) && red(error as string, level));
  }
  return { type: 'tool.failed', data: { tool, error: info }, subject: tool.name };
}

/** The exit code of a `run_shell_command` response's `llmContent` (its last `Exit Code: N` line), or null. */
export function shellExitCode(input: HookInput): number | null {
  if (input.tool_name !== 'run_shell_command' || !isPlainObject(input.tool_response)) return null;
  const text = input.tool_response.llmContent;
  if (typeof text !== 'string') return null;
  const codes = [...text.matchAll(/^Exit Code: (-?\d+)\s*$/gm)];
  return codes.length ? Number(codes[codes.length - 1]![1]) : null;
}

/** The pure mapping of one Gemini CLI hook payload. */
export function mapHook(input: HookInput, posture: Posture = DEFAULT_POSTURE): Mapped | null {
  const hook = str(input.hook_event_name) ?? 'Unknown';
  const at = (type: string): CaptureLevel => levelFor(type, posture);
  switch (hook) {
    case 'SessionStart':
      return mapCommonHook('SessionStart', input, AGENT, posture) ?? null;
    case 'SessionEnd':
      // exit | clear | logout | prompt_input_exit | other: every one is an ordinary end.
      return { type: 'session.ended', data: { reason: 'normal' } };
    case 'BeforeAgent':
      return mapCommonHook('UserPromptSubmit', input, AGENT, posture) ?? null;
    case 'AfterAgent':
      return { type: 'run.finished', data: {} };
    case 'BeforeTool':
      return mapCommonHook('PreToolUse', input, AGENT, posture) ?? null;
    case 'AfterTool': {
      const response = input.tool_response;
      if (isPlainObject(response) && response.error !== undefined && response.error !== null && response.error !== '') {
        return toolFailure(input, response.error, at('tool.failed'));
      }
      const exit = shellExitCode(input);
      if (exit !== null && exit !== 0) return toolFailure(input, { type: 'exit_code', message: `exit code ${exit}` }, at('tool.failed'));
      return mapCommonHook('PostToolUse', input, AGENT, posture) ?? null;
    }
    case 'PreCompress': {
      const data: Record<string, unknown> = {};
      put(data, 'trigger', str(input.trigger));
      return { type: 'session.compacted', data };
    }
    case 'Notification': {
      const data: Record<string, unknown> = {};
      put(data, 'message', str(input.message) && red(input.message as string, at('progress.status')));
      const kind = str(input.notification_type);
      return kind ? { type: 'progress.status', data, subject: kind } : { type: 'progress.status', data };
    }
    default:
      if (MODEL_PLANE.has(hook)) {
        const data: Record<string, unknown> = {};
        put(data, 'model', isPlainObject(input.llm_request) ? str(input.llm_request.model) : undefined);
        return { ...mapUnknownHook(hook, AGENT), data };
      }
      return mapUnknownHook(hook, AGENT);
  }
}
