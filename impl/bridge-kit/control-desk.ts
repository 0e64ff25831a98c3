/**
 * The ack discipline every inbound bridge's opt-in control gate shares ("REST-settled"): commands
 * dedupe on (source, id); a recorded ack re-emits byte-identically on redelivery; an in-flight
 * command drops duplicates (the one forthcoming ack answers every delivery). A gate decides a
 * command locally (`ack` / `nack`) or by one REST write (`write`), whose result converts:
 * 2xx → `control.accepted` (unless `judge` refuses the body, e.g. an error envelope);
 * 4xx → `control.rejected` `refused`; 5xx or unreachable → `busy`; the guard (default 8000 ms,
 * inside the declared 10 000 ms ack window) expiring → `control.accepted` (will-try: the write may
 * still land, and the vendor's own broadcast stays the outcome). A rejection's `detail` is
 * redacted-class text, gated by the emitter's posture.
 */
import { CommandLedger } from '../adapter-kit/ledger.js';
import { DEFAULT_POSTURE, levelFor, red } from '../adapter-kit/capture.js';
import type { Posture } from '../adapter-kit/types.js';
import type { Emitter } from './emitter.js';

export interface Nack {
  reason: string;
  detail?: string;
}

/** A command as it arrived, with the members every gate reads already checked. */
export interface Command {
  id: string;
  source: string;
  type: string;
  session: string;
  subject?: string;
  run?: string;
  data: Record<string, unknown>;
  /** The full parsed command. */
  raw: Record<string, unknown>;
}

export interface RestWrite {
  url: URL;
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** A 2xx body that still means "refused" (an error envelope); undefined accepts. */
  judge?(text: string): Nack | undefined;
}

export interface WriteHooks {
  /** Runs synchronously before the request leaves (a mark the vendor's broadcast may need first). */
  before?(): void;
  /** Runs just before a `control.accepted` (a 2xx or the guard expiring). */
  onAccepted?(): void;
  /** Runs just before a `control.rejected`. */
  onRefused?(): void;
  /** Runs after the ack, only when a 2xx settled the write (never on guard expiry). */
  afterSettled?(): void;
}

export interface DeskOptions {
  emitter: Emitter;
  posture?: Posture;
  guardMs?: number;
  log(line: string): void;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The parsed members a gate needs, or undefined when the command is not addressable. */
export function asCommand(raw: Record<string, unknown>): Command | undefined {
  const { id, source, type, session } = raw;
  if (typeof id !== 'string' || typeof source !== 'string' || typeof type !== 'string' || typeof session !== 'string') return undefined;
  return {
    id, source, type, session, raw,
    ...(typeof raw.subject === 'string' ? { subject: raw.subject } : {}),
    ...(typeof raw.run === 'string' ? { run: raw.run } : {}),
    data: isObj(raw.data) ? raw.data : {},
  };
}

export class ControlDesk {
  private readonly ledger = new CommandLedger();
  private readonly inflight = new Set<string>();

  constructor(private readonly opts: DeskOptions) {}

  /**
   * Dedupe, then hand a new command to `decide`. Returns true when the command was new (the
   * caller's `decide` ran), false for a redelivery (answered from the ledger) or an in-flight one.
   */
  receive(raw: Record<string, unknown>, decide: (cmd: Command) => void): boolean {
    const cmd = asCommand(raw);
    if (!cmd) return false;
    const recorded = this.ledger.recorded(cmd.source, cmd.id);
    if (recorded !== undefined) {
      this.opts.emitter.sendRaw(recorded);
      return false;
    }
    if (this.inflight.has(CommandLedger.key(cmd.source, cmd.id))) return false;
    decide(cmd);
    return true;
  }

  /** The one ack (or nack) of a command, recorded for redelivery. */
  ack(cmd: Command, nack?: Nack, run?: string): void {
    const level = levelFor('control.rejected', this.opts.posture ?? DEFAULT_POSTURE);
    const detail = nack?.detail ? red(nack.detail, level) : undefined;
    const data: Record<string, unknown> = nack ? { reason: nack.reason, ...(detail !== undefined ? { detail } : {}) } : {};
    const runId = run ?? cmd.run;
    const event = this.opts.emitter.emit(cmd.session, { type: nack ? 'control.rejected' : 'control.accepted', data }, { cause: cmd.id, ...(runId ? { run: runId } : {}) });
    this.ledger.record(cmd.source, cmd.id, JSON.stringify(event));
  }

  /** One REST write deciding `cmd`; `hooks` run around it (see WriteHooks). */
  write(cmd: Command, req: RestWrite, hooks: WriteHooks = {}): void {
    const key = CommandLedger.key(cmd.source, cmd.id);
    this.inflight.add(key);
    let decided = false;
    const decide = (nack?: Nack, settled = true): void => {
      if (decided) return;
      decided = true;
      clearTimeout(guard);
      this.inflight.delete(key);
      if (nack) hooks.onRefused?.();
      else hooks.onAccepted?.();
      this.ack(cmd, nack);
      if (!nack && settled) hooks.afterSettled?.();
    };
    const guard = setTimeout(() => decide(undefined, false), this.opts.guardMs ?? 8000);
    hooks.before?.();
    const headers = { ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}), ...req.headers };
    void fetch(req.url, { method: req.method ?? 'POST', headers, ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}) })
      .then(async (res) => {
        const text = await res.text().catch(() => '');
        if (res.status >= 200 && res.status < 300) return decide(req.judge?.(text));
        decide({ reason: res.status >= 500 ? 'busy' : 'refused', detail: `the server answered HTTP ${res.status} ${text.slice(0, 200)}`.trimEnd() });
      })
      .catch((err: Error) => {
        this.opts.log(`control write ${req.url.pathname} failed: ${err.message}`);
        decide({ reason: 'busy', detail: `the server is unreachable: ${err.message}` });
      });
  }
}
