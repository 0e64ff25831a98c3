/**
 * Codex hook → AEP event, the pure half of the Codex adapter (AEP-0002 Annex A.2).
 *
 * `mapHook(input, posture?)` returns `{type, data, subject?}` or null (a deliberate silence).
 * `input` is the hook JSON Codex writes to the command's stdin; the hook is named by its
 * `hook_event_name`. `posture` defaults to the adapter's default (metadata; attention.* redacted).
 * Envelope identity (`session_id` → session, `turn_id` → run), cause links, run bookkeeping
 * (which turn is open, which already reached its terminal) and the held PermissionRequest loop
 * are runtime state in adapter.ts.
 *
 * The twelve hooks of Codex 0.171.0 (its embedded `*.command.input` schemas), plus StopFailure:
 *
 * | Codex hook | AEP type |
 * |---|---|
 * | SessionStart / SessionEnd | `session.started` / `session.ended` (`reason: normal`) |
 * | UserPromptSubmit | `run.started` (nothing for a subagent's prompt: `agent_id` set) |
 * | Stop / Interrupt / StopFailure | `run.finished` / `run.cancelled {by:"user"}` / `run.failed {reason:"error"}` |
 * | PreToolUse / PostToolUse | `tool.requested` / `tool.completed` |
 * | PermissionRequest | `attention.requested` (kind permission, allow/deny) |
 * | SubagentStart / SubagentStop | `delegation.subagent.started` / `.stopped` |
 * | PreCompact / PostCompact | nothing / `session.compacted` |
 * | anything else | `x.codex.session.<snake_case(hook)>` |
 *
 * Payload drift absorbed: Codex 0.171.0 names its shell tool `Bash` with `tool_input.command` a
 * string (older builds and the standard's pin: `shell` with an argv array); both map the same
 * way. Fields no mapping reads (`model` outside SessionStart, `permission_mode`,
 * `transcript_path`, `stop_hook_active`, `last_assistant_message`, anything new) are ignored,
 * never an error.
 *
 * Documented deviations (Annex A requires them stated in the adapter):
 * - PreCompact emits nothing; `session.compacted` fires once, at PostCompact.
 * - Codex has no tool-failure hook: a failed command still lands on `tool.completed`;
 *   `tool.failed` stays reserved for runtime-reported failures.
 * - Codex 0.171.0 has no StopFailure hook (an API error ends the turn with no hook at all); the
 *   mapping exists for builds that send one, with Claude Code's payload shape (`error`,
 *   `error_details`/`error_message`).
 * - A subagent's UserPromptSubmit (Codex sends the parent's `session_id` with `agent_id`) opens
 *   no run: the delegation pair carries the subagent.
 */
import { isPlainObject } from '../../core/event.js';
import { DEFAULT_POSTURE, levelFor, red } from '../../adapter-kit/capture.js';
import { ALLOW_DENY_OPTIONS, heldPermissionRequest, mapCommonHook, mapUnknownHook, put, str } from '../../adapter-kit/mapping.js';
import type { HookInput, Mapped, Posture } from '../../adapter-kit/types.js';

export const AGENT = 'codex';

/** The options of every Codex permission request: allow/deny, structural at any ceiling. */
export const PERMISSION_OPTIONS = ALLOW_DENY_OPTIONS;

/** The command of a tool call as one line: Codex sends it as a string or as an argv array. */
function commandLine(command: unknown): string | undefined {
  if (Array.isArray(command) && command.every((c) => typeof c === 'string')) return str(command.join(' '));
  return str(command);
}

/** ` — <command> (<description>)`, the human summary of a tool call in a permission prompt. */
function toolSummary(toolInput: unknown): string {
  if (!isPlainObject(toolInput)) return '';
  const what = commandLine(toolInput.command) ?? str(toolInput.file_path) ?? str(toolInput.path);
  const why = str(toolInput.description) ?? str(toolInput.justification);
  return `${what ? ` — ${what}` : ''}${why ? ` (${why})` : ''}`;
}

/**
 * `attention.requested` for a PermissionRequest. The prompt is the hook's own text at
 * redacted and above (through the §9.4 pipeline); at metadata it is synthesized from structure.
 */
export function mapPermissionRequest(input: HookInput, posture: Posture = DEFAULT_POSTURE): Mapped {
  return heldPermissionRequest(AGENT, input, toolSummary(input.tool_input), posture, PERMISSION_OPTIONS);
}

/** `run.failed` for a StopFailure: the error's kind is metadata, its detail gated like any message. */
function mapStopFailure(input: HookInput, posture: Posture): Mapped {
  const error: Record<string, unknown> = {};
  put(error, 'type', str(input.error) ?? str(input.error_type));
  const detail = str(input.error_details) ?? str(input.error_message);
  put(error, 'message', detail && red(detail, levelFor('run.failed', posture)));
  const data: Record<string, unknown> = { reason: 'error' };
  if (Object.keys(error).length > 0) data.error = error;
  return { type: 'run.failed', data };
}

/** The pure mapping of one Codex hook payload; null where the adapter deliberately emits nothing. */
export function mapHook(input: HookInput, posture: Posture = DEFAULT_POSTURE): Mapped | null {
  const hook = str(input.hook_event_name) ?? 'Unknown';
  switch (hook) {
    case 'PermissionRequest':
      return mapPermissionRequest(input, posture);
    case 'UserPromptSubmit':
      if (str(input.agent_id)) return null;
      break;
    case 'SessionEnd':
      // Codex sends one reason, "other", for every ending (0.171.0 schema: a constant).
      return { type: 'session.ended', data: { reason: 'normal' } };
    case 'Interrupt':
      // Codex fires Interrupt when the user stops the running turn.
      return { type: 'run.cancelled', data: { by: 'user' } };
    case 'StopFailure':
      return mapStopFailure(input, posture);
  }
  const common = mapCommonHook(hook, input, AGENT, posture);
  return common !== undefined ? common : mapUnknownHook(hook, AGENT);
}
