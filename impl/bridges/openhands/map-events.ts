/**
 * OpenHands agent-server event → AEP event, the pure half of the OpenHands bridge (AEP-0002
 * Annex A.15). Inputs are TRANSPORT-shaped events (`kind` discriminates; no `parent_id`).
 *
 * `mapEvent(event, {deltas?, ceiling?})` → `{type, data, subject?, step?}` or null. Every data
 * carries `vendor_ts` (the naive server-local timestamp, verbatim) and `vendor_event_id` (the
 * dedupe key) at metadata; the envelope `ts` is receive time (receiver). `step` is the
 * `llm_response_id` of action/message events. `statusMoments(prev, next)` is the run-synthesis
 * and attention table over the server's own `execution_status` enum.
 *
 * | kind | type |
 * |---|---|
 * | ActionEvent | `tool.requested` (risk when not UNKNOWN, args digest) |
 * | ObservationEvent | `tool.completed` / `tool.failed` by `observation.is_error` |
 * | UserRejectObservation | source hook → `tool.denied` by policy; user → `x.openhands.user_reject.observation` |
 * | AgentErrorEvent | `tool.failed` (error type agent_error) |
 * | Condensation | `session.compacted` (forgotten count) |
 * | ConversationStateUpdateEvent | `state.snapshot` (full_state) / `state.delta` (key) |
 * | ConversationErrorEvent | `error.raised` (code) |
 * | StreamingDeltaEvent | nothing, unless deltas: `x.openhands.streaming.delta` |
 * | TokenEvent | nothing, ever |
 * | anything else | `x.openhands.<family>.<leaf>` mechanically from the kind |
 */
import { canonicalJson } from '../../core/canonical.js';
import { digest } from '../../core/digest.js';
import { isPlainObject, type CaptureLevel } from '../../core/event.js';
import { red } from '../../adapter-kit/capture.js';
import { content } from '../../adapter-kit/mapping.js';
import type { Mapped } from '../../adapter-kit/types.js';

export const AGENT = 'openhands';

export interface OpenHandsMapOptions {
  /** AEP_OPENHANDS_DELTAS: StreamingDeltaEvent rides as a vendor event. Default false. */
  deltas?: boolean;
  /** Default `metadata`. */
  ceiling?: CaptureLevel;
}

const obj = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {});
const put = (data: Record<string, unknown>, key: string, value: unknown) => {
  if (value !== undefined) data[key] = value;
};
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** `SandboxCheckpointEvent` → `sandbox.checkpoint`; `PauseEvent` → `pause.event`; `ACPToolCallEvent` → `acp_tool.call`. */
export function kindName(kind: string): string {
  let snake = kind.replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2').replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().replace(/[^a-z0-9_]/g, '');
  if (snake.endsWith('_event')) snake = snake.slice(0, -'_event'.length);
  const cut = snake.lastIndexOf('_');
  if (snake === '') return 'unknown.event';
  return cut <= 0 ? `${snake}.event` : `${snake.slice(0, cut)}.${snake.slice(cut + 1)}`;
}

/** The text of an observation's content list, joined by newlines. */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content.map((c) => obj(c)).filter((c) => c.type === 'text' && typeof c.text === 'string').map((c) => c.text as string);
  return parts.length > 0 ? parts.join('\n') : undefined;
}

/**
 * The `action` arguments of an ActionEvent as the content `args_digest` covers. Rule (AEP-0003
 * §9.3 `digest` applied to the content the OpenHands design record names, "the `action`
 * arguments", AEP-0002 Annex A.15): the content is the TEXT of the whole transport `action`
 * object (its `kind` included) in canonical JSON, and that text is digested as a string, i.e.
 * `digest(canonicalJson(action))` = SHA-256 over the quoted canonical text. Not the parsed
 * `tool_call.function.arguments` (that is the Codex-style `digest({command})`, which the
 * standard's openhands pins refuse), not the action minus `kind`. Reproduces both pins
 * (`action_event`, `action_event_unknown_risk`). At `full` the same text rides as `args`, so
 * `digest(data.args) === data.args_digest` stays joinable. An event without an `action` object
 * falls back to the raw `arguments` string.
 */
