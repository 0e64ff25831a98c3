/**
 * pi extension-bus event → AEP event, the pure half of the pi adapter (AEP-0002 Annex A.12).
 *
 * `mapEvent({session, event}, {deltas?, posture?})` returns `{type, data, subject?, step?}` or null
 * (a deliberate silence). `event` is what pi hands the extension's `pi.on(<name>, handler)`,
 * with the event name as `event.type`; the session is read in-process by the extension
 * (`ctx.sessionManager.getSessionId()`). Run identity (one run per agent loop) and the opt-in
 * tool gate are runtime state in adapter.ts.
 *
 * | pi event | AEP type |
 * |---|---|
 * | `session_start` / `session_shutdown` | `session.started` (the typed arrival `reason`; the session file at redacted+) / `session.ended{reason:normal, vendor_reason}` (every vendor teardown is orderly; its own reason beside) |
 * | `session_compact` | `session.compacted` (typed `reason`, `will_retry`) |
 * | `agent_start` / `agent_end` | `run.started{}` / by the last assistant `stopReason` (always as `stop_reason`): `error` → `run.failed`, `aborted` → `run.cancelled` (no `by`), else `run.finished` (with usage) |
 * | `turn_start` / `turn_end` | `run.step.started` / `run.step.finished`, `step` = the `turnIndex` |
 * | `tool_execution_start` / `_end` | `tool.requested` / `tool.completed`, or `tool.failed` when `isError` |
 * | `message_start` (user) / `message_end` (assistant) | `x.pi.message.submitted` / `x.pi.message.replied` (`content_digest` of the text; the text as `content` at redacted+) |
 * | `message_update` / `tool_execution_update` | nothing; with `deltas`: `x.pi.message.delta` / `x.pi.tool.update` (`partial_digest`; the partial result at redacted+) |
 * | `agent_settled`, `session_info_changed`, `session_tree`, `model_select`, `thinking_level_select` | `x.pi.agent.settled`, `x.pi.session.info` (the name at redacted+), `x.pi.session.tree`, `x.pi.model.select`, `x.pi.thinking.select` |
 * | `tool_call` and every other interception surface | nothing (the opt-in gate is daemon state) |
 * | any other event | `x.pi.event.<type>` |
 */
import { digest } from '../../core/digest.js';
import { isPlainObject, type CaptureLevel } from '../../core/event.js';
import { DEFAULT_POSTURE, levelFor, red } from '../../adapter-kit/capture.js';
import { content, put, str } from '../../adapter-kit/mapping.js';
import type { Mapped, Posture } from '../../adapter-kit/types.js';

export const AGENT = 'pi';

/** What the extension forwards: the session id and the bus event (its name as `type`). */
export interface PiInput {
  session?: unknown;
  event?: unknown;
  /**
   * `ctx.sessionManager.getSessionFile()`, sent with `session_start`: a machine path, carried at
   * redacted+ only. (`session` may also be `{id, file, cwd}`, the standard's shape: its `file` and
   * `cwd` are read the same way.)
   */
  session_file?: unknown;
}

export interface MapOptions {
  /** The stream-update opt-in (`AEP_PI_DELTAS=1`). Default false. */
  deltas?: boolean;
  posture?: Posture;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);

/** The surfaces that can block or rewrite: never mapped as observations. */
const INTERCEPTION = new Set(['tool_call', 'tool_result', 'input', 'context', 'context_with_system', 'before_agent_start', 'before_provider_request', 'before_provider_headers', 'user_bash', 'resources_discover', 'project_trust']);

/** The vendor-scoped machinery events and their AEP types. */
const MACHINERY: Readonly<Record<string, string>> = {
  agent_settled: 'x.pi.agent.settled',
  session_info_changed: 'x.pi.session.info',
  session_tree: 'x.pi.session.tree',
  model_select: 'x.pi.model.select',
  thinking_level_select: 'x.pi.thinking.select',
};

/** `x.pi.event.<type>` with the name reduced to the type grammar's segment alphabet. */
export function unknownType(type: string): string {
  return `x.pi.event.${type.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'unknown'}`;
}

/** The last assistant message of an `agent_end`'s `messages`, if any. */
export function lastAssistant(messages: unknown): Obj | undefined {
  if (!Array.isArray(messages)) return undefined;
  for (let i = messages.length - 1; i >= 0; i--) if (obj(messages[i]).role === 'assistant') return obj(messages[i]);
  return undefined;
}

function usage(data: Obj, message: Obj): void {
  const u = obj(message.usage);
  put(data, 'gen_ai.usage.input_tokens', count(u.input));
  put(data, 'gen_ai.usage.output_tokens', count(u.output));
}

/** The text of a message's content (a string, or the `text` parts of a content array). */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return undefined;
  return str(value.map((p) => (typeof obj(p).text === 'string' ? (obj(p).text as string) : '')).join(''));
}

