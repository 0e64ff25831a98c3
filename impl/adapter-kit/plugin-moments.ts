/**
 * The pure moment mapping of the OpenCode plugin family (AEP-0002 Annex A.7 OpenCode, A.8 Kilo
 * Code, a fork that carries the table whole on its own identity): one plugin moment → one event
 * `{type, data, subject?}` or null (a deliberate silence). No I/O, no state: run synthesis, the todo
 * snapshot memory and the permission dedupe are runtime state in plugin-host.ts.
 *
 * A moment is what the plugin forwards: `{kind:'bus', event}` (the `event` hook),
 * `{kind:'tool.before'|'tool.after', input, output}` (the interception pair, observed only) or
 * `{kind:'permission.ask', permission}` (the held hook).
 *
 * Both vendor shapes are mapped where the shipped runtime differs from the standard's pin:
 * - the ask: the v1 `Permission` (`type`, `pattern`, `title`, `callID`) and the v2
 *   `PermissionRequest` (`permission`, `patterns`, `tool.callID`), on the hook and on bus
 *   `permission.asked`;
 * - the settle: v1 `permission.replied{permissionID, response}` and v2 `{requestID, reply}`.
 * Every content field is produced only when the capture level allows it (AEP-0003 §9.1).
 */
import { digest } from '../core/digest.js';
import { isPlainObject, type CaptureLevel } from '../core/event.js';
import { DEFAULT_POSTURE, levelFor, red } from './capture.js';
import { content, put, str } from './mapping.js';
import type { FieldSpec, Mapped, Posture, RequestOption } from './types.js';

/** One plugin moment, as forwarded to the daemon. */
export type Moment =
  | { kind: 'bus'; event: { type?: unknown; properties?: unknown } }
  | { kind: 'tool.before' | 'tool.after'; input: Record<string, unknown>; output?: unknown }
  | { kind: 'permission.ask'; permission: Record<string, unknown> };

/** The options of the held `permission.ask` hook: what its `output.status` can carry. */
export const HOOK_OPTIONS: readonly RequestOption[] = Object.freeze([
  Object.freeze({ id: 'allow', label: 'Allow' }),
  Object.freeze({ id: 'deny', label: 'Deny' }),
]);

/** The options of a bus `permission.asked`: the vendor's REST reply enum, verbatim. */
export const REPLY_OPTIONS: readonly RequestOption[] = Object.freeze([
  Object.freeze({ id: 'once', label: 'Allow once' }),
  Object.freeze({ id: 'always', label: 'Always allow' }),
  Object.freeze({ id: 'reject', label: 'Reject' }),
]);

/** One question of a `question.asked` (the vendor's `QuestionInfo`). */
export interface VendorQuestion {
  question?: string;
  header?: string;
  options?: { label?: string; description?: string }[];
  multiple?: boolean;
  custom?: boolean;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);

/** `segment` as a vendor type segment: lower case, `[a-z0-9_]` only. */
function segment(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'unknown';
}

/**
 * The vendor type of a bus type no core mapping claims: `x.{agent}.{bus type}` segment by segment;
 * a one-segment type, or one whose family is `control` (a command namespace), goes under `unknown.`.
 */
export function vendorType(agent: string, busType: string): string {
  const parts = busType.split('.').map(segment);
  if (parts.length < 2 || parts[0] === 'control') parts.unshift('unknown');
  return `x.${agent}.${parts.join('.')}`;
}

/** The session a moment belongs to, wherever its shape carries it; undefined for agent-scope moments. */
export function momentSession(moment: unknown): string | undefined {
  const m = obj(moment);
  if (m.kind === 'bus') {
    const event = obj(m.event);
    const p = obj(event.properties);
    const info = obj(p.info);
    if (event.type === 'session.created' || event.type === 'session.updated' || event.type === 'session.deleted') return str(info.id) ?? str(p.sessionID);
    return str(p.sessionID) ?? str(info.sessionID) ?? str(obj(p.part).sessionID);
  }
  if (m.kind === 'permission.ask') return str(obj(m.permission).sessionID);
  return str(obj(m.input).sessionID);
}

/** The tool call id an ask is about (v1 `callID`, v2 `tool.callID`). */
export function askCallId(ask: Obj): string | undefined {
  return str(ask.callID) ?? str(obj(ask.tool).callID);
}

/** The permission kind of an ask (v1 `type`, v2 `permission`). */
export function askKind(ask: Obj): string {
  return str(ask.type) ?? str(ask.permission) ?? 'unknown';
}