function actionArgs(ev: Record<string, unknown>): string | undefined {
  if (isPlainObject(ev.action)) return canonicalJson(ev.action);
  const args = obj(obj(ev.tool_call).function).arguments;
  return typeof args === 'string' ? args : undefined;
}

function toolOf(ev: Record<string, unknown>): Record<string, unknown> {
  const name = str(ev.tool_name) ?? 'unknown';
  const callId = str(ev.tool_call_id);
  return callId ? { name, call_id: callId } : { name };
}

/** What every kind's mapping reads: the event, its metadata `base` (vendor_ts, vendor_event_id), the tool name and step, the options. */
interface MapContext {
  event: Record<string, unknown>;
  base: Record<string, unknown>;
  ceiling: CaptureLevel;
  tool: string | undefined;
  step: string | undefined;
  deltas: boolean | undefined;
}

function actionEvent({ event, base, ceiling, tool, step }: MapContext): Mapped {
  const data: Record<string, unknown> = { ...base, tool: toolOf(event) };
  const risk = str(event.security_risk);
  if (risk && risk !== 'UNKNOWN') data.risk = risk;
  const args = actionArgs(event);
  if (args !== undefined) {
    data.args_digest = digest(args);
    if (ceiling === 'full') data.args = args;
  }
  return { type: 'tool.requested', data, subject: tool, step };
}

function observationEvent({ event, base, ceiling, tool }: MapContext): Mapped {
  const observation = obj(event.observation);
  const text = contentText(observation.content);
  if (observation.is_error === true) {
    const error: Record<string, unknown> = { type: 'tool_error' };
    const message = text !== undefined ? red(text, ceiling) : undefined;
    if (message !== undefined) error.message = message;
    return { type: 'tool.failed', data: { ...base, tool: toolOf(event), error }, subject: tool };
  }
  const data: Record<string, unknown> = { ...base, tool: toolOf(event) };
  if (text !== undefined) {
    data.result_digest = digest(text);
    const kept = red(text, ceiling);
    if (ceiling === 'full') data.result = text;
    else if (kept !== undefined) data.result_redacted = kept;
  }
  return { type: 'tool.completed', data, subject: tool };
}

function userReject({ event, base, tool }: MapContext): Mapped {
  if (event.rejection_source === 'hook') return { type: 'tool.denied', data: { ...base, tool: toolOf(event), by: 'policy' }, subject: tool };
  return { type: 'x.openhands.user_reject.observation', data: { ...base, tool: toolOf(event) }, subject: tool };
}

function agentError({ event, base, ceiling, tool }: MapContext): Mapped {
  const error: Record<string, unknown> = { type: 'agent_error' };
  const message = typeof event.error === 'string' ? red(event.error, ceiling) : undefined;
  if (message !== undefined) error.message = message;
  return { type: 'tool.failed', data: { ...base, tool: toolOf(event), error }, subject: tool };
}

function messageEvent({ event, base, step }: MapContext): Mapped {
  const data: Record<string, unknown> = { ...base };
  const role = str(obj(event.llm_message).role);
  if (role) data.role = role;
  // The record: "role and sender at metadata" (the multi-agent sender name, when set).
  if (str(event.sender)) data.sender = event.sender;
  if (Array.isArray(event.activated_skills) && event.activated_skills.length > 0) data.skills = event.activated_skills.length;
  return { type: 'x.openhands.message.event', data, step };
}

function condensation({ event, base, ceiling }: MapContext): Mapped {
  const data: Record<string, unknown> = { ...base, forgotten: Array.isArray(event.forgotten_event_ids) ? event.forgotten_event_ids.length : 0 };
  put(data, 'summary', typeof event.summary === 'string' ? red(event.summary, ceiling) : undefined);
  return { type: 'session.compacted', data };
}

function stateUpdate({ event, base, ceiling }: MapContext): Mapped {
  // The value is redaction-gated (the record); state.snapshot's schema member for it is `state`.
  if (event.key === 'full_state') {
    const data: Record<string, unknown> = { ...base };
    if (isPlainObject(event.value)) put(data, 'state', content(event.value, ceiling));
    return { type: 'state.snapshot', data };
  }
  const data: Record<string, unknown> = { ...base, ...(str(event.key) ? { key: event.key } : {}) };
  put(data, 'value', content(event.value, ceiling));
  return { type: 'state.delta', data };
}

