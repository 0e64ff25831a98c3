/**
 * The runtime half of the OpenCode plugin family (OpenCode; its fork Kilo Code): identity, runs,
 * todo snapshots, the held `permission.ask` hook and the bus-surface asks answered over the
 * vendor's REST reply routes, as one `AdapterDef` per vendor. The pure mapping is plugin-moments.ts.
 *
 * Wire (plugin → daemon): `POST /hook/<kind>` (`bus`, `tool.before`, `tool.after`,
 * `permission.ask`), body = the moment plus `session_id` (the last session the plugin saw: the
 * session of moments that carry none, such as `file.edited`) and `server_url` (the plugin's
 * `PluginInput.serverUrl`). Replies: `{}` everywhere, except a settled `permission.ask`:
 * `{"status":"allow"}` or `{"status":"deny"}` (the plugin copies it into `output.status`).
 *
 * Identity: the moment's `sessionID` is the session. A run opens at the first user
 * `message.updated` while none is open (never twice for the same message) and `session.idle`
 * closes it as `run.finished`. Tools pair on `callID` (`tool.call_id`); an ask naming a call is
 * filed under it, and that call's `tool.after` dismisses it (the tool ran).
 *
 * Asks:
 * - the held `permission.ask` hook: allow/deny over control, AEP-0008 text rule (unmatched text
 *   denies; the output carries status only, so the text stays on the stream); a timeout answers
 *   `{}` and the host's own prompt takes over;
 * - bus `permission.asked`: a notification (the vendor's own prompt runs in parallel), options the
 *   vendor's once/always/reject; a control answer is delivered over REST, a reject's text as the
 *   vendor message; `question.asked`: a form, answered over REST with the original labels.
 * - a vendor-side `permission.replied`/`question.replied` settles a pending card out of band; one
 *   our own loop already answered is suppressed; one whose card already ended (timeout, dismissal)
 *   rides as the vendor fact `x.{agent}.permission.replied`; otherwise the pinned `attention.resolved`.
 * A failed REST delivery is `x.{agent}.reply.failed` (warning), cause-linked to the request.
 */
import { isPlainObject } from '../core/event.js';
import { defineAdapter } from './define.js';
import { str } from './mapping.js';
import {
  HOOK_OPTIONS, REPLY_OPTIONS, answersFor, askCallId, diffTodos, mapPluginMoment, momentSession, momentSeverity, questionsOf, vendorType,
  type VendorQuestion,
} from './plugin-moments.js';
import { httpReplies, type VendorReplies } from './plugin-rest.js';
import type { AdapterDef, Answer, FieldSpec, HookContext, HookInput, Mapped, RequestOption, Settlement } from './types.js';

/** Every reply but a settled `permission.ask`. */
export const PLUGIN_NEUTRAL = '{}';

/** The reply to a held `permission.ask`: a status only when answered over control. */
export function permissionAskReply(settlement: Settlement): string {
  if (settlement.kind !== 'option' || settlement.via !== 'control') return PLUGIN_NEUTRAL;
  return JSON.stringify({ status: settlement.option === 'allow' ? 'allow' : 'deny' });
}

export interface PluginFamilySpec {
  agent: string;
  defaultPort: number;
  /** Where bus-surface answers are delivered; default `httpReplies()`. */
  replies?: VendorReplies;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});

/** What the daemon remembers about one vendor ask. */
interface AskRecord {
  request: string;
  options?: readonly RequestOption[];
  state: 'pending' | 'ours' | 'closed';
}

/** Per-engine state (the kit's `HookContext` is one object per engine, so it keys the state). */
interface FamilyState {
  todos: Map<string, unknown>;
  openers: Map<string, string>;
  asks: Map<string, AskRecord>;
  /** The questions of each `question.asked`, to turn vendor answers back into form values. */
  questions: Map<string, VendorQuestion[]>;
  /** Calls whose permission our loop refused (call key → the answer's event id): their errored part is `tool.denied`. */
  refused: Map<string, string>;
  /** Calls that already got their terminal tool event (`tool.after`, or an errored part). */
  ended: Set<string>;
}

const callKey = (session: string, call: string): string => `call:${session}:${call}`;
const askKey = (session: string, id: string): string => `${session}\u0000${id}`;

/** A vendor reply enum value as one of `options`: verbatim on the REST surface, allow/deny on the hook's. */
function replyOption(reply: unknown, options: readonly RequestOption[] | undefined): string | undefined {
  const r = str(reply);
  if (!r || !options) return r;
  if (options.some((o) => o.id === r)) return r;
  if (options === HOOK_OPTIONS) return r === 'reject' ? 'deny' : 'allow';
  return r;
}

