/**
 * The demo agent's decisions, pure: a frame's text in, the frames to send out (exact text).
 * No sockets and no timers; the clock and id source are injected so tests can pin bytes.
 *
 * The control-capable target rules it follows (AEP-0004 §2-§7):
 * - it declares `control.accepts` at hello, and nacks anything else `unsupported`;
 * - one ack decision per command, deduped on (source, id); a redelivered command gets the
 *   recorded ack back byte-identically, never a second decision;
 * - `control.cancel` of its open run (scope run, or scope session: the session has one run;
 *   a cancel without `data.scope` means the run it names, or the session when it names none):
 *   `control.accepted`, then `run.cancelled`
 *   cause-linked to the command (an open request of the run is first resolved `dismissed`);
 *   an already-terminal run is nacked `refused`;
 * - `control.attention.respond` answers its one open permission request: accepted, then
 *   `attention.answered` and `attention.resolved`; any other request id is nacked `invalid`.
 *   A text answer follows the AEP-0008 receiver rule (impl/adapter-kit/text-rule.ts): a word
 *   naming an option is that option; any other text applies Deny with the words as the reason.
 * - on every (re)connect it sends the session's whole history so far, not only its opening: a
 *   relay that restarted empty learns the request was answered, and never shows it open again.
 */
import { applyTextRule } from '../adapter-kit/text-rule.js';
import { buildHello } from '../relay-client/hello.js';

export const DEMO_ACCEPTS = ['control.attention.respond', 'control.cancel'] as const;

export interface TargetConfig {
  /** Envelope `agent` and hello `identity.agent`. */
  agent: string;
  /** Envelope `source` of everything the target emits. */
  source: string;
  session: string;
  run: string;
  /** Epoch of this process's sequence (AEP-0001 §7.2); a restart must use a larger one. */
  epoch: number;
  /** Declared in hello `capabilities.control.ack_window_ms`. */
  ackWindowMs: number;
  /** hello `identity.instance`. */
  instance: string;
  /** How many commands' dedupe state (and recorded acks) are retained. Default 1000. */
  dedupeCapacity?: number;
}

type Json = Record<string, unknown>;

const OPTIONS = [
  { id: 'allow', label: 'Allow' },
  { id: 'deny', label: 'Deny' },
];

/** Whether an event type is a command (AEP-0004 §2, §5), not an ack or other control event. */
export function isCommandType(type: string): boolean {
  return /^control\.(attention\.respond|cancel|pause|resume)$/.test(type) || /^x\.[a-z0-9_-]+\.control\./.test(type);
}

export class DemoTarget {
  private seq = 0;
  private runOpen = true;
  private requestOpen = true;
  private readonly requestId: string;
  private readonly requestedAt: number;
  /** Recorded ack text per command key, in insertion order (the oldest is forgotten first). */
  private readonly recorded = new Map<string, string>();
  /** Every event this target emitted, in order: what a reconnect sends again. */
  private readonly history: string[];

  constructor(
    readonly cfg: TargetConfig,
    private readonly now: () => Date,
    private readonly newId: () => string,
  ) {
    const started = this.event('session.started', { capture: 'metadata', data: { client: { name: 'aep-demo-agent' } } });
    const run = this.event('run.started', { run: cfg.run, cause: started.id, capture: 'metadata', data: { trigger: 'user' } });
    const ask = this.event('attention.requested', {
      subject: 'demo-permission',
      run: cfg.run,
      cause: run.id,
      severity: 'notice',
      capture: 'metadata',
      data: { kind: 'permission', prompt: `${cfg.agent} requests permission: demo-permission`, options: OPTIONS, respond_via: ['control'] },
    });
    this.requestId = ask.id as string;
    this.requestedAt = this.now().getTime();
    this.history = [started, run, ask].map((e) => JSON.stringify(e));
  }

  /** The hello frame (AEP-0003 §4), sent first on every connection. */
  hello(): string {
    return JSON.stringify(
      buildHello({
        role: 'emitter',
        identity: { agent: this.cfg.agent, instance: this.cfg.instance },
        capabilities: {
          emits: ['session', 'run', 'attention', 'control'],
          capture: ['none', 'metadata', 'redacted'],
          control: { accepts: [...DEMO_ACCEPTS], ack_window_ms: this.cfg.ackWindowMs },
        },
      }),
    );
  }

  /**
   * The session's events so far: its opening (session.started, run.started,
   * attention.requested) and whatever followed (acks, answers, the cancel). Sent after every
   * hello: on a reconnect they are the same bytes (a legal redelivery consumers dedupe), which
   * re-establishes this connection as the session's owner and gives a relay that restarted
   * empty the request's outcome along with the request.
   */
  opening(): string[] {
    return [...this.history];
  }

  /** The id of the open permission request a respond command can answer. */
  get pendingRequest(): string | undefined {
    return this.requestOpen ? this.requestId : undefined;
  }

  get isRunOpen(): boolean {
    return this.runOpen;
  }

  /** Decides what to send for one received text frame. Frames and foreign events give nothing. */
  onFrame(text: string): string[] {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return [];
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return [];
    const cmd = msg as Json;
    if (cmd.type === 'ping') return [JSON.stringify(cmd.t === undefined ? { type: 'pong' } : { type: 'pong', t: cmd.t })];
    if (typeof cmd.type !== 'string' || !isCommandType(cmd.type) || cmd.session !== this.cfg.session) return [];
    if (typeof cmd.id !== 'string' || typeof cmd.source !== 'string') return [];
    const key = `${cmd.source}\u0000${cmd.id}`;
    const recorded = this.recorded.get(key);
    if (recorded !== undefined) return [recorded];
    const out = this.decide(cmd);
    this.remember(key, out[0]!);
    this.history.push(...out);
    return out;
  }