function conversationError({ event, base, ceiling }: MapContext): Mapped {
  const data: Record<string, unknown> = { ...base, ...(str(event.code) ? { code: event.code } : {}) };
  put(data, 'detail', typeof event.detail === 'string' ? red(event.detail, ceiling) : undefined);
  return { type: 'error.raised', data };
}

/** The kinds with their own mapping; any other kind rides as `x.openhands.<kindName>`. */
const HANDLERS: Readonly<Record<string, (ctx: MapContext) => Mapped | null>> = {
  ActionEvent: actionEvent,
  ObservationEvent: observationEvent,
  UserRejectObservation: userReject,
  AgentErrorEvent: agentError,
  MessageEvent: messageEvent,
  Condensation: condensation,
  ConversationStateUpdateEvent: stateUpdate,
  ConversationErrorEvent: conversationError,
  StreamingDeltaEvent: ({ base, deltas }) => (deltas ? { type: 'x.openhands.streaming.delta', data: base } : null),
  TokenEvent: () => null,
};

/** `m` without an undefined `subject` or `step` member. */
function at(m: Mapped): Mapped {
  const out: Mapped = { ...m };
  if (m.subject === undefined) delete out.subject;
  if (m.step === undefined) delete out.step;
  return out;
}

/** One transport-shaped OpenHands event → `{type, data, subject?, step?}`, or null. */
export function mapEvent(event: Record<string, unknown>, opts: OpenHandsMapOptions = {}): Mapped | null {
  const kind = str(event.kind) ?? 'Unknown';
  const base: Record<string, unknown> = {};
  if (str(event.timestamp)) base.vendor_ts = event.timestamp;
  if (str(event.id)) base.vendor_event_id = event.id;
  const ctx: MapContext = { event, base, ceiling: opts.ceiling ?? 'metadata', tool: str(event.tool_name), step: str(event.llm_response_id), deltas: opts.deltas };
  const handler = Object.prototype.hasOwnProperty.call(HANDLERS, kind) ? HANDLERS[kind]! : undefined;
  const mapped = handler ? handler(ctx) : { type: `x.openhands.${kindName(kind)}`, data: base };
  return mapped === null ? null : at(mapped);
}

/** The server's ConversationExecutionStatus values that leave a run open. */
const OPEN = new Set(['running', 'waiting_for_confirmation', 'paused']);
export const WAITING = 'waiting_for_confirmation';

/** The execution status of a ConversationStateUpdateEvent (either shape), or undefined. */
export function executionStatus(event: Record<string, unknown>): string | undefined {
  if (event.kind !== 'ConversationStateUpdateEvent') return undefined;
  if (event.key === 'execution_status') return str(event.value);
  if (event.key === 'full_state') return str(obj(event.value).execution_status);
  return undefined;
}

/**
 * The moments of one execution-status transition (`prev` null = first sight): run synthesis and
 * the wire-visible approval loop. `paused` and `waiting_for_confirmation` never close a run;
 * running → idle closes honestly with `reason: idle`; deleting cancels the run and ends the session.
 * The attention request carries no options and no respond path (the read-only channel).
 */
export function statusMoments(prev: string | null, next: string): Mapped[] {
  if (prev === next) return [];
  const out: Mapped[] = [];
  const open = prev !== null && OPEN.has(prev);
  if (prev === WAITING) out.push({ type: 'attention.resolved', data: { resolution: next === 'paused' || next === 'deleting' ? 'dismissed' : 'answered' } });
  switch (next) {
    case 'running':
      if (!open) out.push({ type: 'run.started', data: {} });
      break;
    case WAITING:
      if (!open) out.push({ type: 'run.started', data: {} });
      out.push({ type: 'attention.requested', data: { kind: 'permission', prompt: 'Awaiting confirmation for a pending action' } });
      break;
    case 'finished':
      if (open) out.push({ type: 'run.finished', data: {} });
      break;
    case 'idle':
      if (prev === 'running') out.push({ type: 'run.finished', data: { reason: 'idle' } });
      break;
    case 'error':
    case 'stuck':
      if (open) out.push({ type: 'run.failed', data: { reason: next } });
      break;
    case 'deleting':
      if (open) out.push({ type: 'run.cancelled', data: { reason: 'deleting' } });
      out.push({ type: 'session.ended', data: { reason: 'killed' } });
      break;
  }
  return out;
}
