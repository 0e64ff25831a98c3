/**
 * The examples the MCP tool descriptions show a model, kept as data: the descriptions are rendered
 * from them, and a test sends every one through the tool's own path (examples.test.ts), so a
 * description can never suggest a call the tool refuses.
 */
import type { CaptureLevel } from '../core/event.js';

export interface EmitExample {
  type: string;
  data?: Record<string, unknown>;
  subject?: string;
  severity?: string;
  capture?: CaptureLevel;
}

export interface AskExample {
  prompt: string;
  options?: string[];
}

/** emit_event calls a model may copy. The one declaring `redacted` needs a server at AEP_CAPTURE=redacted or above. */
export const EMIT_EXAMPLES: readonly EmitExample[] = [
  { type: 'progress.task.completed', data: { task: { id: 'migrate-orders-table' }, status: 'done' } },
  { type: 'progress.status', data: { phase: 'integration-tests', percent: 60 } },
  { type: 'progress.status', data: { message: 'all 212 integration tests pass' }, capture: 'redacted' },
  { type: 'x.myorg.deploy.finished', data: { environment: 'staging' }, severity: 'notice' },
];

/** ask_human calls a model may copy. */
export const ASK_EXAMPLES: readonly AskExample[] = [
  { prompt: 'Apply the schema migration to production now?', options: ['approve', 'reject'] },
  { prompt: 'Which branch should the release be cut from?' },
];

const json = (v: unknown): string => JSON.stringify(v);

/** The examples line of emit_event's description. */
export function emitExamplesText(): string {
  return `Examples: ${EMIT_EXAMPLES.map(json).join('; ')}.`;
}

/** The examples line of ask_human's description. */
export function askExamplesText(): string {
  return `Examples: ${ASK_EXAMPLES.map(json).join('; ')}.`;
}

/** The `type` member's description: the example types, registered ones first. */
export function typeHint(): string {
  const types = [...new Set(EMIT_EXAMPLES.map((e) => e.type))];
  return `an AEP event type: a registered one (e.g. ${types.filter((t) => !t.startsWith('x.')).map((t) => `'${t}'`).join(', ')}) or an extension x.<org>.<noun>.<verb> (e.g. ${types.filter((t) => t.startsWith('x.')).map((t) => `'${t}'`).join(', ')})`;
}
