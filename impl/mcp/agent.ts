/**
 * The MCP server's AEP side, transport-free: `emit_event` and `ask_human` become events on the
 * SAME emission path as the adapters (adapter-kit's emitter: one (epoch, seq) sequencer, the
 * session log under $AEP_HOME/logs/aep-mcp/, the relay link), and control commands coming back
 * over that link answer pending `ask_human` calls (AEP-0004: ack, then answered and resolved,
 * cause-linked; a redelivered command gets its recorded ack again, never a second decision).
 */
import { validateEvent } from '../core/envelope.js';
import { CAPTURE_ORDER, captureRank, type CaptureLevel } from '../core/event.js';
import { renderIssue } from '../core/issue.js';
import { redactValue } from '../core/redact.js';
import { createEmitter, type Emitter } from '../adapter-kit/emission.js';
import type { EnvelopeExtra } from '../adapter-kit/envelope.js';
import { describeLinkState, type LinkState } from '../adapter-kit/relay-link.js';
import type { Mapped } from '../adapter-kit/types.js';
import { buildHello } from '../relay-client/hello.js';

type Json = Record<string, unknown>;

export const MCP_AGENT = 'aep-mcp';
export const MCP_ACCEPTS = ['control.attention.respond'];

/** A registered-looking type: dotted lowercase segments, at least two. */
const TYPE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

export interface McpAgentOptions {
  host: string;
  epoch: number;
  /** The default session of this server process. */
  session: string;
  home?: string;
  send(line: string): void;
  clock?: () => number;
  log?: (line: string) => void;
  /** How long ask_human waits for a human. */
  askTimeoutMs: number;
  /** The capture ceiling (`AEP_CAPTURE`, default `metadata`): emit_event refuses a declaration above it. */
  capture?: CaptureLevel;
  /** The relay link's state; absent: no relay (`--relay none`), events go to the session log only. */
  link?: () => LinkState;
  /** The operator's home directory, for the redaction pipeline of `redacted` content (AEP-0003 §9.4). */
  redactHome?: string;
  /** How long ask_human waits for a link still connecting before it decides (default 2000 ms). */
  connectGraceMs?: number;
}

/**
 * Where an emitted event went: `sent` on a live relay link; `held` in the outbox while the link is
 * down or the relay refuses the token (logged, not delivered); `log-only` with no relay.
 */
export type Delivery = 'sent' | 'held' | 'log-only';

export type EmitResult =
  | { ok: true; id: string; session: string; seq: number; capture: CaptureLevel; delivery: Delivery; link: string }
  | { ok: false; error: string };

export type AskResult =
  | { ok: true; request_id: string; answer: Json; by?: string }
  | { ok: false; request_id?: string; error: string };

interface Pending {
  session: string;
  run?: string;
  options: string[];
  requestedAt: number;
  settle(r: AskResult): void;
  timer: NodeJS.Timeout;
}

export class McpAgent {
  private readonly emitter: Emitter;
  private readonly started = new Set<string>();
  private readonly pending = new Map<string, Pending>();
  private readonly recorded = new Map<string, string>();
  private readonly clock: () => number;

  constructor(private readonly o: McpAgentOptions) {
    this.clock = o.clock ?? Date.now;
    this.emitter = createEmitter({
      agent: MCP_AGENT,
      host: o.host,
      epoch: o.epoch,
      posture: { ceiling: 'redacted', attention: 'redacted' },
      clock: this.clock,
      ...(o.home !== undefined ? { home: o.home } : {}),
      send: (line) => o.send(line),
      log: o.log ?? (() => {}),
    });
  }

  /** The capture ceiling emit_event declarations are bounded by. */
  get ceiling(): CaptureLevel {
    return this.o.capture ?? 'metadata';
  }

  hello(instance: string): Json {
    // The levels it may declare: up to the ceiling, and `redacted` for attention.* (ask_human).
    const top = captureRank(this.ceiling) > captureRank('redacted') ? this.ceiling : 'redacted';
    return {
      ...buildHello({
        role: 'emitter',
        identity: { agent: MCP_AGENT, instance },
        capabilities: { emits: ['session', 'attention', 'control', 'x'], capture: CAPTURE_ORDER.filter((l) => captureRank(l) <= captureRank(top)), control: { accepts: MCP_ACCEPTS, ack_window_ms: 10_000 } },
      }),
    };
  }

  /** The link as a person reads it, and where an event emitted now goes. */
  private delivery(): { delivery: Delivery; link: string } {
    if (!this.o.link) return { delivery: 'log-only', link: 'none (no relay configured)' };
    const state = this.o.link();
    return { delivery: state.status === 'up' ? 'sent' : 'held', link: describeLinkState(state) };
  }

