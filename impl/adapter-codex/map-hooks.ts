/**
 * Codex hook → AEP event, the pure half of the Codex adapter (AEP-0002 Annex A.2).
 *
 * `mapHook(input, posture?)` returns `{type, data, subject?}` or null (a deliberate silence).
 * `input` is the hook JSON Codex writes to the command's stdin; the hook is named by its
 * `hook_event_name`. `posture` defaults to the adapter's default (metadata; attention.* redacted).
 * Envelope identity (`session_id` → session, `turn_id` → run), cause links and the held
 * PermissionRequest loop are runtime state in adapter.ts.
 *
 * The ten hooks and their types:
 *
 * | Codex hook | AEP type |
 * |---|---|
 * | SessionStart / UserPromptSubmit / Stop | `session.started` / `run.started` / `run.finished` |
 * | PreToolUse / PostToolUse | `tool.requested` / `tool.completed` |
 * | PermissionRequest | `attention.requested` (kind permission, allow/deny) |
 * | SubagentStart / SubagentStop | `delegation.subagent.started` / `.stopped` |
 * | PreCompact / PostCompact | nothing / `session.compacted` |
 * | anything else | `x.codex.session.<snake_case(hook)>` |
 *
 * Documented deviations (Annex A requires them stated in the adapter):
 * - PreCompact emits nothing; `session.compacted` fires once, at PostCompact.
 * - Codex has no tool-failure hook: a failed command still lands on `tool.completed`;
 *   `tool.failed` stays reserved for runtime-reported failures.
 * - Codex has no session-end hook: this adapter never emits `session.ended`.
 */
import { isPlainObject } from '../core/event.js';
import { DEFAULT_POSTURE, levelFor, red } from '../adapter-kit/capture.js';
import { ALLOW_DENY_OPTIONS, mapCommonHook, mapUnknownHook, str } from '../adapter-kit/mapping.js';
import type { HookInput, Mapped, Posture } from '../adapter-kit/types.js';

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
  const level = levelFor('attention.requested', posture);
  const tool = str(input.tool_name) ?? 'unknown';
  const text = red(`Permission requested: ${tool}${toolSummary(input.tool_input)}`, level);
  return {
    type: 'attention.requested',
    data: {
      kind: 'permission',
      prompt: text ?? `${AGENT} requests permission: ${tool}`,
      options: PERMISSION_OPTIONS.map((o) => ({ ...o })),
      respond_via: ['control'],
    },
    subject: tool,
  };
}

/** The pure mapping of one Codex hook payload; null where the adapter deliberately emits nothing. */
export function mapHook(input: HookInput, posture: Posture = DEFAULT_POSTURE): Mapped | null {
  const hook = str(input.hook_event_name) ?? 'Unknown';
  if (hook === 'PermissionRequest') return mapPermissionRequest(input, posture);
  const common = mapCommonHook(hook, input, AGENT, posture);
  return common !== undefined ? common : mapUnknownHook(hook, AGENT);
}
