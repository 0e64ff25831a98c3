/**
 * AG-UI stream event → AEP event, the pure half of the AG-UI tee proxy (AEP-0002 Annex A.14,
 * `@ag-ui/core` event union). `mapEvent(event, {deltas?, ceiling?})` → `{type, data, subject?,
 * step?}` or null. Identity is real vendor identity (threadId → session, runId → run; the
 * receiver scopes events to their tee stream); nothing is synthesized.
 *
 * | AG-UI type | AEP type |
 * |---|---|
 * | RUN_STARTED | `run.started` (parentRunId as `parent_run`) |
 * | RUN_FINISHED | by `outcome` (run-outcome.ts): `run.finished` (result as `summary`, redacted+); `cancelled` → `run.cancelled`; `interrupt` → `attention.requested` per interrupt + `run.cancelled {outcome: "interrupt"}` |
 * | RUN_ERROR | `run.failed` (reason = code ?? "error"; the message as `error.message`, redacted+) |
 * | STEP_STARTED / STEP_FINISHED | `run.step.started` / `run.step.finished`, step and subject = stepName |
 * | TOOL_CALL_START | `tool.requested` (name, call id; subject the name) |
 * | TOOL_CALL_RESULT | `tool.completed` (result digest; subject the call id; the name from the event's `toolCallName`, which the receiver joins in from TOOL_CALL_START, else "unknown") |
 * | STATE_SNAPSHOT / STATE_DELTA | `state.snapshot` (`state`, redacted+) / `state.delta` (op count `ops`; the patch as `delta`, redacted+) |
 * | TEXT_MESSAGE_START | `x.agui.text_message.start` (`role`; subject the message id) |
 * | TEXT_MESSAGE_END | assistant (or unstated) role: `x.agui.text_message.end` (subject the message id; `content`, the text the receiver assembled, at redacted+; message.agent.replied is reserved); any other role: nothing |
 * | token deltas (TEXT_MESSAGE_CONTENT/CHUNK, REASONING_MESSAGE_CONTENT/CHUNK, TOOL_CALL_ARGS/END/CHUNK) | nothing, unless deltas |
 * | REASONING_ENCRYPTED_VALUE | nothing, ever |
 * | the deprecated THINKING_* aliases | exactly as their REASONING_* replacements |
 * | CUSTOM | `x.agui.custom.event` (name; `value` redacted+) ; RAW → `x.agui.raw.event` (payload at full only) |
 * | anything else | `x.agui.<family>.<leaf>` from the UPPER_SNAKE type |
 *
 * The receiver (proxy.ts `AguiStream`) hands the mapper what the standard's pins hand it: a
 * TOOL_CALL_RESULT with the `toolCallName` of its TOOL_CALL_START, a TEXT_MESSAGE_END with the
 * `role` of its TEXT_MESSAGE_START (and, at a redacted ceiling or above, the assembled `content`).
 */
import { digest } from '../../core/digest.js';
import { isPlainObject, type CaptureLevel } from '../../core/event.js';
import { red } from '../../adapter-kit/capture.js';
import { content } from '../../adapter-kit/mapping.js';
import type { Mapped } from '../../adapter-kit/types.js';
import { mapRunFinished } from './run-outcome.js';

export const AGENT = 'agui';

export interface AguiMapOptions {
  /** AEP_AGUI_DELTAS: token-delta events ride at debug in the vendor namespace. Default false. */
  deltas?: boolean;
  /** Default `metadata`. */
  ceiling?: CaptureLevel;
}

export const DELTA_TYPES: ReadonlySet<string> = new Set([
  'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_CHUNK', 'REASONING_MESSAGE_CONTENT', 'REASONING_MESSAGE_CHUNK',
  'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_CHUNK',
]);

