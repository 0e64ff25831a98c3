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
import { digest } from '../core/digest.js';
import { redactValue } from '../core/redact.js';
import { isPlainObject, type CaptureLevel } from '../core/event.js';
import { DEFAULT_POSTURE, levelFor, red } from '../adapter-kit/capture.js';
import type { HookInput, Mapped, Posture } from '../adapter-kit/types.js';
import { snakeCase } from '../adapter-claude-code/map-hooks.js';

export const AGENT = 'codex';

/** The options of every Codex permission request: adapter constants, structural at any ceiling. */
export const PERMISSION_OPTIONS = Object.freeze([
  Object.freeze({ id: 'allow', label: 'Allow' }),
  Object.freeze({ id: 'deny', label: 'Deny' }),
]);

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function put(data: Record<string, unknown>, key: string, value: unknown): void {
  if (value !== undefined) data[key] = value;
}

function toolRef(input: HookInput): { name: string; call_id?: string } {
  const ref: { name: string; call_id?: string } = { name: str(input.tool_name) ?? 'unknown' };
  const call = str(input.tool_use_id);
  if (call) ref.call_id = call;
  return ref;
}

/** An object-or-string payload at `full` verbatim, at `redacted` through the pipeline, else absent. */
function content(value: unknown, level: CaptureLevel): unknown {
  if (value === undefined || level === 'none' || level === 'metadata') return undefined;
  if (level === 'full') return value;
  return typeof value === 'string' ? red(value, level) : redactValue(value, { pii: true });
}

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
  const at = (type: string): CaptureLevel => levelFor(type, posture);
  const data: Record<string, unknown> = {};
  switch (hook) {
    case 'SessionStart':
      data.client = { name: AGENT };
      put(data, 'trigger', str(input.source));
      put(data, 'gen_ai.request.model', str(input.model));
      put(data, 'cwd', str(input.cwd) && red(input.cwd as string, at('session.started')));
      return { type: 'session.started', data };
    case 'UserPromptSubmit':
      data.trigger = 'user';
      put(data, 'prompt', str(input.prompt) && red(input.prompt as string, at('run.started')));
      return { type: 'run.started', data };
    case 'Stop':
      return { type: 'run.finished', data };
    case 'PreToolUse': {
      data.tool = toolRef(input);
      if (input.tool_input !== undefined) data.args_digest = digest(input.tool_input);
      const level = at('tool.requested');
      if (level === 'full') put(data, 'args', input.tool_input);
      else put(data, 'args_redacted', content(input.tool_input, level));
      return { type: 'tool.requested', data, subject: (data.tool as { name: string }).name };
    }
    case 'PostToolUse': {
      data.tool = toolRef(input);
      if (input.tool_response !== undefined) data.result_digest = digest(input.tool_response);
      const level = at('tool.completed');
      if (level === 'full') put(data, 'result', input.tool_response);
      else put(data, 'result_redacted', content(input.tool_response, level));
      return { type: 'tool.completed', data, subject: (data.tool as { name: string }).name };
    }
    case 'PermissionRequest':
      return mapPermissionRequest(input, posture);
    case 'SubagentStart':
    case 'SubagentStop': {
      put(data, 'agent_type', str(input.agent_type));
      const agentId = str(input.agent_id);
      const type = hook === 'SubagentStart' ? 'delegation.subagent.started' : 'delegation.subagent.stopped';
      return agentId ? { type, data, subject: agentId } : { type, data };
    }
    case 'PreCompact':
      return null;
    case 'PostCompact':
      put(data, 'trigger', str(input.trigger));
      return { type: 'session.compacted', data };
    default:
      return { type: `x.${AGENT}.session.${snakeCase(hook)}`, data };
  }
}
