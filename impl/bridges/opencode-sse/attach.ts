/**
 * The OpenCode-family SSE bridge (ports: the two descriptors'): attaches to the vendor
 * server's `GET /event` bus stream, passes every bus event through the pure `applyMode`, and
 * emits the result as an ordinary AEP event toward the relay. Runtime state on top of the pure
 * policy (primary mode only; companion emits no core types, so no runs):
 * - runs are synthesized per user-message/idle boundary: `message.updated` role user opens a run
 *   unless one is open (steering never double-opens), `session.idle` closes it (nothing when none
 *   is open); run ids are `run:<epoch>:<n>`;
 * - a resolution (`permission.replied`, `question.replied`) names the attention.requested EVENT
 *   in `subject` and `cause` (the pure mapping carries the vendor id); under the gate, a
 *   `permission.replied` our reply settled is preceded by `attention.answered` (`via: control`,
 *   cause = the command) and the resolution's cause is that answered event;
 * - `todo.updated` stays silent here (a whole-list snapshot; the plugin adapter diffs it).
 * Read-only by default: the hello declares `control.accepts: []` and nothing is written to the
 * server; the opt-in gate (control.ts, primary mode only) adds exactly two REST writes.
 * A dropped stream reconnects through bridge-kit/reconnect.ts (250 ms doubling to 10 s, reset
 * once the stream was open). `GET /healthz` on the
 * bridge port: `{ok, relay, source}` (`source` = the bus stream is open).
 */
import { startHealthz } from '../../http/healthz.js';
import type { EdgeLimits } from '../../http/limits.js';
import { isPlainObject } from '../../core/event.js';
import type { Emitter } from '../../bridge-kit/emitter.js';
import { reconnectLoop } from '../../bridge-kit/reconnect.js';
import { SseParser } from '../../relay-client/sse-parser.js';
import type { BusVendor } from './map-bus.js';
import { applyModeFor, type SseMode } from './mode-policy.js';
import type { ControlGate } from './control.js';
import type { Mapped } from '../../adapter-kit/types.js';
import { descriptor as opencodeSse } from './descriptor.js';
import { descriptor as kilocodeSse } from '../kilocode-sse/descriptor.js';

export const DEFAULT_PORTS: Record<BusVendor, number> = { opencode: opencodeSse.port, kilocode: kilocodeSse.port };

export interface SseBridgeOptions {
  vendor: BusVendor;
  /** The vendor server base URL (`opencode serve`: http://127.0.0.1:4096). */
  server: string;
  mode: SseMode;
  emitter: Emitter;
  /** Healthz port (0 = any; undefined = no healthz listener). */
  port?: number;
  /** The opt-in control gate (honored in primary mode only). */
  control?: ControlGate;
  /** The health server's header and request timeouts (default: impl/http/healthz.ts's HEALTHZ_LIMITS). */
  limits?: EdgeLimits;
  log(line: string): void;
}

export interface RunningSseBridge {
  /** The healthz URL base, when listening. */
  url?: string;
  /** The open synthesized run of a session (the control gate asks). */
  runOf(session: string): string | undefined;
  sourceOpen(): boolean;
  close(): Promise<void>;
}

/** The session a bus event belongs to, or undefined (agent-scope machinery such as server.connected). */
export function busSession(event: Record<string, unknown>): string | undefined {
  const p = isPlainObject(event.properties) ? event.properties : {};
  const info = isPlainObject(p.info) ? p.info : {};
  for (const v of [p.sessionID, info.sessionID, typeof event.type === 'string' && event.type.startsWith('session.') ? info.id : undefined]) if (typeof v === 'string' && v !== '') return v;
  return undefined;
}

/** The vendor ask id a `permission.replied` (or `question.replied`) names, if any. */
function repliedId(p: Record<string, unknown>): string | undefined {
  return typeof p.permissionID === 'string' ? p.permissionID : typeof p.requestID === 'string' ? p.requestID : undefined;
}

const RUN_TERMINALS: ReadonlySet<string> = new Set(['run.finished', 'run.cancelled', 'run.failed']);

/** The runtime state on top of the pure policy: the synthesized runs, the asks' request events, the gate's bookkeeping. */
class BusFollower {
  private readonly runs = new Map<string, string>();
  /** Vendor ask id (permission / question) → the attention.requested event id. */
  private readonly asks = new Map<string, string>();
  private runCount = 0;

  constructor(private readonly opts: SseBridgeOptions, private readonly control: ControlGate | undefined) {}

  runOf(session: string): string | undefined {
    return this.runs.get(session);
  }

