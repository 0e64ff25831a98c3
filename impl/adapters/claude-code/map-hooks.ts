/**
 * Claude Code hook → AEP event, the pure half of the adapter (AEP-0002 Annex A.1).
 *
 * `mapHook(input, posture = DEFAULT_POSTURE)` returns `{type, data, subject?}` or null (a deliberate silence).
 * Envelope identity (session, run, seq, cause) and the held loops are runtime state in adapter.ts.
 * Every content-bearing field is produced only when the event's capture level allows it.
 *
 * Documented deviations (Annex A requires them stated in the adapter):
 * - PreCompact emits nothing; `session.compacted` fires once, at PostCompact.
 * - PermissionRequest for the AskUserQuestion tool is a `kind:"form"` request (AEP-0006), not a permission.
 * - Notification `permission_prompt` / `elicitation_dialog` emit nothing: the first-class
 *   PermissionRequest / Elicitation hooks already raise that request (one request, never two).
 * - ElicitationResult maps to nothing on its own: it settles a pending Elicitation (answered `via:"oob"`)
 *   at runtime, and an orphan result emits nothing (one terminal per request).
 * - SubagentStop of an internal agent (`agent_type: ""`) emits nothing: Claude Code fires no
 *   SubagentStart for those, and a stop without its start would be a lifecycle with no beginning.
 * - UserPromptSubmit's `source` sets `run.started.trigger`: `user`/`sdk` (or absent) → `user`,
 *   the scheduled wake-ups (`schedule_wakeup`, `loop_wakeup`, `poll_event`) → `schedule`,
 *   `system` (e.g. a background subagent's report) → `agent`; an unknown source sets no trigger.
 * - SessionStart carries `model` only in some modes (the TUI sends it, SDK/print mode does not on
 *   2.1.197): `gen_ai.request.model` is set when the payload has it, and absent otherwise.
 * - The newer hooks (map-newer-hooks.ts) take the mechanical fallback with their useful fields.
 *
 * Runtime rules that a pure mapping cannot state (adapter.ts, pinned by the control-loop
 * scenarios): a SessionStart for a session already open emits `x.claude-code.session.session_start`
 * instead of a second `session.started`; run identity from `prompt_id`; subagent cause links.
 */
import { isPlainObject, type CaptureLevel } from '../../core/event.js';
import { DEFAULT_POSTURE, levelFor, red } from '../../adapter-kit/capture.js';
import { ALLOW_DENY_OPTIONS, mapCommonHook, mapUnknownHook, put, str, toolRef } from '../../adapter-kit/mapping.js';
import type { HookInput, Mapped, Posture } from '../../adapter-kit/types.js';
import { mapAskUserQuestion, questionsOf } from './map-ask-user-question.js';
import { mapElicitation } from './map-elicitation.js';
import { mapNewerHook } from './map-newer-hooks.js';
import { AGENT_NAME } from './agent.js';

export const AGENT = AGENT_NAME;

/** The options of every Claude Code permission request: allow/deny, structural at any ceiling. */
export const PERMISSION_OPTIONS = ALLOW_DENY_OPTIONS;

/** The one-line human summary of a tool call used in permission prompts. */
function toolSummary(toolInput: unknown): string {
  if (!isPlainObject(toolInput)) return '';
  const what = str(toolInput.command) ?? str(toolInput.file_path) ?? str(toolInput.url) ?? str(toolInput.pattern) ?? str(toolInput.path);
  const why = str(toolInput.description);
  return [what ? ` — ${what}` : '', why ? ` (${why})` : ''].join('');
}

/** `attention.requested` for a PermissionRequest (permission, or the AskUserQuestion form). */
export function mapPermissionRequest(input: HookInput, posture: Posture): Mapped {
  const level = levelFor('attention.requested', posture);
  const contentOk = level === 'redacted' || level === 'full';
  const tool = str(input.tool_name) ?? 'unknown';
  if (tool === 'AskUserQuestion') {
    const { prompt, fields } = mapAskUserQuestion(questionsOf(input.tool_input), { agent: AGENT, contentOk });
    return { type: 'attention.requested', data: { kind: 'form', prompt, fields, respond_via: ['control'] }, subject: tool };
  }
  const prompt = contentOk
    ? (red(`Permission requested: ${tool}${toolSummary(input.tool_input)}`, level) as string)
    : `${AGENT} requests permission: ${tool}`;
  return {
    type: 'attention.requested',
    data: { kind: 'permission', prompt, options: PERMISSION_OPTIONS.map((o) => ({ ...o })), respond_via: ['control'] },
    subject: tool,
  };
}