/** The vendor's `answers` back to form values: a label that names a choice is its id, other text stays. */
function valuesFor(questions: readonly VendorQuestion[], answers: unknown): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  if (!Array.isArray(answers)) return values;
  questions.forEach((q, i) => {
    const given = answers[i];
    if (!Array.isArray(given) || given.length === 0) return;
    const options = Array.isArray(q.options) ? q.options : [];
    const ids = given.map((label) => {
      const j = options.findIndex((o) => obj(o).label === label);
      return j >= 0 ? String(j + 1) : String(label);
    });
    values[String(i + 1)] = q.multiple === true ? ids : ids[0];
  });
  return values;
}

/** The plugin family's runtime for one agent: per-engine state and the moments' handling (`definePluginAdapter` wires it into an adapter). */
class PluginHost {
  private readonly states = new WeakMap<HookContext, FamilyState>();
  private readonly replies: VendorReplies;

  constructor(readonly agent: string, replies: VendorReplies | undefined) {
    this.replies = replies ?? httpReplies();
  }

  stateOf(ctx: HookContext): FamilyState {
    let s = this.states.get(ctx);
    if (!s) this.states.set(ctx, (s = { todos: new Map(), openers: new Map(), asks: new Map(), questions: new Map(), refused: new Map(), ended: new Set() }));
    return s;
  }

  /** Emit a mapped moment: run-scoped unless it is session lifecycle or the vendor's session plane. */
  emit(ctx: HookContext, session: string, mapped: Mapped, extra: { cause?: string } = {}): void {
    const sessionScoped = mapped.type.startsWith('session.') || mapped.type === `x.${this.agent}.session.error` || (mapped.type.startsWith(`x.${this.agent}.`) && !mapped.type.startsWith(`x.${this.agent}.message.`));
    const run = sessionScoped ? undefined : ctx.run(session);
    const severity = momentSeverity(this.agent, mapped.type);
    ctx.emit(session, mapped, { ...(run ? { run } : {}), ...(extra.cause ? { cause: extra.cause } : {}), ...(severity ? { severity } : {}) });
  }

  replyFailed(ctx: HookContext, session: string, request: string, route: string, detail: string): void {
    const data: Obj = { route };
    if (ctx.posture.ceiling !== 'metadata' && ctx.posture.ceiling !== 'none') data.detail = detail;
    ctx.emit(session, { type: `x.${this.agent}.reply.failed`, data, subject: request }, { cause: request, severity: 'warning' });
  }

  /** Open a hold for a bus-surface ask; the hook itself is answered at once. */
  holdBusAsk(ctx: HookContext, session: string, id: string, mapped: Mapped, how: {
    options?: readonly RequestOption[];
    fields?: FieldSpec[];
    legacyAnswer?: (a: Answer) => Record<string, unknown> | null;
    call?: string;
    deliver: (s: Extract<Settlement, { kind: 'option' | 'values' }>, server: string) => ReturnType<VendorReplies['question']>;
    server?: string;
  }): void {
    const state = this.stateOf(ctx);
    const run = ctx.run(session);
    const record: AskRecord = { request: '', state: 'pending', ...(how.options ? { options: how.options } : {}) };
    const held = ctx.hold({
      session,
      ...(run ? { run } : {}),
      mapped,
      ...(how.options ? { options: how.options.map((o) => ({ ...o })), refusing: 'reject' } : {}),
      ...(how.fields ? { fields: how.fields } : {}),
      ...(how.legacyAnswer ? { legacyAnswer: how.legacyAnswer } : {}),
      ...(how.call ? { key: callKey(session, how.call) } : {}),
    });
    record.request = held.requestId;
    state.asks.set(askKey(session, id), record);
    void held.then(async ({ request, settlement }) => {
      record.request = request.id;
      if ((settlement.kind !== 'option' && settlement.kind !== 'values') || settlement.via !== 'control') {
        record.state = 'closed';
        return;
      }
      record.state = 'ours';
      if (how.call && settlement.kind === 'option' && settlement.option !== 'once' && settlement.option !== 'always' && settlement.option !== 'allow') {
        this.stateOf(ctx).refused.set(callKey(session, how.call), settlement.answered ?? request.id);
      }
      const outcome = how.server ? await how.deliver(settlement, how.server) : { ok: false as const, route: 'none', detail: 'the plugin forwarded no server_url, so the answer cannot reach the vendor' };
      if (!outcome.ok) this.replyFailed(ctx, session, request.id, outcome.route, outcome.detail);
    });
  }