/** The human summary of an ask: v1 `title`, else the v2 `patterns` (or v1 `pattern`) joined. */
function askSummary(ask: Obj): string | undefined {
  const title = str(ask.title);
  if (title) return title;
  const patterns = Array.isArray(ask.patterns) ? ask.patterns : Array.isArray(ask.pattern) ? ask.pattern : [ask.pattern];
  return str(patterns.filter((p): p is string => typeof p === 'string' && p !== '').join(' '));
}

/**
 * `attention.requested` (kind permission) for an ask. The prompt is the vendor's own text at
 * redacted+ (through the §9.4 pipeline); at metadata it is synthesized from structure.
 */
export function mapAsk(agent: string, ask: Obj, options: readonly RequestOption[], posture: Posture): Mapped {
  const kind = askKind(ask);
  const summary = askSummary(ask);
  const prompt = red(`Permission requested: ${kind}${summary ? ` — ${summary}` : ''}`, levelFor('attention.requested', posture));
  return {
    type: 'attention.requested',
    data: { kind: 'permission', prompt: prompt ?? `${agent} requests permission: ${kind}`, options: options.map((o) => ({ ...o })), respond_via: ['control'] },
    subject: kind,
  };
}

/**
 * One `question.asked` → one `kind:"form"` request on the AskUserQuestion shape (AEP-0006): 1-based
 * index ids (structural at any ceiling), labels real (redacted) at redacted+ and the index below,
 * the vendor `custom` (default true) → `other`, `multiple` → `multi`.
 */
export function mapQuestions(agent: string, questions: readonly VendorQuestion[], contentOk: boolean): { prompt: string; fields: FieldSpec[] } {
  const label = (s: string | undefined, placeholder: string): string => (contentOk && s ? (red(s, 'redacted') ?? placeholder) : placeholder);
  const fields = questions.map((q, i): FieldSpec => {
    const id = String(i + 1);
    const header = str(q.header)?.trim();
    const question = str(q.question)?.trim();
    const field: FieldSpec = {
      id,
      type: 'select',
      label: label(header && question ? `${header}: ${question}` : header || question, id),
      required: true,
    };
    if (q.custom !== false) field.other = true;
    if (q.multiple === true) field.multi = true;
    field.choices = (Array.isArray(q.options) ? q.options : []).map((o, j) => ({ id: String(j + 1), label: label(str(obj(o).label), String(j + 1)) }));
    return field;
  });
  return { prompt: `${agent} asks ${fields.length} question${fields.length === 1 ? '' : 's'}`, fields };
}

/** The questions array of a `question.asked`; non-object entries are skipped. */
export function questionsOf(properties: unknown): VendorQuestion[] {
  const qs = obj(properties).questions;
  return Array.isArray(qs) ? (qs.filter(isPlainObject) as VendorQuestion[]) : [];
}

/**
 * Validated form values → the vendor's `answers: string[][]`, one array per question in order:
 * a choice id becomes the ORIGINAL vendor label (never the redacted one), other text passes as is.
 */
export function answersFor(questions: readonly VendorQuestion[], values: Record<string, unknown>): string[][] {
  return questions.map((q, i) => {
    const value = values[String(i + 1)];
    if (value === undefined) return [];
    const options = Array.isArray(q.options) ? q.options : [];
    const labelOf = (v: unknown): string => {
      const s = typeof v === 'string' ? v : String(v);
      const option = /^[1-9][0-9]*$/.test(s) ? options[Number(s) - 1] : undefined;
      return option && typeof option.label === 'string' ? option.label : s;
    };
    return Array.isArray(value) ? value.map(labelOf) : [labelOf(value)];
  });
}

/** The tool pair: `tool.requested` at before (args from `output.args`), `tool.completed` at after. */
function mapTool(moment: Extract<Moment, { kind: 'tool.before' | 'tool.after' }>, posture: Posture): Mapped {
  const input = obj(moment.input);
  const output = obj(moment.output);
  const tool: { name: string; call_id?: string } = { name: str(input.tool) ?? 'unknown' };
  put(tool, 'call_id', str(input.callID));
  const before = moment.kind === 'tool.before';
  const type = before ? 'tool.requested' : 'tool.completed';
  const key = before ? 'args' : 'result';
  const payload = before ? output.args : output.output;
  const level = levelFor(type, posture);
  const data: Obj = { tool };
  if (payload !== undefined) data[`${key}_digest`] = digest(payload);
  if (level === 'full') put(data, key, payload);
  else put(data, `${key}_redacted`, content(payload, level));
  return { type, data, subject: tool.name };
}

