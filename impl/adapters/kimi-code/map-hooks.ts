/**
 * Kimi Code CLI hook → AEP event, the pure half of the Kimi Code adapter (AEP-0002 Annex A.6 and
 * the Kimi Code design record).
 *
 * `mapHook(input, posture?)` returns `{type, data, subject?}` or null. `input` is the snake_case
 * JSON Kimi Code writes to the command's stdin, named by its `hook_event_name`. Envelope identity
 * (`session_id`, or `unknown`; runs synthesized per UserPromptSubmit), the subjects and cause links
 * of the observed permission pair, and the opt-in PreToolUse gate are runtime state in adapter.ts.
 *
 * | Kimi hook | AEP type |
 * |---|---|
 * | SessionStart / SessionEnd | `session.started` / `session.ended` (`exit`, `archive` → `normal`) |
 * | UserPromptSubmit | `run.started`; with `is_steer`, `x.kimi-code.run.steer_submitted` |
 * | Stop / StopFailure / Interrupt | `run.finished` / `run.failed` / `run.cancelled{by:"user"}` |
 * | PreToolUse / PostToolUse / PostToolUseFailure | `tool.requested` / `tool.completed` / `tool.failed` |
 * | PermissionRequest | `attention.requested{kind:"permission", respond_via:["oob"]}`, no options |
 * | PermissionResult | `attention.answered{via:"oob"}`; `cancelled` → `attention.resolved{dismissed}`; `error` → the fallback |
 * | SubagentStart / SubagentStop | `delegation.subagent.started` / `.stopped` (subject: `agent_name`) |
 * | PreCompact / PostCompact | `x.kimi-code.session.pre_compact` / `session.compacted` |
 * | Notification | `progress.status` (subject: `notification_type`) |
 * | anything else (2.x: UserPromptQueued, TurnStarted, SessionHeartbeat, TaskStarted, ...) | `x.kimi-code.session.<snake_case(hook)>` |
 *
 * Documented deviations (Annex A requires them stated in the adapter):
 * - The permission pair is observed, never answered: the vendor's TUI owns the choice, so the
 *   request claims no options and declares `respond_via:["oob"]`; the human's answer arrives as
 *   PermissionResult (`decision` → `answer.option` verbatim, `feedback` → `answer.text`).
 * - A steer submission (`is_steer`) rides the running turn: it never opens a run.
 * - PreCompact degrades to the vendor namespace; the post moment is the one `session.compacted`.
 * - PermissionResult `error` is an internal gate failure, not an answer: the fallback type.
 * - Notification is background-task status only, never an attention request.
 * - `cwd`, `stop_hook_active` and `turn_id` never ride (workstation path, loop plumbing, and one
 *   id authority: the synthesized run).
 */
import { isPlainObject, type CaptureLevel } from '../../core/event.js';
import { DEFAULT_POSTURE, levelFor, red } from '../../adapter-kit/capture.js';
import { mapCommonHook, mapUnknownHook, put, str } from '../../adapter-kit/mapping.js';
import { oobPermissionData } from '../../adapter-kit/observed-cards.js';
import type { HookInput, Mapped, Posture } from '../../adapter-kit/types.js';

export const AGENT = 'kimi-code';

const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);

/** The prompt's text: a string, or the text parts of a content-part array joined by newlines. */
export function promptText(prompt: unknown): string | undefined {
  if (typeof prompt === 'string') return str(prompt);
  if (!Array.isArray(prompt)) return undefined;
  const parts = prompt.filter((p) => isPlainObject(p) && p.type === 'text' && typeof p.text === 'string').map((p) => (p as { text: string }).text);
  return str(parts.join('\n'));
}

/** Kimi's tool fields in the shape the kit's tool mapping reads (`tool_call_id`, `tool_output`). */
function toolShaped(input: HookInput): HookInput {
  const out: HookInput = { ...input };
  delete out.tool_use_id;
  delete out.tool_response;
  if (input.tool_call_id !== undefined) out.tool_use_id = input.tool_call_id;
  if (input.tool_output !== undefined) out.tool_response = input.tool_output;
  return out;
}

/** The `tool` object of a Kimi tool or permission moment. */
export function kimiToolRef(input: HookInput): { name: string; call_id?: string } {
  const ref: { name: string; call_id?: string } = { name: str(input.tool_name) ?? 'unknown' };
  const call = str(input.tool_call_id);
  if (call) ref.call_id = call;
  return ref;
}

/** ` — <command or path>`: the summary of a tool call in a synthesized prompt. */
function toolSummary(toolInput: unknown): string {
  if (!isPlainObject(toolInput)) return '';
  const what = str(toolInput.command) ?? str(toolInput.path) ?? str(toolInput.file_path);
  return what ? ` — ${what}` : '';
}

/** The prompt of a permission request or gate: the vendor's own `display` text at redacted+, else synthesized. */
export function permissionPrompt(input: HookInput, level: CaptureLevel): string {
  const tool = str(input.tool_name) ?? 'unknown';
  const text = str(input.display) ?? `Permission requested: ${tool}${toolSummary(input.tool_input)}`;
  return red(text, level) ?? `${AGENT} requests permission: ${tool}`;
}

/** What a per-hook handler reads: the payload, its hook name, the posture and the capture level of a type. */
interface HookMapContext {
  input: HookInput;
  hook: string;
  posture: Posture;
  at: (type: string) => CaptureLevel;
}

/** One Kimi Code hook's mapping; null where the adapter deliberately emits nothing. */
type HookMapper = (c: HookMapContext) => Mapped | null;

type Data = Record<string, unknown>;