  /**
   * A vendor-side settle: suppressed when our own loop answered; settles a pending card out of
   * band; after the card already ended (timed out, dismissed) it is only the vendor's fact,
   * `x.{agent}.<bus type>` (a second terminal would be invalid, AEP-0002 §7); else the pinned event.
   */
  onSettled(ctx: HookContext, session: string, busType: string, id: string | undefined, mapped: Mapped, oob: (r: AskRecord) => Answer | 'dismissed', fact: Obj): void {
    const record = id === undefined ? undefined : this.stateOf(ctx).asks.get(askKey(session, id));
    if (record?.state === 'ours') return;
    if (record?.state === 'pending') {
      const how = oob(record);
      record.state = 'closed';
      if (ctx.settle(record.request, how === 'dismissed' ? { kind: 'dismissed' } : { kind: 'oob', answer: how })) return;
    }
    if (record) this.emit(ctx, session, { type: vendorType(this.agent, busType), data: fact, subject: record.request }, { cause: record.request });
    else this.emit(ctx, session, mapped);
  }

  /** A bus `permission.asked`: a card with the vendor's reply options, answered over REST. */
  private holdPermission(ctx: HookContext, session: string, id: string, p: Obj, mapped: Mapped, server: string | undefined): void {
    this.holdBusAsk(ctx, session, id, mapped, {
      options: REPLY_OPTIONS,
      ...(askCallId(p) ? { call: askCallId(p)! } : {}),
      ...(server ? { server } : {}),
      deliver: (s, srv) => {
        const option = s.kind === 'option' ? s.option : 'reject';
        const reply = option === 'once' || option === 'always' ? option : 'reject';
        return this.replies.permission({ server: srv, session, id, reply, ...(reply === 'reject' && s.kind === 'option' && s.text ? { message: s.text } : {}) });
      },
    });
  }

  /** A bus `question.asked`: a form card, its questions kept to read the vendor's own answer back. */
  private holdQuestion(ctx: HookContext, session: string, id: string, p: Obj, mapped: Mapped, server: string | undefined): void {
    const questions = questionsOf(p);
    this.stateOf(ctx).questions.set(askKey(session, id), questions);
    const fields = (mapped.data.fields ?? []) as FieldSpec[];
    this.holdBusAsk(ctx, session, id, mapped, {
      fields,
      // AEP-0006 degradation: a one-question form also takes a plain {option} (a choice id) or {text}.
      legacyAnswer: (a) => {
        const v = a.option ?? a.text;
        return questions.length !== 1 || v === undefined || v.trim() === '' ? null : { '1': questions[0]!.multiple === true ? [v] : v };
      },
      ...(server ? { server } : {}),
      deliver: (s, srv) => this.replies.question({ server: srv, id, answers: answersFor(questions, s.kind === 'values' ? s.values : {}) }),
    });
  }

