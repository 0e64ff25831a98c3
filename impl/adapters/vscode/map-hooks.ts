/**
 * VS Code agent (Copilot) hook → AEP event, the pure half of the VS Code adapter (AEP-0002 Annex A.5).
 *
 * `mapHook(input, posture?)` returns `{type, data, subject?}` or null. The VS Code agent adopted
 * the Claude Code hook contract: the eight events of its Local (extension host) harness arrive
 * with Claude-Code-shaped stdin. Envelope identity (session optional; runs synthesized per
 * UserPromptSubmit) and the opt-in PreToolUse gate are runtime state in adapter.ts.
 *
 * | VS Code hook | AEP type |
 * |---|---|
 * | SessionStart | `session.started` (model, agent type) |
 * | UserPromptSubmit / Stop | `run.started` / `run.finished` |
 * | PreToolUse / PostToolUse | `tool.requested` / `tool.completed` |
 * | PreCompact | `session.compacted` |
 * | SubagentStart / SubagentStop | `delegation.subagent.started` / `.stopped` |
 * | anything else | `x.vscode.session.<snake_case(hook)>` |
 *
 * Documented deviations and absences (Annex A requires them stated in the adapter):
 * - PreCompact is the only compaction moment this surface exposes (no PostCompact): the event
 *   is emitted at the pre moment.
 * - PostToolUse fires on success only, and the surface has no session end and no run failure:
 *   `tool.failed`, `session.ended` and `run.failed` never come from this adapter.
 * - `transcript_path` (a workstation-local path) and the envelope `timestamp` never ride.
 * - Casing: the standard's pin uses `hook_event_name`/`session_id`; the VS Code Local harness
 *   (Sept 2026 docs) sends `hookEventName`/`sessionId` beside snake_case tool fields. Both are read.
 * - The Copilot harness's lowerCamel events (`preToolUse`, `agentStop`, ...) are a different
 *   contract; they land on the fallback (`x.vscode.session.pre_tool_use`, ...), never on a core type.
 */
import { DEFAULT_POSTURE } from '../../adapter-kit/capture.js';
import { heldPermissionRequest, mapCommonHook, mapUnknownHook, put, str } from '../../adapter-kit/mapping.js';
import { isPlainObject } from '../../core/event.js';
import type { HookInput, Mapped, Posture } from '../../adapter-kit/types.js';

export const AGENT = 'vscode';

/** The hook's name, from either casing the vendor uses. */
export function hookName(input: HookInput): string | undefined {
  return str(input.hook_event_name) ?? str(input.hookEventName);
}

/** The session, from either casing; the adapter's `unknown` lane when absent (it is optional on this surface). */
export function sessionOf(input: HookInput): string {
  return str(input.session_id) ?? str(input.sessionId) ?? 'unknown';
}

/** ` — <path or command>`, the human summary of a gated tool call. */
function toolSummary(toolInput: unknown): string {
  if (!isPlainObject(toolInput)) return '';
  const what = str(toolInput.command) ?? str(toolInput.filePath) ?? str(toolInput.file_path) ?? str(toolInput.path) ?? str(toolInput.url);
  return what ? ` — ${what}` : '';
}

/** The gate's options: the vendor's own three PreToolUse decisions. */
export const GATE_OPTIONS = Object.freeze([
  Object.freeze({ id: 'allow', label: 'Allow' }),
  Object.freeze({ id: 'deny', label: 'Deny' }),
  Object.freeze({ id: 'ask', label: 'Ask in VS Code' }),
]);

/** `attention.requested` for a gated PreToolUse (runtime only, under `AEP_VSCODE_CONTROL=1`). */
export function mapGateRequest(input: HookInput, posture: Posture = DEFAULT_POSTURE): Mapped {
  return heldPermissionRequest(AGENT, input, toolSummary(input.tool_input), posture, GATE_OPTIONS);
}

/** The pure mapping of one VS Code hook payload. */
export function mapHook(input: HookInput, posture: Posture = DEFAULT_POSTURE): Mapped | null {
  const hook = hookName(input) ?? 'Unknown';
  switch (hook) {
    case 'SessionStart': {
      const mapped = mapCommonHook(hook, input, AGENT, posture)!;
      put(mapped.data, 'agent_type', str(input.agent_type));
      return mapped;
    }
    case 'PreCompact': {
      const data: Record<string, unknown> = {};
      put(data, 'trigger', str(input.trigger));
      return { type: 'session.compacted', data };
    }
    case 'UserPromptSubmit':
    case 'Stop':
    case 'PreToolUse':
    case 'PostToolUse':
    case 'SubagentStart':
    case 'SubagentStop':
      return mapCommonHook(hook, input, AGENT, posture)!;
    default:
      return mapUnknownHook(hook, AGENT);
  }
}