  private ensureSession(session: string): void {
    if (this.started.has(session)) return;
    this.started.add(session);
    this.emitter.emit(session, { type: 'session.started', data: { client: { name: MCP_AGENT } } });
  }

  private emit(session: string, mapped: Mapped, extra: { run?: string; cause?: string; severity?: string; capture?: CaptureLevel } = {}) {
    this.ensureSession(session);
    return this.emitter.emit(session, mapped, extra as EnvelopeExtra);
  }

  /**
   * `emit_event`: refuses malformed types, every `control.*`, the lifecycle this server owns, and a
   * capture declaration above the ceiling. `capture` (default `metadata`) is the level the event
   * declares: `redacted` content goes through the redaction pipeline first, `none` carries no data.
   */
  emitEvent(args: { type: string; data?: Json; subject?: string; severity?: string; session?: string; run?: string; capture?: string }): EmitResult {
    const { type } = args;
    if (typeof type !== 'string' || !TYPE.test(type)) return { ok: false, error: `'${String(type)}' is not an AEP event type: dotted lowercase segments like 'x.myorg.deploy.finished'` };
    if (type.startsWith('control.') || /^x\.[a-z0-9_-]+\.control\./.test(type)) return { ok: false, error: `${type} is refused: control.* flows only from an operator to a target over the control profile, never from a model` };
    if (type === 'session.started' || type === 'session.ended') return { ok: false, error: `${type} is refused: this server opens and ends its sessions itself` };
    if (type.startsWith('attention.')) return { ok: false, error: `${type} is refused: ask a human with the ask_human tool` };
    const capture = args.capture ?? 'metadata';
    if (!(CAPTURE_ORDER as readonly string[]).includes(capture)) return { ok: false, error: `capture '${String(capture)}' is not a capture level: one of ${CAPTURE_ORDER.join(', ')}` };
    const level = capture as CaptureLevel;
    if (captureRank(level) > captureRank(this.ceiling)) {
      return { ok: false, error: `capture '${level}' is above this server's ceiling (AEP_CAPTURE=${this.ceiling}): drop the fields that need it, or ask the operator to start aep mcp with AEP_CAPTURE=${level}` };
    }
    const session = args.session ?? this.o.session;
    const given = args.data ?? {};
    // What leaves: `redacted` content through the §9.4 pipeline; at `none`, no data at all (envelope.ts).
    const data = level === 'redacted' ? redactValue(given, this.o.redactHome !== undefined ? { home: this.o.redactHome } : {}) : given;
    // Check the event as it would be built before it consumes a seq.
    const probe = { aep: '0.1', id: '01JAAAAAAAAAAAAAAAAAAAAAAA', type, time: new Date(this.clock()).toISOString(), source: 'aep://probe/x', agent: MCP_AGENT, session, seq: 0, epoch: this.o.epoch, capture: level, ...(level === 'none' ? {} : { data }), ...(args.subject ? { subject: args.subject } : {}), ...(args.run ? { run: args.run } : {}), ...(args.severity ? { severity: args.severity } : {}) };
    const issues = validateEvent(probe);
    if (issues.length > 0) {
      // The remedy the rule names ("declare the capture level it needs") is this tool's `capture` member.
      const hint = issues.some((i) => i.rule === 'capture.field.level') ? ` (with emit_event, set "capture" to that level; this server allows up to ${this.ceiling})` : '';
      return { ok: false, error: `the event would be invalid: ${issues.slice(0, 3).map(renderIssue).join('; ')}${hint}` };
    }
    const { event } = this.emit(session, { type, data, ...(args.subject ? { subject: args.subject } : {}) }, { capture: level, ...(args.run ? { run: args.run } : {}), ...(args.severity ? { severity: args.severity } : {}) });
    return { ok: true, id: event.id as string, session, seq: event.seq as number, capture: level, ...this.delivery() };
  }

  /** Why nobody can answer an ask now (no relay, a refused token, a link that is down), or null when the link is up. */
  private async unanswerable(): Promise<string | null> {
    const link = this.o.link;
    if (!link) return 'nobody can answer: this server has no relay (--relay none), so no operator sees the question';
    const deadline = this.clock() + (this.o.connectGraceMs ?? 2000);
    // A link still connecting (the server just started) gets a moment to come up.
    while (link().status === 'connecting' && this.clock() < deadline) await new Promise((r) => setTimeout(r, 50));
    const state = link();
    if (state.status === 'up') return null;
    if (state.status === 'refused') return `nobody can answer: the relay refused this server's token (HTTP ${state.httpStatus}); set AEP_TOKEN (or --token) to the relay's token and restart aep mcp`;
    return `nobody can answer: the relay link is ${describeLinkState(state)}; try again once it is back`;
  }