  async onBus(ctx: HookContext, session: string, event: Obj, mapped: Mapped | null, server: string | undefined): Promise<string> {
    const state = this.stateOf(ctx);
    const p = obj(event.properties);
    switch (event.type) {
      case 'session.deleted':
        for (const r of ctx.pending(session)) ctx.settle(r.id, { kind: 'dismissed' });
        ctx.setRun(session, null);
        state.todos.delete(session);
        break;
      case 'session.idle': {
        const run = ctx.run(session);
        if (run) ctx.emit(session, mapped!, { run });
        ctx.setRun(session, null);
        return PLUGIN_NEUTRAL;
      }
      case 'message.updated': {
        const info = obj(p.info);
        if (info.role !== 'user') break;
        const message = str(info.id);
        if (ctx.run(session) || (message !== undefined && state.openers.get(session) === message)) return PLUGIN_NEUTRAL;
        if (message) state.openers.set(session, message);
        ctx.emit(session, mapped!, { run: ctx.setRun(session, undefined)! });
        return PLUGIN_NEUTRAL;
      }
      case 'message.part.updated': {
        if (!mapped || mapped.type !== 'tool.failed') break;
        const tool = obj(mapped.data.tool);
        const key = str(tool.call_id) ? callKey(session, str(tool.call_id)!) : undefined;
        if (key && state.ended.has(key)) return PLUGIN_NEUTRAL;
        if (key) state.ended.add(key);
        const refusedBy = key ? state.refused.get(key) : undefined;
        if (refusedBy) {
          // Our loop refused the permission: the runtime enforced that answer (as Codex's adapter says it).
          ctx.emit(session, { type: 'tool.denied', data: { tool, by: 'runtime' }, subject: mapped.subject ?? String(tool.name) }, { ...(ctx.run(session) ? { run: ctx.run(session)! } : {}), cause: refusedBy });
          return PLUGIN_NEUTRAL;
        }
        break;
      }
      case 'todo.updated': {
        const next = Array.isArray(p.todos) ? p.todos : [];
        for (const m of diffTodos(state.todos.get(session) ?? [], next, ctx.posture)) this.emit(ctx, session, m);
        state.todos.set(session, next);
        return PLUGIN_NEUTRAL;
      }
      case 'permission.asked':
      case 'question.asked': {
        const id = str(p.id);
        if (!id || !mapped) break;
        // A redelivered ask (or one the held hook already carries) opens no second card.
        if (state.asks.has(askKey(session, id))) return PLUGIN_NEUTRAL;
        if (event.type === 'permission.asked') this.holdPermission(ctx, session, id, p, mapped, server);
        else this.holdQuestion(ctx, session, id, p, mapped, server);
        return PLUGIN_NEUTRAL;
      }
      case 'permission.replied': {
        const reply = p.response ?? p.reply;
        this.onSettled(ctx, session, 'permission.replied', str(p.permissionID) ?? str(p.requestID), mapped!, (r) => ({ option: replyOption(reply, r.options) ?? 'reject' }), str(reply) ? { reply: str(reply) } : {});
        return PLUGIN_NEUTRAL;
      }
      case 'question.replied':
      case 'question.rejected': {
        const id = str(p.requestID);
        this.onSettled(ctx, session, event.type, id, mapped!, () => (event.type === 'question.rejected' ? 'dismissed' : { values: valuesFor((id && state.questions.get(askKey(session, id))) || [], p.answers) }), {});
        return PLUGIN_NEUTRAL;
      }
    }
    if (mapped) this.emit(ctx, session, mapped);
    return PLUGIN_NEUTRAL;
  }

  async handle(hookEvent: string, raw: HookInput, ctx: HookContext): Promise<string> {
    const kind = str(raw.kind) ?? hookEvent;
    const moment: Obj = { ...raw, kind };
    const session = momentSession(moment) ?? str(raw.session_id);
    if (!session) return PLUGIN_NEUTRAL;
    const server = str(raw.server_url);
    const mapped = mapPluginMoment(this.agent, moment, ctx.posture);
    switch (kind) {
      case 'bus':
        return this.onBus(ctx, session, obj(moment.event), mapped, server);
      case 'permission.ask': {
        const ask = obj(moment.permission);
        const id = str(ask.id);
        const call = askCallId(ask);
        const run = ctx.run(session);
        const record: AskRecord = { request: '', state: 'pending', options: HOOK_OPTIONS };
        const held = ctx.hold({
          session,
          ...(run ? { run } : {}),
          mapped: mapped!,
          options: HOOK_OPTIONS.map((o) => ({ ...o })),
          refusing: 'deny',
          ...(call ? { key: callKey(session, call) } : {}),
        });
        record.request = held.requestId;
        if (id) this.stateOf(ctx).asks.set(askKey(session, id), record);
        const { request, settlement } = await held;
        record.request = request.id;
        record.state = (settlement.kind === 'option' || settlement.kind === 'values') && settlement.via === 'control' ? 'ours' : 'closed';
        return permissionAskReply(settlement);
      }
      case 'tool.after': {
        const call = str(obj(moment.input).callID);
        if (call) for (const r of ctx.pending(session, callKey(session, call))) ctx.settle(r.id, { kind: 'dismissed' });
        if (call && this.stateOf(ctx).ended.has(callKey(session, call))) return PLUGIN_NEUTRAL;
        if (call) this.stateOf(ctx).ended.add(callKey(session, call));
        break;
      }
    }
    if (mapped) this.emit(ctx, session, mapped);
    return PLUGIN_NEUTRAL;
  }
}

export function definePluginAdapter(spec: PluginFamilySpec): AdapterDef {
  const host = new PluginHost(spec.agent, spec.replies);
  const def = defineAdapter({
    agent: spec.agent,
    defaultPort: spec.defaultPort,
    emits: ['session', 'run', 'tool', 'attention', 'progress', 'control'],
    neutral: PLUGIN_NEUTRAL,
    steerable: new Set(),
    handle: (hookEvent, raw, ctx) => host.handle(hookEvent, raw, ctx),
  });
  // No plugin moment's reply carries context, so queued steering could never be delivered.
  def.instruct = false;
  return def;
}