  private remember(key: string, ack: string): void {
    this.recorded.set(key, ack);
    const cap = this.cfg.dedupeCapacity ?? 1000;
    while (this.recorded.size > cap) this.recorded.delete(this.recorded.keys().next().value as string);
  }

  private decide(cmd: Json): string[] {
    const id = cmd.id as string;
    const data = (typeof cmd.data === 'object' && cmd.data !== null ? cmd.data : {}) as Json;
    if (!(DEMO_ACCEPTS as readonly string[]).includes(cmd.type as string)) {
      return [this.reject(id, 'unsupported', `${String(cmd.type)} is not in control.accepts`)];
    }
    if (cmd.type === 'control.cancel') return this.cancel(id, cmd, data);
    return this.respond(id, cmd, data);
  }

  private cancel(id: string, cmd: Json, data: Json): string[] {
    // A missing scope is read from the addressing (run named: run scope; else session scope);
    // a scope that is present must be one of the two.
    if (data.scope !== undefined && data.scope !== 'run' && data.scope !== 'session') return [this.reject(id, 'invalid', 'data.scope must be "run" or "session"')];
    // The session has one run: a session-scoped cancel, or a run-scoped one without `run`, means it.
    if (cmd.run !== undefined && cmd.run !== this.cfg.run) return [this.reject(id, 'invalid', `no run ${String(cmd.run)} in this session`)];
    if (!this.runOpen) return [this.reject(id, 'refused', `run ${this.cfg.run} already ended`)];
    this.runOpen = false;
    const ack = this.event('control.accepted', { cause: id, capture: 'metadata' });
    const out = [ack];
    if (this.requestOpen) {
      // The run's open request cannot be answered any more: close it before the run ends.
      this.requestOpen = false;
      out.push(
        this.event('attention.resolved', {
          subject: this.requestId,
          run: this.cfg.run,
          cause: id,
          capture: 'metadata',
          data: { resolution: 'dismissed', latency_ms: Math.max(0, this.now().getTime() - this.requestedAt) },
        }),
      );
    }
    // `notice`, like any terminal run outcome worth a human's eye: never dropped for a slow consumer (AEP-0003 §8.4).
    const outcome = this.event('run.cancelled', { run: this.cfg.run, cause: id, severity: 'notice', capture: 'metadata', data: { by: 'control' } });
    out.push(outcome);
    return out.map((e) => JSON.stringify(e));
  }

  private respond(id: string, cmd: Json, data: Json): string[] {
    if (!this.requestOpen || cmd.subject !== this.requestId) {
      return [this.reject(id, 'invalid', `no open attention request ${String(cmd.subject)}`)];
    }
    const answer = (typeof data.answer === 'object' && data.answer !== null ? data.answer : {}) as Json;
    const decision = this.decisionOf(answer);
    if (!decision) return [this.reject(id, 'invalid', 'answer with option "allow" or "deny", or with text (text that names no option denies, with the text as the reason)')];
    this.requestOpen = false;
    const ack = this.event('control.accepted', { cause: id, capture: 'metadata' });
    const answered = this.event('attention.answered', {
      subject: this.requestId,
      run: this.cfg.run,
      cause: id,
      // The reason is free text: content, so the event is declared at redacted (AEP-0003 §9).
      capture: decision.text === undefined ? 'metadata' : 'redacted',
      data: { answer: decision.text === undefined ? { option: decision.option } : { option: decision.option, text: decision.text }, by: String(cmd.agent ?? 'unknown'), via: 'control' },
    });
    const resolved = this.event('attention.resolved', {
      subject: this.requestId,
      run: this.cfg.run,
      cause: answered.id,
      capture: 'metadata',
      data: { resolution: 'answered', latency_ms: Math.max(0, this.now().getTime() - this.requestedAt) },
    });
    return [ack, answered, resolved].map((e) => JSON.stringify(e));
  }

  /**
   * AEP-0008's receiver rule: an option id; or text, which is the option it names (id or label,
   * trimmed, case-insensitive), else Deny with the text kept as the reason. Text never grants.
   */
  private decisionOf(answer: Json): { option: string; text?: string } | undefined {
    if (typeof answer.option === 'string') {
      const option = OPTIONS.find((o) => o.id === answer.option)?.id;
      return option === undefined ? undefined : { option };
    }
    if (typeof answer.text === 'string') return applyTextRule(OPTIONS, answer.text, 'deny');
    return undefined;
  }

  private reject(cause: string, reason: string, detail: string): string {
    return JSON.stringify(this.event('control.rejected', { cause, capture: 'redacted', data: { reason, detail } }));
  }

  /** A sequenced session event, members in the AEP-0001 §5.1 order. */
  private event(type: string, attrs: { subject?: string; run?: string; cause?: unknown; severity?: string; capture: string; data?: Json }): Json {
    const e: Json = { aep: '0.1', id: this.newId(), type };
    if (attrs.subject !== undefined) e.subject = attrs.subject;
    e.time = this.now().toISOString();
    e.source = this.cfg.source;
    e.agent = this.cfg.agent;
    e.session = this.cfg.session;
    if (attrs.run !== undefined) e.run = attrs.run;
    e.seq = this.seq++;
    e.epoch = this.cfg.epoch;
    if (attrs.cause !== undefined) e.cause = attrs.cause;
    if (attrs.severity !== undefined) e.severity = attrs.severity;
    e.capture = attrs.capture;
    if (attrs.data !== undefined) e.data = attrs.data;
    return e;
  }
}
