/**
 * ACP moment → AEP events, the pure half of the ACP bridge (AEP-0002 Annex A, the ACP table).
 *
 * The tee reduces the newline-framed JSON-RPC wire to moments: `{kind:'request', method, params}`,
 * `{kind:'response', method, result?, error?}` (the response joined to its request's method by
 * JSON-RPC id, tee state) and `{kind:'notification', method, params}`. `mapMoment(moment,
 * {deltas?, ceiling?})` returns an ARRAY of `{type, data, subject?}` (usually one, [] for a
 * suppressed delta). Read-only: the editor's permission gate is observed with no options claim
 * and no respond path; outcomes arrive `via: "oob"`.
 *
 * | moment | events |
 * |---|---|
 * | request session/prompt | `run.started` (trigger user, prompt digest; prompt text at redacted+) |
 * | response session/prompt | end_turn, max_tokens, max_turn_requests → `run.finished`; cancelled → `run.cancelled` by user; refusal → `run.failed` |
 * | request session/request_permission | `attention.requested` kind permission, options as a count |
 * | response session/request_permission | selected → `attention.answered` via oob; cancelled → `attention.resolved` dismissed |
 * | response session/new, session/load | `session.started` (client acp) |
 * | request session/close, session/delete | `session.ended` |
 * | update tool_call | `tool.requested` (title, kind, rawInput digest) |
 * | update tool_call_update | completed → `tool.completed`; failed → `tool.failed`; else `x.acp.tool_call.update` |
 * | update plan | `x.acp.plan.updated` (entry counts by status; plan entries carry no id) |
 * | update *_message_chunk, agent_thought_chunk | nothing, unless deltas: `x.acp.<name>` with the text |
 * | update usage_update | `x.acp.usage.updated` (token counts) |
 * | anything else | `x.acp.<method or update, '/' and '_' as '.'>`, single words + `.event` |
 */
import { digest } from '../../core/digest.js';
import { isPlainObject, type CaptureLevel } from '../../core/event.js';
import { allows, red } from '../../adapter-kit/capture.js';
import type { Mapped } from '../../adapter-kit/types.js';

export const AGENT = 'acp';