function toolRef(e: Obj): { name: string; call_id?: string } {
  const ref: { name: string; call_id?: string } = { name: str(e.toolName) ?? 'unknown' };
  put(ref, 'call_id', str(e.toolCallId));
  return ref;
}

/** A payload as `{key}_digest` (always), `{key}` at full, `{key}_redacted` at redacted. */
function carry(data: Obj, key: string, payload: unknown, level: CaptureLevel): void {
  if (payload === undefined) return;
  data[`${key}_digest`] = digest(payload);
  if (level === 'full') data[key] = payload;
  else put(data, `${key}_redacted`, content(payload, level));
}

function agentEnd(e: Obj, at: (t: string) => CaptureLevel): Mapped {
  const last = lastAssistant(e.messages);
  const stop = str(last?.stopReason);
  if (stop === 'error') {
    const error: Obj = { type: 'error' };
    put(error, 'message', str(last!.errorMessage) && red(last!.errorMessage as string, at('run.failed')));
    return { type: 'run.failed', data: { reason: 'error', stop_reason: stop, error } };
  }
  if (stop === 'aborted') return { type: 'run.cancelled', data: { stop_reason: stop } };
  const data: Obj = {};
  put(data, 'stop_reason', stop);
  if (last) usage(data, last);
  return { type: 'run.finished', data };
}

/**
 * A message boundary's content: `content_digest` of its text always, the text as `content` at
 * redacted+ (redacted at redacted).
 */
function messageText(data: Obj, text: string | undefined, level: CaptureLevel): void {
  if (text === undefined) return;
  data.content_digest = digest(text);
  put(data, 'content', red(text, level));
}

/** What a per-event handler reads: the bus event, what the extension forwarded, the options, the capture level of a type. */
interface EventContext {
  e: Obj;
  input: PiInput;
  opts: MapOptions;
  at: (t: string) => CaptureLevel;
}

/** One pi event's mapping; null where the adapter deliberately emits nothing. */
type EventHandler = (c: EventContext) => Mapped | null;

/** `turn_start` / `turn_end`: a step boundary, `step` = the `turnIndex`. */
function turn(type: string, e: Obj): Mapped {
  const mapped: Mapped = { type, data: {} };
  if (count(e.turnIndex) !== undefined) mapped.step = String(e.turnIndex);
  return mapped;
}

