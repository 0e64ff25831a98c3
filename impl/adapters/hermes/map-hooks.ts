/**
 * Hermes Agent shell hook → AEP events, the pure half of the Hermes adapter (AEP-0002 Annex A.10).
 *
 * `mapHook(input, posture?)` returns an ARRAY of `{type, data, subject?}`. `input` is the stdin
 * envelope `{hook_event_name, tool_name, tool_input, session_id, cwd, extra:{...}}`. Envelope
 * identity (session_id → session, the approval `session_key` join, `extra.turn_id` → run
 * verbatim), the approval pre/post pairing, the clarify pairing and the operator-deny gate are
 * runtime state in adapter.ts. The subjects of the answer/terminal events here are the pairing
 * keys (`pattern_key`, `tool_call_id`); the daemon re-subjects them to the request's event id
 * when it holds the matching card.
 *
 * | Hermes hook | AEP types |
 * |---|---|
 * | on_session_start | `session.started` |
 * | pre_llm_call | `run.started{trigger:user}` (the user message digested) |
 * | pre_tool_call | `tool.requested` (+ the observed `clarify` form card) |
 * | post_tool_call | status ok/error/blocked → `tool.completed`/`tool.failed`/`tool.denied{by:policy}` (+ the clarify outcome) |
 * | pre_approval_request | `attention.requested` (the vendor's own gate, read-only, `respond_via:["oob"]`) |
 * | post_approval_response | `attention.answered{via:"oob"}`, or `attention.timeout` for choice "timeout" |
 * | on_session_end | `run.finished`, or `run.cancelled{by:user}` when interrupted (it fires PER TURN) |
 * | on_session_finalize | `session.ended{reason:"normal"}` (the real session end) |
 * | on_session_reset | `x.hermes.session.reset` (it carries the SUCCESSOR's id) |
 * | subagent_start / subagent_stop | `delegation.subagent.started` / `.stopped` |
 * | api_request_error | `x.hermes.api.error` |
 * | anything else | `x.hermes.<name with dots>` |
 *
 * Documented deviations (Annex A requires them stated in the adapter):
 * - No compaction hook exists: no `session.compacted` is ever emitted.
 * - `on_session_end` closes the RUN (the vendor fires it per turn, despite its name).
 * - The vendor's approval gate is observed only: its card is never answerable from the bus.
 * - A drift sentinel: payloads carry `extra.telemetry_schema_version` = `hermes.observer.v1`;
 *   `schemaDrift(input)` says when another value arrives (the daemon logs it; mapping proceeds).
 */
import { DEFAULT_POSTURE, levelFor, red } from '../../adapter-kit/capture.js';
import { digest } from '../../core/digest.js';
import { isPlainObject } from '../../core/event.js';
import { put, str } from '../../adapter-kit/mapping.js';
import { num, putContent, vendorFallbackType } from '../../adapter-kit/multi-map.js';
import type { HookInput, Mapped, Posture, RequestOption } from '../../adapter-kit/types.js';
import { clarifyCard, clarifyOutcome } from './map-clarify.js';

export const AGENT = 'hermes';

/** The payload schema this mapping was pinned against. */
export const SCHEMA_SENTINEL = 'hermes.observer.v1';

/** The vendor approval gate's return contract, with the vendor's own menu wording. */
export const APPROVAL_OPTIONS: readonly RequestOption[] = Object.freeze([
  Object.freeze({ id: 'once', label: 'Allow once' }),
  Object.freeze({ id: 'session', label: 'Allow for this session' }),
  Object.freeze({ id: 'always', label: 'Add to permanent allowlist' }),
  Object.freeze({ id: 'deny', label: 'Deny' }),
]);

/** `extra` of an envelope ({} when absent). */
export function extraOf(input: HookInput): Record<string, unknown> {
  return isPlainObject(input.extra) ? input.extra : {};
}

/** The hook name of an envelope. */
export function hookOf(input: HookInput, fallback?: string): string {
  return str(input.hook_event_name) ?? str(fallback) ?? 'unknown';
}

/** A message when the payload's schema version is not the pinned one; null when it is (or absent). */
export function schemaDrift(input: HookInput): string | null {
  const v = extraOf(input).telemetry_schema_version;
  return v === undefined || v === SCHEMA_SENTINEL ? null : `hermes payload telemetry_schema_version is ${JSON.stringify(v)}, this adapter is pinned to ${SCHEMA_SENTINEL}: re-verify the mapping`;
}

function toolOf(input: HookInput): { name: string; call_id?: string } {
  const call = str(extraOf(input).tool_call_id);
  return { name: str(input.tool_name) ?? 'unknown', ...(call ? { call_id: call } : {}) };
}

/** `attention.requested` of the vendor's own approval gate (observed, answered in Hermes's UI). */
export function mapApprovalRequest(input: HookInput, posture: Posture = DEFAULT_POSTURE): Mapped {
  const extra = extraOf(input);
  const level = levelFor('attention.requested', posture);
  const key = str(extra.pattern_key);
  const command = str(extra.command);
  const prompt = (command && red(`Approval requested: ${command}`, level)) ?? `${AGENT} requests approval${key ? `: ${key}` : ''}`;
  return {
    type: 'attention.requested',
    data: { kind: 'permission', prompt, options: APPROVAL_OPTIONS.map((o) => ({ ...o })), respond_via: ['oob'] },
    ...(key ? { subject: key } : {}),
  };
}