  /**
   * `ask_human`: emits attention.requested, resolves on the answer or the timeout. Fails at once,
   * asking nothing, when no operator can answer (no relay, a refused token, a link that is down).
   */
  async askHuman(args: { prompt: string; options?: string[]; session?: string; run?: string; timeoutMs?: number }, onRequested?: (id: string) => void): Promise<AskResult> {
    const why = await this.unanswerable();
    if (why !== null) return { ok: false, error: `${why}. The question was not asked.` };
    const session = args.session ?? this.o.session;
    const options = (args.options ?? []).filter((o) => typeof o === 'string' && o !== '');
    const kind = options.length > 0 ? 'permission' : 'input';
    const data: Json = { kind, prompt: args.prompt, respond_via: ['control'], ...(options.length ? { options: options.map((id) => ({ id, label: id })) } : {}) };
    const { event } = this.emit(session, { type: 'attention.requested', data }, { ...(args.run ? { run: args.run } : {}), severity: 'notice' });
    const id = event.id as string;
    onRequested?.(id);
    return new Promise<AskResult>((resolve) => {
      const timeoutMs = args.timeoutMs ?? this.o.askTimeoutMs;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.emit(session, { type: 'attention.timeout', subject: id, data: { after_ms: timeoutMs } }, { ...(args.run ? { run: args.run } : {}), cause: id });
        resolve({ ok: false, request_id: id, error: `no human answered within ${Math.round(timeoutMs / 1000)} s` });
      }, timeoutMs);
      this.pending.set(id, { session, ...(args.run ? { run: args.run } : {}), options, requestedAt: this.clock(), settle: resolve, timer });
    });
  }

  /** A command from the relay link (its exact text and parse). */
  onCommand(raw: string, cmd: Json): void {
    void raw;
    const id = typeof cmd.id === 'string' ? cmd.id : undefined;
    const session = typeof cmd.session === 'string' ? cmd.session : undefined;
    if (!id || !session) return;
    const key = `${String(cmd.source)}\u0000${id}`;
    const again = this.recorded.get(key);
    if (again !== undefined) return this.o.send(again);
    const record = (line: string): void => {
      this.recorded.set(key, line);
      if (this.recorded.size > 1000) this.recorded.delete(this.recorded.keys().next().value as string);
    };
    const reject = (reason: string, detail: string): void => {
      record(this.emit(session, { type: 'control.rejected', data: { reason, detail } }, { cause: id }).line);
    };
    if (cmd.type !== 'control.attention.respond') return reject('unsupported', `${String(cmd.type)} is not accepted by ${MCP_AGENT}`);
    const req = typeof cmd.subject === 'string' ? cmd.subject : undefined;
    const p = req ? this.pending.get(req) : undefined;
    if (!req || !p || p.session !== session) return reject('invalid', `no pending ask_human request ${String(req)} in session ${session}`);
    const answer = (typeof cmd.data === 'object' && cmd.data !== null ? ((cmd.data as Json).answer as Json | undefined) : undefined) ?? {};
    if (typeof answer !== 'object' || answer === null || (answer.option === undefined && answer.text === undefined && answer.values === undefined)) return reject('invalid', 'the answer needs option, text or values');
    if (p.options.length > 0 && typeof answer.option === 'string' && !p.options.includes(answer.option)) return reject('invalid', `option '${answer.option}' is not one of ${p.options.join(', ')}`);
    this.pending.delete(req);
    clearTimeout(p.timer);
    record(this.emit(session, { type: 'control.accepted', data: {} }, { cause: id }).line);
    const by = typeof cmd.agent === 'string' ? cmd.agent : undefined;
    const answered = this.emit(session, { type: 'attention.answered', subject: req, data: { answer, ...(by ? { by } : {}), via: 'control' } }, { ...(p.run ? { run: p.run } : {}), cause: id });
    this.emit(session, { type: 'attention.resolved', subject: req, data: { resolution: 'answered', latency_ms: Math.max(0, this.clock() - p.requestedAt) } }, { ...(p.run ? { run: p.run } : {}), cause: answered.event.id as string });
    p.settle({ ok: true, request_id: req, answer, ...(by ? { by } : {}) });
  }

  /** Ends every pending ask (dismissed) and every session this server opened. */
  close(): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      this.emit(p.session, { type: 'attention.resolved', subject: id, data: { resolution: 'dismissed' } }, { cause: id });
      p.settle({ ok: false, request_id: id, error: 'the MCP server is shutting down' });
    }
    this.pending.clear();
    for (const s of this.started) this.emitter.emit(s, { type: 'session.ended', data: { reason: 'normal' } });
  }

  /** Flush the session log (written off the call path) and close its handles; after `close()`. */
  closeLog(): Promise<void> {
    return this.emitter.closeLog();
  }
}