/** The outcomes of a URL-mode elicitation (answered in Claude Code's UI, reported by ElicitationResult). */
export const URL_OPTIONS = Object.freeze([Object.freeze({ id: 'accept', label: 'Accept' }), Object.freeze({ id: 'decline', label: 'Decline' })]);

/** `run.started.trigger` by UserPromptSubmit `source`; absent source = a person typed it. */
const PROMPT_TRIGGERS: Readonly<Record<string, string>> = {
  user: 'user',
  sdk: 'user',
  schedule_wakeup: 'schedule',
  loop_wakeup: 'schedule',
  poll_event: 'schedule',
  system: 'agent',
};

const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);

/** `attention.requested` for an Elicitation: a held form, or (URL mode) an out-of-band request. */
export function mapElicitationHook(input: HookInput, posture: Posture): Mapped {
  const level = levelFor('attention.requested', posture);
  const contentOk = level === 'redacted' || level === 'full';
  const server = str(input.mcp_server_name);
  const subject = server ? { subject: server } : {};
  if (input.mode === 'url' || (!isPlainObject(input.requested_schema) && str(input.url))) {
    const prompt = contentOk && str(input.message) ? (red(input.message as string, level) as string) : `${AGENT} requests auth: ${server ?? 'mcp'}`;
    return { type: 'attention.requested', data: { kind: 'auth', prompt, options: URL_OPTIONS.map((o) => ({ ...o })), respond_via: ['oob'] }, ...subject };
  }
  const { prompt, fields } = mapElicitation(input.message, input.requested_schema, { agent: AGENT, contentOk });
  return { type: 'attention.requested', data: { kind: 'form', prompt, fields, respond_via: ['control'] }, ...subject };
}

const SESSION_END_REASONS: Record<string, string> = { clear: 'normal', logout: 'normal', prompt_input_exit: 'normal', other: 'normal' };

/** What a per-hook mapper reads: the payload, its hook name, the posture and the capture level of a type. */
interface HookMapContext {
  input: HookInput;
  hook: string;
  posture: Posture;
  at: (type: string) => CaptureLevel;
}

/** One hook's mapping: an event, null (a deliberate silence), or undefined (no own rule: fall through). */
type HookMapper = (c: HookMapContext) => Mapped | null | undefined;

type Data = Record<string, unknown>;

/** The hooks whose own mapping comes before the kit's common one (they refine or veto it). */
const BEFORE_COMMON: Readonly<Record<string, HookMapper>> = {
  /** `run.started`: the `source` as `trigger` (absent → `user`), the prompt by capture level. */
  UserPromptSubmit: ({ input, at }) => {
    const data: Data = {};
    const source = str(input.source);
    put(data, 'trigger', source === undefined ? 'user' : PROMPT_TRIGGERS[source]);
    put(data, 'prompt', str(input.prompt) && red(input.prompt as string, at('run.started')));
    return { type: 'run.started', data };
  },
  /** `run.finished`: the last assistant message as the summary, by capture level. */
  Stop: ({ input, at }) => {
    const data: Data = {};
    put(data, 'summary', str(input.last_assistant_message) && red(input.last_assistant_message as string, at('run.finished')));
    return { type: 'run.finished', data };
  },
  /** An internal agent's stop (`agent_type: ""`) emits nothing; any other takes the common mapping. */
  SubagentStop: ({ input }) => (input.agent_type === '' ? null : undefined),
  /** The common `tool.completed` with the `duration_ms` Claude Code reports. */
  PostToolUse: ({ hook, input, posture }) => {
    const mapped = mapCommonHook(hook, input, AGENT, posture)!;
    put(mapped.data, 'duration_ms', int(input.duration_ms));
    return mapped;
  },
};