function mapSessionCreated(agent: string, p: Obj, level: CaptureLevel): Mapped {
  const info = obj(p.info);
  const client: Obj = { name: agent };
  put(client, 'version', str(info.version));
  const data: Obj = { client };
  const parent = str(info.parentID);
  if (parent) data.parent = { session: parent };
  put(data, 'label', str(info.title) && red(info.title as string, level));
  put(data, 'cwd', str(info.directory) && red(info.directory as string, level));
  return { type: 'session.started', data };
}

function mapMessageUpdated(agent: string, p: Obj): Mapped {
  const info = obj(p.info);
  if (info.role === 'user') return { type: 'run.started', data: { trigger: 'user' } };
  const data: Obj = {};
  put(data, 'role', str(info.role));
  const tokens = obj(info.tokens);
  put(data, 'gen_ai.usage.input_tokens', num(tokens.input));
  put(data, 'gen_ai.usage.output_tokens', num(tokens.output));
  return { type: vendorType(agent, 'message.updated'), data };
}

/** What a per-bus-type mapper reads: the agent, the bus type, its `properties`, the posture and the capture level of a type. */
interface BusContext {
  agent: string;
  type: string;
  p: Obj;
  posture: Posture;
  at: (t: string) => CaptureLevel;
}

/** One bus type's mapping; null where the adapter deliberately emits nothing. */
type BusMapper = (c: BusContext) => Mapped | null;

/** `attention.resolved` with its resolution, the request id as the subject when there is one. */
function resolved(subject: string | undefined, resolution: 'answered' | 'dismissed'): Mapped {
  const m: Mapped = { type: 'attention.resolved', data: { resolution } };
  if (subject) m.subject = subject;
  return m;
}

/**
 * `message.part.updated`: a tool part in the `error` state is the call's `tool.failed` (a tool that
 * errors, a failed read or a rejected permission, gets no `tool.execute.after`: OpenCode 1.18.33,
 * seen by the vendor lane); any other part is the vendor type.
 */
function mapPartUpdated({ agent, type, p, at }: BusContext): Mapped {
  const part = obj(p.part);
  const state = obj(part.state);
  if (part.type !== 'tool' || state.status !== 'error') return { type: vendorType(agent, type), data: {} };
  const tool: { name: string; call_id?: string } = { name: str(part.tool) ?? 'unknown' };
  put(tool, 'call_id', str(part.callID));
  const error: Obj = {};
  put(error, 'message', str(state.error) && red(state.error as string, at('tool.failed')));
  const data: Obj = { tool, error };
  const time = obj(state.time);
  const start = num(time.start);
  const end = num(time.end);
  if (start !== undefined && end !== undefined && end >= start) data.duration_ms = Math.round(end - start);
  return { type: 'tool.failed', data, subject: tool.name };
}

/** The bus types with a mapping of their own; every other type is `vendorType(agent, type)` with no data. */
const BUS: Readonly<Record<string, BusMapper>> = {
  /** `session.started`: the client (version), the parent session, the title and directory by capture level. */
  'session.created': ({ agent, p, at }) => mapSessionCreated(agent, p, at('session.started')),
  /** `session.ended{reason:"normal"}`. */
  'session.deleted': () => ({ type: 'session.ended', data: { reason: 'normal' } }),
  /** `run.finished`. */
  'session.idle': () => ({ type: 'run.finished', data: {} }),
  /** `session.compacted`. */
  'session.compacted': () => ({ type: 'session.compacted', data: {} }),
  /** `progress.status`: the status message by capture level, its type as the subject. */
  'session.status': ({ p, at }) => {
    const status = obj(p.status);
    const data: Obj = {};
    put(data, 'message', str(status.message) && red(status.message as string, at('progress.status')));
    const m: Mapped = { type: 'progress.status', data };
    const subject = str(status.type);
    if (subject) m.subject = subject;
    return m;
  },
  /** The vendor error plane: the error's name and its message (at the ceiling). */
  'session.error': ({ agent, p, posture }) => {
    const error = obj(p.error);
    const data: Obj = {};
    put(data, 'type', str(error.name));
    put(data, 'message', str(obj(error.data).message) && red(obj(error.data).message as string, posture.ceiling));
    return { type: vendorType(agent, 'session.error'), data };
  },
  /** A user message starts a run; any other is the vendor type with its role and usage. */
  'message.updated': ({ agent, p }) => mapMessageUpdated(agent, p),
  /** Nothing: the held `permission.ask` hook carries the ask. */
  'permission.updated': () => null,
  /** Nothing: the daemon diffs the snapshots (diffTodos) at runtime. */
  'todo.updated': () => null,
  /** `attention.requested` (kind permission) with the vendor's reply options. */
  'permission.asked': ({ agent, p, posture }) => mapAsk(agent, p, REPLY_OPTIONS, posture),
  /** `attention.resolved{answered}` (v1 `permissionID`, v2 `requestID`). */
  'permission.replied': ({ p }) => resolved(str(p.permissionID) ?? str(p.requestID), 'answered'),
  /** `attention.requested` (kind form), the request id as the subject. */
  'question.asked': ({ agent, p, at }) => {
    const { prompt, fields } = mapQuestions(agent, questionsOf(p), at('attention.requested') !== 'metadata' && at('attention.requested') !== 'none');
    const m: Mapped = { type: 'attention.requested', data: { kind: 'form', prompt, fields, respond_via: ['control'] } };
    const id = str(p.id);
    if (id) m.subject = id;
    return m;
  },
  /** `attention.resolved{answered}`. */
  'question.replied': ({ p }) => resolved(str(p.requestID), 'answered'),
  /** `attention.resolved{dismissed}`. */
  'question.rejected': ({ p }) => resolved(str(p.requestID), 'dismissed'),
  /** `tool.failed` for a tool part in the error state, else the vendor type. */
  'message.part.updated': mapPartUpdated,
  /** The vendor type with the file (at the ceiling). */
  'file.edited': ({ agent, type, p, posture }) => {
    const data: Obj = {};
    put(data, 'file', str(p.file) && red(p.file as string, posture.ceiling));
    return { type: vendorType(agent, type), data };
  },
  /** The vendor type with the command's name and its arguments (at the ceiling). */
  'command.executed': ({ agent, type, p, posture }) => {
    const data: Obj = {};
    put(data, 'name', str(p.name));
    put(data, 'arguments', str(p.arguments) && red(p.arguments as string, posture.ceiling));
    return { type: vendorType(agent, type), data };
  },
};