function postTool(input: HookInput, posture: Posture): Mapped[] {
  const extra = extraOf(input);
  const tool = toolOf(input);
  const status = str(extra.status);
  const data: Record<string, unknown> = { tool };
  put(data, 'duration_ms', num(extra.duration_ms));
  let first: Mapped;
  if (status === 'error') {
    const error: Record<string, unknown> = { type: str(extra.error_type) ?? 'error' };
    put(error, 'message', str(extra.error_message) && red(extra.error_message as string, levelFor('tool.failed', posture)));
    data.error = error;
    first = { type: 'tool.failed', data, subject: tool.name };
  } else if (status === 'blocked') {
    data.by = 'policy';
    put(data, 'rule', str(extra.error_message) && red(extra.error_message as string, levelFor('tool.denied', posture)));
    first = { type: 'tool.denied', data, subject: tool.name };
  } else {
    putContent(data, 'result', extra.result, levelFor('tool.completed', posture));
    first = { type: 'tool.completed', data, subject: tool.name };
  }
  const out = [first];
  if (tool.name === 'clarify' && tool.call_id) {
    const outcome = clarifyOutcome(status, extra.result, levelFor('attention.answered', posture));
    if (outcome?.kind === 'answered') out.push({ type: 'attention.answered', data: { answer: { values: outcome.values }, via: 'oob' }, subject: tool.call_id });
    else if (outcome?.kind === 'timeout') out.push({ type: 'attention.timeout', data: {}, subject: tool.call_id });
    else if (outcome?.kind === 'dismissed') out.push({ type: 'attention.resolved', data: { resolution: 'dismissed' }, subject: tool.call_id });
  }
  return out;
}

/** The pure mapping of one Hermes envelope: an array (possibly of one) of mapped events. */
export function mapHook(input: HookInput, posture: Posture = DEFAULT_POSTURE, hookEvent?: string): Mapped[] {
  const hook = hookOf(input, hookEvent);
  const extra = extraOf(input);
  const at = (type: string) => levelFor(type, posture);
  switch (hook) {
    case 'on_session_start': {
      const data: Record<string, unknown> = { client: { name: AGENT } };
      put(data, 'cwd', str(input.cwd) && red(input.cwd as string, at('session.started')));
      return [{ type: 'session.started', data }];
    }
    case 'pre_llm_call': {
      const data: Record<string, unknown> = { trigger: 'user' };
      const message = str(extra.user_message);
      if (message !== undefined) {
        data.message_digest = digest(message);
        put(data, 'prompt', red(message, at('run.started')));
      }
      return [{ type: 'run.started', data }];
    }
    case 'pre_tool_call': {
      const tool = toolOf(input);
      const data: Record<string, unknown> = { tool };
      putContent(data, 'args', input.tool_input, at('tool.requested'));
      const out: Mapped[] = [{ type: 'tool.requested', data, subject: tool.name }];
      if (tool.name === 'clarify') {
        const card = clarifyCard(input.tool_input, at('attention.requested'));
        if (card) out.push({ type: 'attention.requested', data: card, ...(tool.call_id ? { subject: tool.call_id } : {}) });
      }
      return out;
    }
    case 'post_tool_call':
      return postTool(input, posture);
    case 'pre_approval_request':
      return [mapApprovalRequest(input, posture)];
    case 'post_approval_response': {
      const key = str(extra.pattern_key);
      const choice = str(extra.choice) ?? 'deny';
      const subject = key ? { subject: key } : {};
      if (choice === 'timeout') return [{ type: 'attention.timeout', data: {}, ...subject }];
      return [{ type: 'attention.answered', data: { answer: { option: choice }, via: 'oob' }, ...subject }];
    }
    case 'on_session_end':
      return extra.interrupted === true ? [{ type: 'run.cancelled', data: { by: 'user' } }] : [{ type: 'run.finished', data: {} }];
    case 'on_session_finalize':
      return [{ type: 'session.ended', data: { reason: 'normal' } }];
    case 'on_session_reset': {
      const data: Record<string, unknown> = {};
      put(data, 'reason', str(extra.reason));
      return [{ type: `x.${AGENT}.session.reset`, data }];
    }
    case 'subagent_start':
    case 'subagent_stop': {
      const child = str(extra.child_session_id);
      const data: Record<string, unknown> = {};
      if (child) data.child = { session: child };
      if (hook === 'subagent_start') {
        put(data, 'role', str(extra.child_role));
        put(data, 'goal', str(extra.child_goal) && red(extra.child_goal as string, at('delegation.subagent.started')));
      } else {
        put(data, 'status', str(extra.child_status));
        put(data, 'duration_ms', num(extra.duration_ms));
        put(data, 'summary', str(extra.child_summary) && red(extra.child_summary as string, at('delegation.subagent.stopped')));
      }
      const type = hook === 'subagent_start' ? 'delegation.subagent.started' : 'delegation.subagent.stopped';
      return [{ type, data, ...(child ? { subject: child } : {}) }];
    }
    case 'api_request_error': {
      const type = `x.${AGENT}.api.error`;
      const data: Record<string, unknown> = {};
      put(data, 'status_code', num(extra.status_code));
      put(data, 'retry_count', num(extra.retry_count));
      put(data, 'reason', str(extra.reason));
      const err = isPlainObject(extra.error) ? extra.error : {};
      put(data, 'message', str(err.message) && red(err.message as string, at(type)));
      return [{ type, data }];
    }
    default:
      return [{ type: vendorFallbackType(AGENT, hook), data: {} }];
  }
}
