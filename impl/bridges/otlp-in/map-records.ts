/**
 * Codex OTel LogRecord → AEP event (AEP-0002 Annex A, the Codex OTel-inbound profile).
 *
 * `mapRecord({resource, attributes}, {mode, ceiling})` over FLATTENED attributes; `event.name`
 * discriminates. Companion mode (default) emits only `x.codex.otel.<snake(event)>`, never a
 * core type; primary mode emits the core subset:
 *
 * | event.name | primary |
 * |---|---|
 * | codex.conversation_starts | `session.started` (client codex, model) |
 * | codex.tool_result | `tool.completed` / `tool.failed` by the success flag |
 * | codex.tool_decision, deny from config / automation | `tool.denied` by policy / runtime |
 * | codex.tool_decision, deny from the user | nothing (a human decision, not a block) |
 * | codex.user_prompt, api_request, sse_event, websocket_* | the companion shape (both modes) |
 * | anything else | `x.codex.otel.unknown` with only `event.name` (both modes) |
 *
 * Capture: the prompt forwards only when the vendor sent it (not `[REDACTED]`) AND the ceiling is
 * redacted+; error text at redacted+; tool arguments/output at full; `user.email` at full;
 * identity attributes (conversation.id, app.version, originator, host.name) never ride in data.
 */
import type { CaptureLevel } from '../../core/event.js';
import { allows, red } from '../../adapter-kit/capture.js';
import type { Mapped } from '../../adapter-kit/types.js';
import { boolOf, intOf, keptAttributes, str, type MapOptions, type OtelRecord, type VendorProfile } from './profile.js';

export const AGENT = 'codex';
const PREFIX = 'codex.';
const NS = 'x.codex.otel.';

/** The documented Codex event names (leaf after `codex.`). Anything else is `unknown`. */
export const KNOWN: ReadonlySet<string> = new Set([
  'conversation_starts', 'api_request', 'sse_event', 'websocket_request', 'websocket_event', 'user_prompt', 'tool_decision', 'tool_result',
]);

const DROP: ReadonlySet<string> = new Set(['conversation.id', 'app.version', 'originator', 'event.name', 'event.timestamp', 'host.name', 'terminal.type']);
const fullOnly = (v: unknown, c: CaptureLevel): unknown => (c === 'full' ? v : undefined);
const redactedText = (v: unknown, c: CaptureLevel): unknown => (typeof v === 'string' ? red(v, c) : allows(c, 'full') ? v : undefined);
const GATED: Readonly<Record<string, (v: unknown, c: CaptureLevel) => unknown>> = {
  prompt: (v, c) => (typeof v === 'string' && v !== '[REDACTED]' ? red(v, c) : undefined),
  error: redactedText,
  arguments: fullOnly,
  output: fullOnly,
  'user.email': fullOnly,
};

function companion(leaf: string, attributes: Record<string, unknown>, ceiling: CaptureLevel): Mapped {
  return { type: NS + leaf, data: keptAttributes(attributes, DROP, GATED, ceiling) };
}

function primary(leaf: string, a: Record<string, unknown>, ceiling: CaptureLevel): Mapped | null {
  const tool = str(a.tool_name);
  switch (leaf) {
    case 'conversation_starts': {
      const data: Record<string, unknown> = { client: { name: AGENT } };
      if (str(a.model)) data['gen_ai.request.model'] = a.model;
      return { type: 'session.started', data };
    }
    case 'tool_result': {
      if (!tool) break;
      const ok = boolOf(a.success);
      if (ok === true) {
        const data: Record<string, unknown> = { tool: { name: tool } };
        const ms = intOf(a.duration_ms);
        if (ms !== undefined) data.duration_ms = ms;
        return { type: 'tool.completed', data, subject: tool };
      }
      if (ok === false) {
        const error: Record<string, unknown> = { type: 'tool_error' };
        const message = typeof a.error === 'string' ? red(a.error, ceiling) : undefined;
        if (message !== undefined) error.message = message;
        return { type: 'tool.failed', data: { tool: { name: tool }, error }, subject: tool };
      }
      break;
    }
    case 'tool_decision': {
      const decision = String(a.decision ?? '').toLowerCase();
      if (!tool || !['deny', 'denied', 'reject', 'rejected', 'abort'].includes(decision)) break;
      const source = String(a.source ?? '').toLowerCase();
      if (source === 'config') return { type: 'tool.denied', data: { tool: { name: tool }, by: 'policy' }, subject: tool };
      if (source === 'automation') return { type: 'tool.denied', data: { tool: { name: tool }, by: 'runtime' }, subject: tool };
      return null;
    }
  }
  return companion(leaf, a, ceiling);
}

/** One Codex LogRecord → `{type, data, subject?}`, or null when the mode deliberately emits nothing. */
export function mapRecord(record: OtelRecord, opts: MapOptions = {}): Mapped | null {
  const attributes = record.attributes ?? {};
  const ceiling = opts.ceiling ?? 'metadata';
  const name = str(attributes['event.name']);
  const leaf = name?.startsWith(PREFIX) ? name.slice(PREFIX.length) : undefined;
  if (!name || !leaf || !KNOWN.has(leaf)) return { type: `${NS}unknown`, data: name ? { 'event.name': name } : {} };
  return opts.mode === 'primary' ? primary(leaf, attributes, ceiling) : companion(leaf, attributes, ceiling);
}

export const codexProfile: VendorProfile = {
  agent: AGENT,
  sessionOf: (record) => str(record.attributes?.['conversation.id']),
  mapRecord,
};
