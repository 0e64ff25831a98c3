/**
 * The vendor-neutral half of hook mapping (AEP-0002 Annex A): helpers every vendor mapper uses,
 * and `mapCommonHook`, the hooks whose payload shape Claude Code and Codex share.
 * Pure: no I/O; every content-bearing field is produced only when the capture level allows it.
 */
import { digest } from '../core/digest.js';
import { redactValue } from '../core/redact.js';
import type { CaptureLevel } from '../core/event.js';
import { levelFor, red } from './capture.js';
import type { HookInput, Mapped, Posture } from './types.js';

/** The options of an allow/deny permission request: adapter constants, structural at any ceiling. */
export const ALLOW_DENY_OPTIONS = Object.freeze([
  Object.freeze({ id: 'allow', label: 'Allow' }),
  Object.freeze({ id: 'deny', label: 'Deny' }),
]);

/**
 * `attention.requested{kind:"permission", respond_via:["control"]}` for a held permission moment
 * (a PermissionRequest, a gated PreToolUse): the prompt `Permission requested: <tool><summary>`
 * through the §9.4 pipeline at redacted and above, `<agent> requests permission: <tool>` (structure
 * only) below; `summary` is the vendor's own rendering of the call (e.g. ` — <command>`).
 */
export function heldPermissionRequest(agent: string, input: HookInput, summary: string, posture: Posture, options: readonly { id: string; label: string }[]): Mapped {
  const tool = str(input.tool_name) ?? 'unknown';
  const text = red(`Permission requested: ${tool}${summary}`, levelFor('attention.requested', posture));
  return {
    type: 'attention.requested',
    data: { kind: 'permission', prompt: text ?? `${agent} requests permission: ${tool}`, options: options.map((o) => ({ ...o })), respond_via: ['control'] },
    subject: tool,
  };
}

/** `v` when it is a non-empty string, else undefined. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Set `data[key]` only when `value` is defined (absent fields stay absent). */
export function put(data: Record<string, unknown>, key: string, value: unknown): void {
  if (value !== undefined) data[key] = value;
}

/** `SomeHookName` → `some_hook_name` (the mechanical `x.{vendor}.session.*` fallback); `unknown` when empty. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase() || 'unknown';
}

/** The `tool` object of a tool event: `tool_name` (default `unknown`) and, when present, `tool_use_id`. */
export function toolRef(input: HookInput): { name: string; call_id?: string } {
  const ref: { name: string; call_id?: string } = { name: str(input.tool_name) ?? 'unknown' };
  const call = str(input.tool_use_id);
  if (call) ref.call_id = call;
  return ref;
}

/** An object-or-string payload at `full` verbatim, at `redacted` through the pipeline, else absent. */
export function content(value: unknown, level: CaptureLevel): unknown {
  if (value === undefined || level === 'none' || level === 'metadata') return undefined;
  if (level === 'full') return value;
  return typeof value === 'string' ? red(value, level) : redactValue(value, { pii: true });
}

/**
 * A tool event whose payload travels as `{key}_digest` always, `{key}` verbatim at `full` and
 * `{key}_redacted` at `redacted` (AEP-0003 §9.3: the digest is metadata-class).
 */
function toolEvent(type: string, input: HookInput, key: 'args' | 'result', payload: unknown, level: CaptureLevel): Mapped {
  const tool = toolRef(input);
  const data: Record<string, unknown> = { tool };
  if (payload !== undefined) data[`${key}_digest`] = digest(payload);
  if (level === 'full') put(data, key, payload);
  else put(data, `${key}_redacted`, content(payload, level));
  return { type, data, subject: tool.name };
}

/**
 * The hooks both vendors send with the same payload shape: SessionStart, UserPromptSubmit, Stop,
 * PreToolUse, PostToolUse, SubagentStart/SubagentStop, PreCompact (null: nothing is emitted) and
 * PostCompact. Returns undefined for any other hook, which the vendor mapper then handles itself.
 * `agent` is the vendor's client name (`session.started` `client.name`).
 */
export function mapCommonHook(hook: string, input: HookInput, agent: string, posture: Posture): Mapped | null | undefined {
  const at = (type: string): CaptureLevel => levelFor(type, posture);
  const data: Record<string, unknown> = {};
  switch (hook) {
    case 'SessionStart':
      data.client = { name: agent };
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
    case 'PreToolUse':
      return toolEvent('tool.requested', input, 'args', input.tool_input, at('tool.requested'));
    case 'PostToolUse':
      return toolEvent('tool.completed', input, 'result', input.tool_response, at('tool.completed'));
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
      return undefined;
  }
}

/** The mechanical fallback for a hook no mapping names: `x.{agent}.session.{snake_case(hook)}`, empty data. */
export function mapUnknownHook(hook: string, agent: string): Mapped {
  return { type: `x.${agent}.session.${snakeCase(hook)}`, data: {} };
}