export interface AcpMoment {
  kind: 'request' | 'response' | 'notification';
  method: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

export interface AcpMapOptions {
  /** AEP_ACP_DELTAS: message/thought chunks ride as `x.acp.*` events. Default false. */
  deltas?: boolean;
  /** The capture ceiling. Default `metadata`; `attention.*` rides at least `redacted` (AEP-0003 §9.1). */
  ceiling?: CaptureLevel;
}

const obj = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** `x.acp.<name>` with the envelope grammar's two segments: `fs/read_text_file` → `x.acp.fs.read.text.file`. */
export function mechanicalType(name: string): string {
  const parts = name.split(/[/_.]+/).filter((p) => p !== '').map((p) => p.toLowerCase().replace(/[^a-z0-9-]/g, ''));
  const segs = parts.filter((p) => p !== '');
  if (segs.length === 0) return 'x.acp.unknown.event';
  if (segs.length === 1) segs.push('event');
  return `x.acp.${segs.join('.')}`;
}

function attentionLevel(ceiling: CaptureLevel): CaptureLevel {
  if (ceiling === 'none') return 'none';
  return allows(ceiling, 'redacted') ? ceiling : 'redacted';
}

function textOf(content: unknown): string | undefined {
  const c = obj(content);
  return c.type === 'text' ? str(c.text) ?? (typeof c.text === 'string' ? c.text : undefined) : undefined;
}

function promptText(prompt: unknown): string | undefined {
  if (!Array.isArray(prompt)) return undefined;
  const texts = prompt.map(textOf).filter((t): t is string => t !== undefined);
  return texts.length > 0 ? texts.join('\n') : undefined;
}

function toolRef(update: Record<string, unknown>): Record<string, unknown> {
  const callId = str(update.toolCallId);
  const name = str(update.title) ?? str(update.kind) ?? callId ?? 'tool';
  return callId ? { name, call_id: callId } : { name };
}

const withSubject = (m: Mapped, subject: string | undefined): Mapped => (subject ? { ...m, subject } : m);

function mapUpdate(update: Record<string, unknown>, opts: Required<AcpMapOptions>): Mapped[] {
  const kind = str(update.sessionUpdate) ?? 'unknown';
  const callId = str(update.toolCallId);
  switch (kind) {
    case 'tool_call': {
      const data: Record<string, unknown> = { tool: toolRef(update) };
      if (str(update.kind)) data.kind = update.kind;
      if (update.rawInput !== undefined) data.args_digest = digest(update.rawInput);
      return [withSubject({ type: 'tool.requested', data }, callId)];
    }
    case 'tool_call_update': {
      const status = str(update.status);
      if (status === 'completed') {
        const data: Record<string, unknown> = { tool: toolRef(update) };
        if (update.rawOutput !== undefined) {
          data.result_digest = digest(update.rawOutput);
          if (opts.ceiling === 'full') data.result = update.rawOutput;
        }
        return [withSubject({ type: 'tool.completed', data }, callId)];
      }
      if (status === 'failed') return [withSubject({ type: 'tool.failed', data: { tool: toolRef(update), error: { type: 'tool_error' } } }, callId)];
      return [withSubject({ type: 'x.acp.tool_call.update', data: status ? { status } : {} }, callId)];
    }
    case 'plan': {
      const data: Record<string, unknown> = {};
      for (const e of Array.isArray(update.entries) ? update.entries : []) {
        const s = str(obj(e).status);
        if (s && /^[a-z_]+$/.test(s)) data[`entries_${s}`] = ((data[`entries_${s}`] as number | undefined) ?? 0) + 1;
      }
      return [{ type: 'x.acp.plan.updated', data }];
    }
    case 'agent_message_chunk':
    case 'agent_thought_chunk':
    case 'user_message_chunk': {
      if (!opts.deltas) return [];
      const text = textOf(update.content);
      const delta = text !== undefined ? red(text, opts.ceiling) : undefined;
      return [{ type: mechanicalType(kind), data: delta !== undefined ? { delta } : {} }];
    }
    case 'usage_update': {
      const data: Record<string, unknown> = {};
      if (Number.isInteger(update.usedTokens)) data['gen_ai.usage.input_tokens'] = update.usedTokens;
      if (Number.isInteger(update.inputTokens)) data['gen_ai.usage.input_tokens'] = update.inputTokens;
      if (Number.isInteger(update.outputTokens)) data['gen_ai.usage.output_tokens'] = update.outputTokens;
      return [{ type: 'x.acp.usage.updated', data }];
    }
    default:
      return [{ type: mechanicalType(kind), data: {} }];
  }
}

function mapRequest(method: string, params: Record<string, unknown>, opts: Required<AcpMapOptions>): Mapped[] {
  switch (method) {
    case 'session/prompt': {
      const data: Record<string, unknown> = { trigger: 'user' };
      if (params.prompt !== undefined) data.message_digest = digest(params.prompt);
      const text = promptText(params.prompt);
      const prompt = text !== undefined ? red(text, opts.ceiling) : undefined;
      if (prompt !== undefined) data.prompt = prompt;
      return [{ type: 'run.started', data }];
    }
    case 'session/request_permission': {
      const call = obj(params.toolCall);
      const level = attentionLevel(opts.ceiling);
      const title = str(call.title);
      const structural = `Permission requested: ${str(call.kind) ?? 'tool'}`;
      const prompt = title && allows(level, 'redacted') ? (red(`Permission requested: ${title}`, level) ?? structural) : structural;
      const data: Record<string, unknown> = { kind: 'permission', prompt };
      if (Array.isArray(params.options)) data.options_count = params.options.length;
      return [withSubject({ type: 'attention.requested', data }, str(call.toolCallId))];
    }
    case 'session/close':
    case 'session/delete':
      return [{ type: 'session.ended', data: { reason: 'normal' } }];
    default:
      return [{ type: mechanicalType(method), data: {} }];
  }
}

const FINISHED = new Set(['end_turn', 'max_tokens', 'max_turn_requests']);

function mapResponse(moment: AcpMoment): Mapped[] {
  const result = obj(moment.result);
  switch (moment.method) {
    case 'session/new':
    case 'session/load':
      return moment.error !== undefined ? [{ type: mechanicalType(moment.method), data: {} }] : [{ type: 'session.started', data: { client: { name: AGENT } } }];
    case 'session/prompt': {
      if (moment.error !== undefined) return [{ type: 'run.failed', data: { reason: 'error' } }];
      const stop = str(result.stopReason);
      if (stop && FINISHED.has(stop)) return [{ type: 'run.finished', data: { stop_reason: stop } }];
      if (stop === 'cancelled') return [{ type: 'run.cancelled', data: { by: 'user' } }];
      return [{ type: 'run.failed', data: { reason: stop ?? 'unknown' } }];
    }
    case 'session/request_permission': {
      const outcome = obj(result.outcome);
      if (outcome.outcome === 'selected' && str(outcome.optionId)) return [{ type: 'attention.answered', data: { answer: { option: outcome.optionId }, via: 'oob' } }];
      return [{ type: 'attention.resolved', data: { resolution: 'dismissed' } }];
    }
    default:
      return [{ type: mechanicalType(moment.method), data: {} }];
  }
}

/** One ACP moment → its AEP events, at the bridge default posture unless `opts` says otherwise. */
export function mapMoment(moment: AcpMoment, opts: AcpMapOptions = {}): Mapped[] {
  const o: Required<AcpMapOptions> = { deltas: opts.deltas ?? false, ceiling: opts.ceiling ?? 'metadata' };
  const method = str(moment.method) ?? 'unknown';
  const params = obj(moment.params);
  if (moment.kind === 'response') return mapResponse({ ...moment, method });
  if (moment.kind === 'notification' && method === 'session/update') return mapUpdate(obj(params.update), o);
  return mapRequest(method, params, o);
}