  handle(event: Record<string, unknown>): void {
    const session = busSession(event);
    if (!session) return;
    let mapped = applyModeFor(this.opts.vendor, event, this.opts.mode);
    if (mapped === null) return;
    const open = this.trackRun(session, mapped);
    if (open === null) return;
    const { run } = open;
    // The pure mapping names the vendor request id; on the wire a resolution names the request EVENT.
    const p = isPlainObject(event.properties) ? event.properties : {};
    let cause: string | undefined;
    if (mapped.type === 'attention.resolved' && mapped.subject && this.asks.has(mapped.subject)) {
      cause = this.asks.get(mapped.subject)!;
      this.asks.delete(mapped.subject);
      mapped = { ...mapped, subject: cause };
      cause = this.answerFirst(event, p, session, run, cause);
    }
    const { control } = this;
    if (control && mapped.type === 'attention.requested' && (event.type === 'permission.updated' || event.type === 'permission.asked')) mapped = control.decorate(mapped);
    const emitted = this.opts.emitter.emit(session, mapped, { ...(run ? { run } : {}), ...(cause ? { cause } : {}) });
    if (mapped.type === 'attention.requested' && typeof p.id === 'string') {
      this.asks.set(p.id, emitted.id);
      if (control && mapped.data.kind === 'permission') control.asked(emitted.id, session, p.id);
    }
    if (control && event.type === 'permission.replied') {
      const replied = repliedId(p);
      if (replied) control.settled(replied);
    }
  }

  /**
   * The run boundaries: a run.started opens one unless one is open, a terminal closes the open one
   * (a control cancel's finish becomes `run.cancelled {by: control}`), session.ended forgets it.
   * `{run}` is the session's run for this event; null when the event is not emitted.
   */
  private trackRun(session: string, mapped: Mapped): { run: string | undefined } | null {
    if (mapped.type === 'run.started') {
      if (this.runs.has(session)) return null; // steering: a run is already open
      this.runs.set(session, `run:${this.opts.emitter.epoch}:${this.runCount++}`);
    }
    const run = this.runs.get(session);
    if (RUN_TERMINALS.has(mapped.type)) {
      if (!run) return null; // an idle with no open run closes nothing
      this.runs.delete(session);
      const note = this.control?.pendingCancel.get(session);
      this.control?.pendingCancel.delete(session);
      if (note && mapped.type === 'run.finished' && note.run === run) {
        this.opts.emitter.emit(session, { type: 'run.cancelled', data: { by: 'control' } }, { run, cause: note.command });
        return null;
      }
    }
    if (mapped.type === 'session.ended') this.runs.delete(session);
    return { run };
  }

  /** Our reply settled it: the answer first (cause = the command), the resolution chained to it. Returns the resolution's cause. */
  private answerFirst(event: Record<string, unknown>, p: Record<string, unknown>, session: string, run: string | undefined, request: string): string {
    const { control } = this;
    const replied = repliedId(p);
    const mine = control && event.type === 'permission.replied' && replied ? control.settled(replied) : undefined;
    if (!mine) return request;
    const answered = this.opts.emitter.emit(session, { type: 'attention.answered', data: { answer: { option: mine.option }, via: 'control' }, subject: request }, { ...(run ? { run } : {}), cause: mine.command });
    return answered.id;
  }
}

/** One attachment to `GET /event`: resolves when the stream ends (throws when refused); every JSON bus message goes to `handle`. */
async function attachBus(opts: SseBridgeOptions, handle: (event: Record<string, unknown>) => void, signal: AbortSignal, opened: () => void): Promise<string> {
  const res = await fetch(new URL('/event', opts.server), { headers: { accept: 'text/event-stream' }, signal });
  if (res.status !== 200 || !res.body) throw new Error(`GET /event answered HTTP ${res.status}`);
  opened();
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  const cancel = (): void => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value: chunk } = await reader.read();
      if (done) return 'stream ended';
      parser.feed(decoder.decode(chunk, { stream: true }), (m) => {
        try {
          const value = JSON.parse(m.data) as unknown;
          if (isPlainObject(value)) handle(value);
        } catch {
          opts.log(`bus message is not JSON; skipped`);
        }
      });
    }
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}

export async function startSseBridge(opts: SseBridgeOptions): Promise<RunningSseBridge> {
  const control = opts.mode === 'primary' ? opts.control : undefined;
  const follower = new BusFollower(opts, control);
  const loop = reconnectLoop({
    attempt: ({ signal, opened }) => attachBus(opts, (event) => follower.handle(event), signal, opened),
    onRetry: (why, ms) => opts.log(`bus stream closed (${why}); reconnecting in ${ms} ms`),
  });

  // The health check: the shared loopback server (impl/http/healthz.ts), with the edge timeouts.
  const health = opts.port !== undefined ? await startHealthz(opts.port, () => ({ ok: true, relay: opts.emitter.relayReady(), source: loop.isOpen(), control: control !== undefined }), opts.log, opts.limits) : undefined;
  const url = health?.url;
  return {
    ...(url ? { url } : {}),
    sourceOpen: () => loop.isOpen(),
    runOf: (session: string) => follower.runOf(session),
    async close() {
      await loop.stop();
      await health?.close();
    },
  };
}
