/**
 * Kimi web (kap-server WS event stream) → AEP, with its two modes, as one pure function:
 * `applyMode(envelope, mode)` over a WS envelope `{type, seq, session_id, timestamp, payload,
 * volatile?}`.
 * - Both modes: `volatile` frames never emit (the vendor's own do-not-persist marker), and the
 *   internal `permission.approval.*` bus echoes are dropped in favour of their
 *   `event.approval.*` wire twins (echo dedupe).
 * - `companion` (default): the hook adapter observes the same sessions and is the sole core-type
 *   authority, so only `x.kimi-code.web.<type>` with empty data.
 * - `primary`: the vendor's real turn boundaries carry the run pair; `tool.call.started` opens
 *   the tool pair (`tool.result` names no tool: null here, the receiver re-attaches the name by
 *   call id); every ask maps to `attention.requested` WITHOUT options or respond_via.
 * No session lifecycle is fabricated (kap sessions outlive connections).
 */
import { digest } from '../../core/digest.js';
import { isPlainObject, type CaptureLevel } from '../../core/event.js';
import { allows, red } from '../../adapter-kit/capture.js';
import type { Mapped } from '../../adapter-kit/types.js';

export const AGENT = 'kimi-code';
export type WsMode = 'companion' | 'primary';
const NS = 'x.kimi-code.web.';

const obj = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** `x.kimi-code.web.<type>` with a safe type string. */
export function webType(type: string): string {
  const segs = type.split('.').map((s) => s.toLowerCase().replace(/[^a-z0-9_-]/g, '')).filter((s) => s !== '');
  return NS + (segs.length > 0 ? segs.join('.') : 'unknown');
}

const withSubject = (m: Mapped, subject: string | undefined): Mapped => (subject ? { ...m, subject } : m);

function primary(type: string, p: Record<string, unknown>, attention: CaptureLevel): Mapped | null {
  switch (type) {
    case 'turn.started': {
      const origin = str(obj(p.origin).kind);
      return { type: 'run.started', data: { trigger: origin === 'user' || origin === undefined ? 'user' : origin === 'schedule' ? 'schedule' : 'agent' } };
    }
    case 'turn.ended': {
      // completed → finished; cancelled → cancelled with no `by` (the channel does not know who);
      // any other vendor word is a failure carrying that word.
      const reason = str(p.reason);
      if (reason === 'completed' || reason === undefined) return { type: 'run.finished', data: {} };
      if (reason === 'cancelled') return { type: 'run.cancelled', data: {} };
      return { type: 'run.failed', data: { reason } };
    }
    case 'tool.call.started': {
      const name = str(p.name) ?? 'unknown';
      const tool: Record<string, unknown> = { name };
      if (str(p.toolCallId)) tool.call_id = p.toolCallId;
      const data: Record<string, unknown> = { tool };
      if (p.args !== undefined) data.args_digest = digest(p.args);
      return { type: 'tool.requested', data, subject: name };
    }
    case 'tool.result':
      return null;
    case 'event.approval.requested': {
      const tool = str(p.tool_name) ?? 'tool';
      const structural = `Permission requested: ${tool}`;
      const action = str(p.action);
      const prompt = action && allows(attention, 'redacted') ? (red(action, attention) ?? structural) : structural;
      return withSubject({ type: 'attention.requested', data: { kind: 'permission', prompt } }, str(p.approval_id));
    }
    case 'event.approval.resolved': {
      const decision = str(p.decision);
      if (!decision) return withSubject({ type: 'attention.resolved', data: { resolution: 'dismissed' } }, str(p.approval_id));
      const answer: Record<string, unknown> = { option: decision };
      const text = typeof p.feedback === 'string' && p.feedback !== '' ? red(p.feedback, attention) : undefined;
      if (text !== undefined) answer.text = text;
      return withSubject({ type: 'attention.answered', data: { answer, via: 'oob' } }, str(p.approval_id));
    }
    case 'event.question.requested': {
      const questions = Array.isArray(p.questions) ? p.questions.map(obj) : [];
      const labelOk = allows(attention, 'redacted');
      const fields = questions.map((q, i) => {
        const label = labelOk ? (red(str(q.question) ?? '', attention) ?? `Question ${i + 1}`) : `Question ${i + 1}`;
        const choices = (Array.isArray(q.options) ? q.options.map(obj) : []).map((o, j) => ({
          id: str(o.id) ?? String(j + 1),
          label: labelOk ? (red(str(o.label) ?? '', attention) ?? `Option ${j + 1}`) : `Option ${j + 1}`,
        }));
        const field: Record<string, unknown> = { id: str(q.id) ?? String(i + 1), type: 'select', label, choices };
        if (q.multi_select === true || q.multiple === true) field.multi = true;
        if (q.allow_other === true) field.other = true;
        return field;
      });
      const prompt = questions.length === 1 ? (fields[0]!.label as string) : `${AGENT} asks ${questions.length} questions`;
      return withSubject({ type: 'attention.requested', data: { kind: 'form', prompt, fields } }, str(p.question_id));
    }
    case 'event.question.answered':
      return withSubject({ type: 'attention.answered', data: { answer: { values: obj(p.answers) }, via: 'oob' } }, str(p.question_id));
    case 'event.question.dismissed':
      return withSubject({ type: 'attention.resolved', data: { resolution: 'dismissed' } }, str(p.question_id));
    case 'event.session.work_changed': {
      const data: Record<string, unknown> = {};
      if (typeof p.busy === 'boolean') data.busy = p.busy;
      if (str(p.pending_interaction)) data.pending_interaction = p.pending_interaction;
      return { type: webType(type), data };
    }
    default:
      return { type: webType(type), data: {} };
  }
}

/** One WS envelope → `{type, data, subject?}` or null under `mode`; `attention` default redacted. */
export function applyMode(envelope: unknown, mode: WsMode, attention: CaptureLevel = 'redacted'): Mapped | null {
  const env = obj(envelope);
  if (env.volatile === true) return null;
  const type = str(env.type) ?? str(obj(env.payload).type) ?? 'unknown';
  if (type.startsWith('permission.approval.')) return null;
  if (mode === 'companion') return { type: webType(type), data: {} };
  return primary(type, obj(env.payload), attention);
}