/** The hooks neither the common nor the newer-hook mapping covers, each with its own rule. */
const OWN: Readonly<Record<string, HookMapper>> = {
  /** `session.ended`: every known reason is `normal`. */
  SessionEnd: ({ input }) => ({ type: 'session.ended', data: { reason: SESSION_END_REASONS[str(input.reason) ?? 'other'] ?? 'normal' } }),
  /** `run.failed{reason:"error"}` with the error type and its detail by capture level. */
  StopFailure: ({ input, at }) => {
    const error: Data = {};
    put(error, 'type', str(input.error));
    const detail = str(input.error_details) ?? str(input.error_message);
    put(error, 'message', detail && red(detail, at('run.failed')));
    const data: Data = { reason: 'error' };
    if (Object.keys(error).length > 0) data.error = error;
    return { type: 'run.failed', data };
  },
  /** `tool.failed`: an interrupt as the error type, the error text by capture level, the duration. */
  PostToolUseFailure: ({ input, at }) => {
    const tool = toolRef(input);
    const error: Data = {};
    if (input.is_interrupt === true) error.type = 'interrupted';
    put(error, 'message', str(input.error) && red(input.error as string, at('tool.failed')));
    const data: Data = { tool, error };
    put(data, 'duration_ms', int(input.duration_ms));
    return { type: 'tool.failed', data, subject: tool.name };
  },
  /** `tool.denied{by:"policy"}`. */
  PermissionDenied: ({ input }) => {
    const tool = toolRef(input);
    return { type: 'tool.denied', data: { tool, by: 'policy' }, subject: tool.name };
  },
  /** `attention.requested`: a permission, or the AskUserQuestion form. */
  PermissionRequest: ({ input, posture }) => mapPermissionRequest(input, posture),
  /** `attention.requested`: a held form, or (URL mode) an out-of-band request. */
  Elicitation: ({ input, posture }) => mapElicitationHook(input, posture),
  /** Nothing: it settles a pending Elicitation at runtime. */
  ElicitationResult: () => null,
  /** `progress.status`; the permission/elicitation prompts emit nothing (their own hooks raise the request). */
  Notification: ({ input, at }) => {
    const kind = str(input.notification_type);
    if (kind === 'permission_prompt' || kind === 'elicitation_dialog') return null;
    const data: Data = {};
    put(data, 'phase', kind);
    put(data, 'message', str(input.message) && red(input.message as string, at('progress.status')));
    return { type: 'progress.status', data };
  },
  /** `progress.task.planned`. */
  TaskCreated: (c) => task('progress.task.planned', c),
  /** `progress.task.completed{status:"completed"}`. */
  TaskCompleted: (c) => task('progress.task.completed', c),
  /** `agent.idle{reason:"teammate_idle"}`. */
  TeammateIdle: () => ({ type: 'agent.idle', data: { reason: 'teammate_idle' } }),
};

/** A task moment: the task's id and its subject as the title, by capture level. */
function task(type: string, { input, hook, at }: HookMapContext): Mapped {
  const t: Data = {};
  put(t, 'id', str(input.task_id));
  put(t, 'title', str(input.task_subject) && red(input.task_subject as string, at(type)));
  const data: Data = { task: t };
  if (hook === 'TaskCompleted') data.status = 'completed';
  return { type, data };
}

/**
 * The pure mapping of one Claude Code hook payload; null where the adapter deliberately emits nothing.
 * Precedence: a hook's own rule before the common mapping, the kit's common mapping, the newer
 * hooks, the hooks with their own rule, the fallback.
 */
export function mapHook(input: HookInput, posture: Posture = DEFAULT_POSTURE): Mapped | null {
  const hook = str(input.hook_event_name) ?? 'Unknown';
  const c: HookMapContext = { input, hook, posture, at: (type) => levelFor(type, posture) };
  if (Object.hasOwn(BEFORE_COMMON, hook)) {
    const own = BEFORE_COMMON[hook]!(c);
    if (own !== undefined) return own;
  }
  const common = mapCommonHook(hook, input, AGENT, posture);
  if (common !== undefined) return common;
  const newer = mapNewerHook(hook, input, posture);
  if (newer !== undefined) return newer;
  if (Object.hasOwn(OWN, hook)) return OWN[hook]!(c) ?? null;
  return mapUnknownHook(hook, AGENT);
}