/** The per-event handlers, one per mapped pi event (the table in the header, row by row). */
const HANDLERS: Readonly<Record<string, EventHandler>> = {
  /** `session.started`: the typed arrival reason; machine paths (the session file, its working directory, the session it resumed or forked) at redacted+ only. */
  session_start: ({ e, input, at }) => {
    const data: Obj = { client: { name: AGENT } };
    put(data, 'reason', str(e.reason));
    const level = at('session.started');
    const session = obj(input.session);
    const path = (v: unknown): string | undefined => (str(v) === undefined ? undefined : red(v as string, level));
    put(data, 'session_file', path(input.session_file) ?? path(session.file));
    put(data, 'cwd', path(session.cwd));
    put(data, 'previous_session_file', path(e.previousSessionFile));
    return { type: 'session.started', data };
  },
  /**
   * `session.ended`: every vendor teardown (quit, reload, new, resume, fork) is orderly: the
   * schema's `normal`, the vendor's own reason beside it.
   */
  session_shutdown: ({ e }) => {
    const data: Obj = { reason: 'normal' };
    put(data, 'vendor_reason', str(e.reason));
    return { type: 'session.ended', data };
  },
  /** `session.compacted` with the typed `reason` and `will_retry`. */
  session_compact: ({ e }) => {
    const data: Obj = {};
    put(data, 'reason', str(e.reason));
    if (typeof e.willRetry === 'boolean') data.will_retry = e.willRetry;
    return { type: 'session.compacted', data };
  },
  /** `run.started{}`: the bus does not say what started the loop (a prompt, a queued follow-up, an extension): no trigger claim. */
  agent_start: () => ({ type: 'run.started', data: {} }),
  /** By the last assistant `stopReason`: `run.failed`, `run.cancelled` or `run.finished`. */
  agent_end: ({ e, at }) => agentEnd(e, at),
  /** `run.step.started`. */
  turn_start: ({ e }) => turn('run.step.started', e),
  /** `run.step.finished`. */
  turn_end: ({ e }) => turn('run.step.finished', e),
  /** `tool.requested`, the args carried by capture level. */
  tool_execution_start: ({ e, at }) => {
    const tool = toolRef(e);
    const data: Obj = { tool };
    carry(data, 'args', e.args, at('tool.requested'));
    return { type: 'tool.requested', data, subject: tool.name };
  },
  /** `tool.completed` with the result carried, or `tool.failed` (the result's text as the message) when `isError`. */
  tool_execution_end: ({ e, at }) => {
    const tool = toolRef(e);
    const data: Obj = { tool };
    if (e.isError === true) {
      const error: Obj = { type: 'error' };
      put(error, 'message', textOf(obj(e.result).content) && red(textOf(obj(e.result).content)!, at('tool.failed')));
      data.error = error;
      return { type: 'tool.failed', data, subject: tool.name };
    }
    carry(data, 'result', e.result, at('tool.completed'));
    return { type: 'tool.completed', data, subject: tool.name };
  },
  /** Nothing; with `deltas`: `x.pi.tool.update` with the partial result carried. */
  tool_execution_update: ({ e, opts, at }) => {
    if (opts.deltas !== true) return null;
    const tool = toolRef(e);
    const data: Obj = { tool };
    carry(data, 'partial', e.partialResult, at('x.pi.tool.update'));
    return { type: 'x.pi.tool.update', data, subject: tool.name };
  },
  /** `x.pi.message.submitted` for a user message; any other role emits nothing. */
  message_start: ({ e, at }) => {
    const message = obj(e.message);
    if (message.role !== 'user') return null;
    const data: Obj = {};
    messageText(data, textOf(message.content), at('x.pi.message.submitted'));
    return { type: 'x.pi.message.submitted', data };
  },
  /** `x.pi.message.replied` (stop reason, usage) for an assistant message; any other role emits nothing. */
  message_end: ({ e, at }) => {
    const message = obj(e.message);
    if (message.role !== 'assistant') return null;
    const data: Obj = {};
    messageText(data, textOf(message.content), at('x.pi.message.replied'));
    put(data, 'stop_reason', str(message.stopReason));
    usage(data, message);
    return { type: 'x.pi.message.replied', data };
  },
  /** Nothing; with `deltas`: `x.pi.message.delta` (the kind; the delta text by capture level). */
  message_update: ({ e, opts, at }) => {
    if (opts.deltas !== true) return null;
    const update = obj(e.assistantMessageEvent);
    const data: Obj = {};
    put(data, 'kind', str(update.type));
    put(data, 'delta', str(update.delta) && red(update.delta as string, at('x.pi.message.delta')));
    return { type: 'x.pi.message.delta', data };
  },
  /** `x.pi.model.select`: the model id, its provider, the source of the choice. */
  model_select: ({ e }) => {
    const data: Obj = {};
    put(data, 'model', str(obj(e.model).id) ?? str(e.model));
    put(data, 'provider', str(obj(e.model).provider));
    put(data, 'source', str(e.source));
    return { type: MACHINERY.model_select!, data };
  },
  /** `x.pi.thinking.select`: the level. */
  thinking_level_select: ({ e }) => {
    const data: Obj = {};
    put(data, 'level', str(e.level));
    return { type: MACHINERY.thinking_level_select!, data };
  },
  /** `x.pi.session.info`: the session's name is user content, redacted+ only. */
  session_info_changed: ({ e, at }) => {
    const data: Obj = {};
    put(data, 'name', str(e.name) && red(e.name as string, at('x.pi.session.info')));
    return { type: MACHINERY.session_info_changed!, data };
  },
};

/** The pure mapping of one pi bus event; null where the adapter deliberately emits nothing. */
export function mapEvent(input: PiInput, opts: MapOptions = {}): Mapped | null {
  const posture = opts.posture ?? DEFAULT_POSTURE;
  const at = (t: string): CaptureLevel => levelFor(t, posture);
  const e = obj(input.event);
  const type = str(e.type) ?? 'unknown';
  if (Object.hasOwn(HANDLERS, type)) return HANDLERS[type]!({ e, input, opts, at });
  const data: Obj = {};
  if (MACHINERY[type]) return { type: MACHINERY[type]!, data };
  if (INTERCEPTION.has(type) || type.startsWith('session_before_')) return null;
  return { type: unknownType(type), data };
}

/** Severity of a mapped event: the vendor plane at `debug`. */
export function eventSeverity(type: string): 'debug' | undefined {
  return type.startsWith('x.pi.') ? 'debug' : undefined;
}

/** `attention.requested` for a gated `tool_call`: allow/deny, the tool and its args summary at redacted+. */
export function mapToolGate(e: Obj, posture: Posture = DEFAULT_POSTURE, expiresAt?: string): Mapped {
  const tool = str(e.toolName) ?? 'unknown';
  const input = obj(e.input);
  const what = str(input.command) ?? str(input.path) ?? str(input.file_path);
  const prompt = red(`Permission requested: ${tool}${what ? ` — ${what}` : ''}`, levelFor('attention.requested', posture));
  const data: Obj = {
    kind: 'permission',
    prompt: prompt ?? `${AGENT} requests permission: ${tool}`,
    options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }],
    respond_via: ['control'],
  };
  if (expiresAt) data.expires_at = expiresAt;
  return { type: 'attention.requested', data, subject: tool };
}