/** The deprecated `THINKING_*` members (`@ag-ui/core` 0.0.x) and the `REASONING_*` members that replace them. */
export const THINKING_ALIASES: Readonly<Record<string, string>> = {
  THINKING_START: 'REASONING_START',
  THINKING_END: 'REASONING_END',
  THINKING_TEXT_MESSAGE_START: 'REASONING_MESSAGE_START',
  THINKING_TEXT_MESSAGE_CONTENT: 'REASONING_MESSAGE_CONTENT',
  THINKING_TEXT_MESSAGE_END: 'REASONING_MESSAGE_END',
};

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** `TEXT_MESSAGE_CONTENT` → `x.agui.text_message.content`; `CUSTOM` → `x.agui.custom.event`. */
export function vendorType(type: string): string {
  const snake = type.toLowerCase().replace(/[^a-z0-9_]/g, '');
  const cut = snake.lastIndexOf('_');
  if (snake === '') return 'x.agui.unknown.event';
  return cut <= 0 ? `x.agui.${snake}.event` : `x.agui.${snake.slice(0, cut)}.${snake.slice(cut + 1)}`;
}

/** `mapped` with `subject` = the message id, when the event names one. */
function withSubject(mapped: Mapped, messageId: unknown): Mapped {
  return str(messageId) ? { ...mapped, subject: messageId as string } : mapped;
}

type Handler = (event: Record<string, unknown>, ceiling: CaptureLevel, type: string) => Mapped | Mapped[] | null;

function runStarted(event: Record<string, unknown>): Mapped {
  const data: Record<string, unknown> = { trigger: 'user' };
  if (str(event.parentRunId)) data.parent_run = event.parentRunId;
  return { type: 'run.started', data };
}

function runFinished(event: Record<string, unknown>, ceiling: CaptureLevel): Mapped | Mapped[] {
  const out = mapRunFinished(event, ceiling);
  return out.length === 1 ? out[0]! : out;
}

function runError(event: Record<string, unknown>, ceiling: CaptureLevel): Mapped {
  const data: Record<string, unknown> = { reason: str(event.code) ?? 'error' };
  // The message is the run's error text: the schema's error.message, redacted-class.
  const message = typeof event.message === 'string' ? red(event.message, ceiling) : undefined;
  if (message !== undefined) data.error = { message };
  return { type: 'run.failed', data };
}

function stepBoundary(event: Record<string, unknown>, ceiling: CaptureLevel, type: string): Mapped {
  const step = str(event.stepName);
  // The step name is redacted-class in data; the envelope `step` and `subject` carry it as identity.
  const withName = step !== undefined && ceiling !== 'metadata' && ceiling !== 'none';
  const m: Mapped = { type: type === 'STEP_STARTED' ? 'run.step.started' : 'run.step.finished', data: withName ? { name: step } : {} };
  return step ? { ...m, subject: step, step } : m;
}

function toolCallStart(event: Record<string, unknown>): Mapped {
  const name = str(event.toolCallName) ?? 'unknown';
  const tool: Record<string, unknown> = { name };
  if (str(event.toolCallId)) tool.call_id = event.toolCallId;
  return { type: 'tool.requested', data: { tool }, subject: name };
}

function toolCallResult(event: Record<string, unknown>, ceiling: CaptureLevel): Mapped {
  // The result names only its call: the receiver joins the name in; "unknown" when it never saw the start.
  const name = str(event.toolCallName) ?? 'unknown';
  const callId = str(event.toolCallId);
  const tool: Record<string, unknown> = { name };
  if (callId !== undefined) tool.call_id = callId;
  const data: Record<string, unknown> = { tool };
  if (event.content !== undefined) {
    data.result_digest = digest(event.content);
    if (ceiling === 'full') data.result = event.content;
    else if (ceiling === 'redacted') data.result_redacted = content(event.content, ceiling);
  }
  return { type: 'tool.completed', data, subject: callId ?? name };
}

function stateSnapshot(event: Record<string, unknown>, ceiling: CaptureLevel): Mapped {
  // The state is redacted-class: the schema's `state`, through the pipeline at redacted, verbatim at full.
  const state = isPlainObject(event.snapshot) ? content(event.snapshot, ceiling) : undefined;
  return { type: 'state.snapshot', data: state !== undefined ? { state } : {} };
}