/** One bus event: its type's own mapping, else the vendor type. */
function mapBus(agent: string, event: Obj, posture: Posture): Mapped | null {
  const type = str(event.type) ?? 'unknown';
  if (!Object.hasOwn(BUS, type)) return { type: vendorType(agent, type), data: {} };
  return BUS[type]!({ agent, type, p: obj(event.properties), posture, at: (t) => levelFor(t, posture) });
}

/** The pure mapping of one moment for `agent` (`opencode`, `kilocode`); null = deliberately nothing. */
export function mapPluginMoment(agent: string, moment: unknown, posture: Posture = DEFAULT_POSTURE): Mapped | null {
  const m = obj(moment);
  switch (m.kind) {
    case 'bus':
      return mapBus(agent, obj(m.event), posture);
    case 'tool.before':
    case 'tool.after':
      return mapTool(m as Extract<Moment, { kind: 'tool.before' }>, posture);
    case 'permission.ask':
      return mapAsk(agent, obj(m.permission), HOOK_OPTIONS, posture);
    default:
      return { type: vendorType(agent, `moment.${str(m.kind) ?? 'unknown'}`), data: {} };
  }
}

/** Severity of a mapped moment: the vendor's error plane at `error`, the rest of `x.{agent}.*` at `debug`. */
export function momentSeverity(agent: string, type: string): 'debug' | 'error' | undefined {
  if (type === `x.${agent}.session.error`) return 'error';
  return type.startsWith(`x.${agent}.`) ? 'debug' : undefined;
}

/** One todo of a `todo.updated` snapshot. */
export interface Todo {
  id?: unknown;
  content?: unknown;
  status?: unknown;
}

/**
 * Two successive `todo.updated` snapshots → the transitions between them, in `next` order: a new
 * id is `progress.task.planned`; an item now `completed` that was not before (new ones included) is
 * `progress.task.completed`. Removals and other churn stay silent. The id rides as the subject;
 * the task text only at redacted+.
 */
export function diffTodos(prev: unknown, next: unknown, posture: Posture = DEFAULT_POSTURE): Mapped[] {
  const list = (v: unknown): Todo[] => (Array.isArray(v) ? (v.filter(isPlainObject) as Todo[]) : []);
  const before = new Map(list(prev).flatMap((t) => (str(t.id) ? [[t.id as string, t] as const] : [])));
  const out: Mapped[] = [];
  for (const todo of list(next)) {
    const id = str(todo.id);
    if (!id) continue;
    const old = before.get(id);
    const event = (type: string): Mapped => {
      const title = str(todo.content) && red(todo.content as string, levelFor(type, posture));
      return { type, data: title === undefined ? {} : { task: { title } }, subject: id };
    };
    if (!old) out.push(event('progress.task.planned'));
    if (todo.status === 'completed' && old?.status !== 'completed') out.push(event('progress.task.completed'));
  }
  return out;
}
