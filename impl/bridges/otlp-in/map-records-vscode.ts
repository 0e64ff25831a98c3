/**
 * VS Code agent OTel LogRecord → AEP event (AEP-0002 Annex A, the VS Code OTel-inbound profile,
 * the `copilot_chat.*` family plus the OTel GenAI inference-details record).
 *
 * Same contract as map-records.ts. Companion (default) emits only `x.vscode.otel.<leaf>`;
 * primary emits the smaller core subset: `session.started` and `tool.completed` /
 * `tool.failed` (error.type is the vendor's own low-cardinality class). This channel never emits
 * `tool.denied` (the approval tier is decided after the hook span) nor `session.ended` (no
 * session end exists on this vendor surface). The session key is the RESOURCE `session.id`.
 * Capture: `gen_ai.*.messages`, system instructions and tool definitions are redacted-class
 * content, absent at metadata; `error.message` likewise.
 */
import type { CaptureLevel } from '../../core/event.js';
import { red } from '../../adapter-kit/capture.js';
import type { Mapped } from '../../adapter-kit/types.js';
import { boolOf, intOf, keptAttributes, str, type MapOptions, type OtelRecord, type VendorProfile } from './profile.js';

export const AGENT = 'vscode';
const NS = 'x.vscode.otel.';

/** event.name → namespace leaf, for the records this profile knows. */
export const KNOWN: Readonly<Record<string, string>> = {
  'copilot_chat.session.start': 'session.start',
  'copilot_chat.tool.call': 'tool.call',
  'copilot_chat.agent.turn': 'agent.turn',
  'copilot_chat.edit.feedback': 'edit.feedback',
  'gen_ai.client.inference.operation.details': 'inference_details',
};

const DROP: ReadonlySet<string> = new Set(['event.name', 'event.timestamp', 'session.id']);
const redactedContent = (v: unknown, c: CaptureLevel): unknown => {
  if (c === 'full') return v;
  if (c === 'redacted') return red(typeof v === 'string' ? v : JSON.stringify(v), c);
  return undefined;
};
const GATED: Readonly<Record<string, (v: unknown, c: CaptureLevel) => unknown>> = {
  'gen_ai.input.messages': redactedContent,
  'gen_ai.output.messages': redactedContent,
  'gen_ai.system_instructions': redactedContent,
  'gen_ai.tool.definitions': redactedContent,
  'gen_ai.tool.call.arguments': redactedContent,
  'gen_ai.tool.call.result': redactedContent,
  'error.message': redactedContent,
};

function companion(leaf: string, attributes: Record<string, unknown>, ceiling: CaptureLevel): Mapped {
  return { type: NS + leaf, data: keptAttributes(attributes, DROP, GATED, ceiling) };
}

function primary(leaf: string, a: Record<string, unknown>, ceiling: CaptureLevel): Mapped | null {
  if (leaf === 'session.start') {
    const data: Record<string, unknown> = { client: { name: AGENT } };
    if (str(a['gen_ai.request.model'])) data['gen_ai.request.model'] = a['gen_ai.request.model'];
    return { type: 'session.started', data };
  }
  const tool = str(a['gen_ai.tool.name']);
  if (leaf === 'tool.call' && tool) {
    const ok = boolOf(a.success);
    const ms = intOf(a.duration_ms);
    if (ok === true) return { type: 'tool.completed', data: { tool: { name: tool }, ...(ms !== undefined ? { duration_ms: ms } : {}) }, subject: tool };
    if (ok === false) {
      const error: Record<string, unknown> = { type: str(a['error.type']) ?? 'tool_error' };
      const message = typeof a['error.message'] === 'string' ? red(a['error.message'], ceiling) : undefined;
      if (message !== undefined) error.message = message;
      return { type: 'tool.failed', data: { tool: { name: tool }, error, ...(ms !== undefined ? { duration_ms: ms } : {}) }, subject: tool };
    }
  }
  return companion(leaf, a, ceiling);
}

/** One VS Code LogRecord → `{type, data, subject?}`, or null when the mode deliberately emits nothing. */
export function mapRecord(record: OtelRecord, opts: MapOptions = {}): Mapped | null {
  const attributes = record.attributes ?? {};
  const name = str(attributes['event.name']);
  const leaf = name !== undefined && Object.prototype.hasOwnProperty.call(KNOWN, name) ? KNOWN[name] : undefined;
  if (!name || !leaf) return { type: `${NS}unknown`, data: name ? { 'event.name': name } : {} };
  const ceiling = opts.ceiling ?? 'metadata';
  return opts.mode === 'primary' ? primary(leaf, attributes, ceiling) : companion(leaf, attributes, ceiling);
}

export const vscodeProfile: VendorProfile = {
  agent: AGENT,
  sessionOf: (record) => str(record.resource?.['session.id']) ?? str(record.attributes?.['session.id']),
  mapRecord,
};