/** `delegation.subagent.started` / `.stopped`, subject `agent_name`. */
function subagent(type: string, input: HookInput): Mapped {
  const data: Data = {};
  const name = str(input.agent_name);
  return name ? { type, data, subject: name } : { type, data };
}

/** The kit's tool mapping over Kimi's tool fields. */
const commonTool: HookMapper = ({ hook, input, posture }) => mapCommonHook(hook, toolShaped(input), AGENT, posture)!;

/** The per-hook mappers, one per row of the table in the header. */
const MAPPERS: Readonly<Record<string, HookMapper>> = {
  /** `session.started`: the source as `trigger`, the model. */
  SessionStart: ({ input }) => {
    const data: Data = {};
    put(data, 'trigger', str(input.source));
    put(data, 'gen_ai.request.model', str(input.model));
    return { type: 'session.started', data };
  },
  /** `session.ended`: every Kimi end (`exit`, `archive`) is `normal`. */
  SessionEnd: () => ({ type: 'session.ended', data: { reason: 'normal' } }),
  /** `run.started` (the prompt text by capture level); a steer submission rides the running turn. */
  UserPromptSubmit: ({ input, at }) => {
    if (input.is_steer === true) return { type: `x.${AGENT}.run.steer_submitted`, data: {} };
    const data: Data = { trigger: 'user' };
    const text = promptText(input.prompt);
    put(data, 'prompt', text && red(text, at('run.started')));
    return { type: 'run.started', data };
  },
  /** `run.finished`. */
  Stop: () => ({ type: 'run.finished', data: {} }),
  /** `run.failed`: the error type as the reason (or `error`), the message by capture level. */
  StopFailure: ({ input, at }) => {
    const kind = str(input.error_type);
    const data: Data = { reason: kind ?? 'error' };
    const error: Data = {};
    put(error, 'type', kind);
    put(error, 'message', str(input.error_message) && red(input.error_message as string, at('run.failed')));
    if (Object.keys(error).length > 0) data.error = error;
    return { type: 'run.failed', data };
  },
  /** `run.cancelled{by:"user"}`. */
  Interrupt: () => ({ type: 'run.cancelled', data: { by: 'user' } }),
  /** `tool.requested`. */
  PreToolUse: commonTool,
  /** `tool.completed`. */
  PostToolUse: commonTool,
  /** `tool.failed`: the error object's name/type and message, or the error string as the message. */
  PostToolUseFailure: ({ input, at }) => {
    const tool = kimiToolRef(input);
    const error: Data = {};
    const e = input.error;
    if (isPlainObject(e)) {
      put(error, 'type', str(e.name) ?? str(e.type));
      put(error, 'message', str(e.message) && red(e.message as string, at('tool.failed')));
    } else {
      put(error, 'message', str(e) && red(e as string, at('tool.failed')));
    }
    return { type: 'tool.failed', data: { tool, error }, subject: tool.name };
  },
  /** `attention.requested{kind:"permission", respond_via:["oob"]}`, no options (observed, never answered). */
  PermissionRequest: ({ input, at }) => ({
    type: 'attention.requested',
    data: oobPermissionData(permissionPrompt(input, at('attention.requested'))),
    subject: str(input.tool_name) ?? 'unknown',
  }),
  /** `attention.answered{via:"oob"}`; `cancelled` → `attention.resolved{dismissed}`; `error` (or none) → the fallback. */
  PermissionResult: ({ input, hook, at }) => {
    const decision = str(input.decision);
    if (decision === 'cancelled') return { type: 'attention.resolved', data: { resolution: 'dismissed' } };
    if (decision === undefined || decision === 'error') return mapUnknownHook(hook, AGENT);
    const answer: Data = { option: decision };
    put(answer, 'text', str(input.feedback) && red(input.feedback as string, at('attention.answered')));
    const data: Data = { answer, via: 'oob' };
    put(data, 'label', str(input.selected_label));
    return { type: 'attention.answered', data };
  },
  /** `delegation.subagent.started`. */
  SubagentStart: ({ input }) => subagent('delegation.subagent.started', input),
  /** `delegation.subagent.stopped`. */
  SubagentStop: ({ input }) => subagent('delegation.subagent.stopped', input),
  /** The vendor namespace (`x.kimi-code.session.pre_compact`) with the trigger and token count. */
  PreCompact: ({ input, hook }) => {
    const data: Data = {};
    put(data, 'trigger', str(input.trigger));
    put(data, 'token_count', count(input.token_count));
    return { ...mapUnknownHook(hook, AGENT), data };
  },
  /** `session.compacted` with the trigger and the estimated token count. */
  PostCompact: ({ input }) => {
    const data: Data = {};
    put(data, 'trigger', str(input.trigger));
    put(data, 'estimated_token_count', count(input.estimated_token_count));
    return { type: 'session.compacted', data };
  },
  /** `progress.status` (background-task status), subject `notification_type`. */
  Notification: ({ input, at }) => {
    const data: Data = {};
    put(data, 'severity', str(input.severity));
    put(data, 'message', str(input.title) && red(input.title as string, at('progress.status')));
    const kind = str(input.notification_type);
    return kind ? { type: 'progress.status', data, subject: kind } : { type: 'progress.status', data };
  },
};

/** The pure mapping of one Kimi Code hook payload. */
export function mapHook(input: HookInput, posture: Posture = DEFAULT_POSTURE): Mapped | null {
  const hook = str(input.hook_event_name) ?? 'Unknown';
  const at = (type: string): CaptureLevel => levelFor(type, posture);
  if (Object.hasOwn(MAPPERS, hook)) return MAPPERS[hook]!({ input, hook, posture, at });
  return mapUnknownHook(hook, AGENT);
}