function stateDelta(event: Record<string, unknown>, ceiling: CaptureLevel): Mapped {
  const data: Record<string, unknown> = {};
  if (Array.isArray(event.delta)) {
    data.ops = event.delta.length;
    const delta = content(event.delta, ceiling);
    if (delta !== undefined) data.delta = delta;
  }
  return { type: 'state.delta', data };
}

function textMessageStart(event: Record<string, unknown>): Mapped {
  const data: Record<string, unknown> = {};
  if (str(event.role)) data.role = event.role;
  return withSubject({ type: 'x.agui.text_message.start', data }, event.messageId);
}

function textMessageEnd(event: Record<string, unknown>, ceiling: CaptureLevel): Mapped | null {
  // The agent's replies are the observable; a user (or any other role's) message end is the UI's own doing.
  const role = str(event.role);
  if (role !== undefined && role !== 'assistant') return null;
  const data: Record<string, unknown> = {};
  const text = typeof event.content === 'string' ? red(event.content, ceiling) : undefined;
  if (text !== undefined) data.content = text;
  return withSubject({ type: 'x.agui.text_message.end', data }, event.messageId);
}

function custom(event: Record<string, unknown>, ceiling: CaptureLevel): Mapped {
  const data: Record<string, unknown> = {};
  if (str(event.name)) data.name = event.name;
  const value = content(event.value, ceiling);
  if (value !== undefined) data.value = value;
  return { type: 'x.agui.custom.event', data };
}

function raw(event: Record<string, unknown>, ceiling: CaptureLevel): Mapped {
  return { type: 'x.agui.raw.event', data: ceiling === 'full' && event.event !== undefined ? { event: event.event } : {} };
}

/** The AG-UI types with their own mapping (after the THINKING_* aliases are resolved); the rest fall to the vendor namespace. */
const HANDLERS: Readonly<Record<string, Handler>> = {
  RUN_STARTED: runStarted,
  RUN_FINISHED: runFinished,
  RUN_ERROR: runError,
  STEP_STARTED: stepBoundary,
  STEP_FINISHED: stepBoundary,
  TOOL_CALL_START: toolCallStart,
  TOOL_CALL_RESULT: toolCallResult,
  STATE_SNAPSHOT: stateSnapshot,
  STATE_DELTA: stateDelta,
  TEXT_MESSAGE_START: textMessageStart,
  TEXT_MESSAGE_END: textMessageEnd,
  REASONING_ENCRYPTED_VALUE: () => null,
  CUSTOM: custom,
  RAW: raw,
};

/** A token delta: suppressed unless `deltas`, else its vendor type with the (redacted-class) text. */
function tokenDelta(event: Record<string, unknown>, ceiling: CaptureLevel, type: string, deltas: boolean | undefined): Mapped | null {
  if (!deltas) return null;
  const data: Record<string, unknown> = {};
  const text = typeof event.delta === 'string' ? red(event.delta, ceiling) : undefined;
  if (text !== undefined) data.delta = text;
  return { type: vendorType(type), data };
}

/** One AG-UI event → `{type, data, subject?, step?}`, an array (an interrupted run's requests and terminal), or null (suppressed). */
export function mapEvent(event: Record<string, unknown>, opts: AguiMapOptions = {}): Mapped | Mapped[] | null {
  const ceiling = opts.ceiling ?? 'metadata';
  const named = str(event.type) ?? 'UNKNOWN';
  const type = Object.prototype.hasOwnProperty.call(THINKING_ALIASES, named) ? THINKING_ALIASES[named]! : named;
  const handler = Object.prototype.hasOwnProperty.call(HANDLERS, type) ? HANDLERS[type] : undefined;
  if (handler) return handler(event, ceiling, type);
  if (DELTA_TYPES.has(type)) return tokenDelta(event, ceiling, type, opts.deltas);
  return { type: vendorType(type), data: {} };
}
