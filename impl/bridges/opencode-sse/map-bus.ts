/**
 * OpenCode-family bus event → AEP event, as the SSE channel (`GET /event`) sees it, for OpenCode
 * and its fork Kilo Code (`vendor` names the namespace and the client). This is the SSE
 * bridge's own read of the bus: the read-only channel, so permission and question asks map to
 * `attention.requested` WITHOUT options or respond_via (nothing answers through this channel
 * unless the receiver's opt-in gate decorates it), and `todo.updated` is null (a snapshot; the
 * receiver diffs it). Capture: titles, paths, arguments and messages are user content, absent
 * at metadata; the permission prompt uses the vendor title at the redacted attention ceiling.
 */
import { isPlainObject, type CaptureLevel } from '../../core/event.js';
import { allows, red } from '../../adapter-kit/capture.js';
import type { Mapped } from '../../adapter-kit/types.js';

export type BusVendor = 'opencode' | 'kilocode';

export interface BusMapOptions {
  /** Level for `attention.*`. Default `redacted`. */
  attention?: CaptureLevel;
}

/** A bus event as the SSE stream carries it. */
export interface BusEvent {
  type: string;
  properties?: Record<string, unknown>;
}

const obj = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const int = (v: unknown): number | undefined => (Number.isInteger(v) && (v as number) >= 0 ? (v as number) : undefined);

/** `x.<vendor>.<bus type>`: the bus types already have two segments (`session.idle`). */
export function vendorType(vendor: BusVendor, busType: string): string {
  const segs = busType.split('.').map((s) => s.toLowerCase().replace(/[^a-z0-9_-]/g, '')).filter((s) => s !== '');
  if (segs.length === 1) segs.push('event');
  return `x.${vendor}.${segs.join('.') || 'unknown.event'}`;
}

function permissionAsk(p: Record<string, unknown>, level: CaptureLevel): Mapped {
  const kind = str(p.type) ?? str(p.permission) ?? 'tool';
  const title = str(p.title);
  const structural = `Permission requested: ${kind}`;
  const prompt = title && allows(level, 'redacted') ? (red(`${structural} — ${title}`, level) ?? structural) : structural;
  return { type: 'attention.requested', data: { kind: 'permission', prompt }, subject: kind };
}

function questionAsk(vendor: BusVendor, p: Record<string, unknown>, level: CaptureLevel): Mapped {
  const questions = Array.isArray(p.questions) ? p.questions.map(obj) : [];
  const labelOk = allows(level, 'redacted');
  const fields = questions.map((q, i) => {
    const header = str(q.header);
    const text = str(q.question) ?? '';
    const label = labelOk ? (red(header ? `${header}: ${text}` : text, level) ?? `Question ${i + 1}`) : `Question ${i + 1}`;
    const options = Array.isArray(q.options) ? q.options.map(obj) : [];
    const field: Record<string, unknown> = { id: String(i + 1), type: 'select', label, required: true };
    if (q.multiple === true) field.multi = true;
    if (q.custom !== false) field.other = true;
    field.choices = options.map((o, j) => ({ id: String(j + 1), label: labelOk ? (red(str(o.label) ?? '', level) ?? `Option ${j + 1}`) : `Option ${j + 1}` }));
    return field;
  });
  const n = questions.length;
  const data = { kind: 'form', prompt: `${vendor} asks ${n} question${n === 1 ? '' : 's'}`, fields };
  return str(p.id) ? { type: 'attention.requested', data, subject: str(p.id) } : { type: 'attention.requested', data };
}

/** One bus event → `{type, data, subject?}` or null, the full (primary-mode) SSE mapping. */
export function mapBusEvent(vendor: BusVendor, event: BusEvent, opts: BusMapOptions = {}): Mapped | null {
  const level = opts.attention ?? 'redacted';
  const p = obj(event.properties);
  const info = obj(p.info);
  switch (event.type) {
    case 'session.created': {
      const client: Record<string, unknown> = { name: vendor };
      if (str(info.version)) client.version = info.version;
      const data: Record<string, unknown> = { client };
      if (str(info.parentID)) data.parent = { session: info.parentID };
      return { type: 'session.started', data };
    }
    case 'session.deleted':
      return { type: 'session.ended', data: { reason: 'normal' } };
    case 'session.idle':
      return { type: 'run.finished', data: {} };
    case 'session.compacted':
      return { type: 'session.compacted', data: {} };
    case 'session.status': {
      const status = str(obj(p.status).type);
      return status ? { type: 'progress.status', data: {}, subject: status } : { type: 'progress.status', data: {} };
    }
    case 'session.error': {
      const name = str(obj(p.error).name);
      return { type: vendorType(vendor, event.type), data: name ? { type: name } : {} };
    }
    case 'message.updated': {
      if (info.role === 'user') return { type: 'run.started', data: { trigger: 'user' } };
      const data: Record<string, unknown> = {};
      if (str(info.role)) data.role = info.role;
      const tokens = obj(info.tokens);
      if (int(tokens.input) !== undefined) data['gen_ai.usage.input_tokens'] = tokens.input;
      if (int(tokens.output) !== undefined) data['gen_ai.usage.output_tokens'] = tokens.output;
      return { type: vendorType(vendor, event.type), data };
    }
    case 'permission.updated':
    case 'permission.asked':
      return permissionAsk(p, level);
    case 'permission.replied': {
      const id = str(p.permissionID) ?? str(p.requestID);
      return id ? { type: 'attention.resolved', data: { resolution: 'answered' }, subject: id } : { type: 'attention.resolved', data: { resolution: 'answered' } };
    }
    case 'question.asked':
      return questionAsk(vendor, p, level);
    case 'question.replied':
    case 'question.rejected': {
      const id = str(p.requestID) ?? str(p.id);
      const resolution = event.type === 'question.replied' ? 'answered' : 'dismissed';
      return id ? { type: 'attention.resolved', data: { resolution }, subject: id } : { type: 'attention.resolved', data: { resolution } };
    }
    case 'todo.updated':
      return null;
    case 'command.executed':
      return { type: vendorType(vendor, event.type), data: str(p.name) ? { name: p.name } : {} };
    default:
      return { type: vendorType(vendor, typeof event.type === 'string' ? event.type : 'unknown') , data: {} };
  }
}
