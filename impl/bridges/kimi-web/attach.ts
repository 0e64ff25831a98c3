/**
 * The Kimi web bridge receiver (port: its descriptor's): observes the kap-server behind `kimi web` and emits
 * every WS envelope through the pure `applyMode` as an ordinary AEP event toward the relay.
 *
 * Wire (design record "The kimi web channel"; the frame shapes marked ASSUMED are not pinned by
 * the standard and are stated in the README):
 * - REST `GET <server>/api/v1/sessions` with `Authorization: Bearer <token>`, answered in the
 *   `{code, msg, data}` envelope (code 0 = ok). ASSUMED: `data` is an array of sessions (or
 *   `{sessions: [...]}`), each with an `id` (or `session_id`). `--session ID` skips discovery.
 * - WS `<server>/api/v1/ws` with the subprotocol `kimi-code.bearer.<token>`. ASSUMED: the bridge
 *   subscribes with one text frame `{"type":"subscribe","session_ids":[...]}` after open; the
 *   server sends envelopes `{type, seq, session_id, timestamp, payload, volatile?, epoch?}`
 *   (pinned by the standard's ws_modes inputs).
 * Receiver state on top of the pure policy:
 * - echo dedupe: an envelope already handled (same `session_id`, `epoch`, `seq`) is dropped, so a
 *   reconnect replay never emits twice; the bus echoes `permission.approval.*` are dropped by
 *   the pure policy;
 * - tool-name re-attachment (primary): `tool.call.started` records `toolCallId → name`; the
 *   matching `tool.result` becomes `tool.completed` / `tool.failed` (by `isError`) carrying that
 *   name; an unpairable result degrades to `x.kimi-code.web.tool.result` (channel visibility);
 * - runs (primary): `run.started` opens `run:<epoch>:<n>` per session, the run.* close ends it.
 * - attention (primary): a resolution names the attention.requested event in `subject` (the pure
 *   policy carries the vendor id); a decision is followed by `attention.resolved` answered.
 * Read-only by default: nothing but the subscribe frame is ever written; the opt-in gate
 * (control.ts, primary mode only) adds exactly two REST writes and never writes to the socket.
 * A dropped socket (or a failed discovery) reconnects through bridge-kit/reconnect.ts (250 ms
 * doubling to 10 s, reset once a socket was open). `GET /healthz`: `{ok, relay, source, control}`
 * (`control`: the gate is honored).
 */
import { startHealthz } from '../../http/healthz.js';
import type { EdgeLimits } from '../../http/limits.js';
import WebSocket from 'ws';
import { digest } from '../../core/digest.js';
import { isPlainObject } from '../../core/event.js';
import type { Emitter } from '../../bridge-kit/emitter.js';
import { reconnectLoop } from '../../bridge-kit/reconnect.js';
import type { Mapped } from '../../adapter-kit/types.js';
import { applyMode, webType, type WsMode } from './mode-policy.js';
import type { KimiControlGate } from './control.js';
import { descriptor } from './descriptor.js';

export const DEFAULT_PORT = descriptor.port;
export const SUBPROTOCOL_PREFIX = 'kimi-code.bearer.';

export interface KimiWebOptions {
  /** The kap-server base URL (host and port as 'kimi web' reports them). */
  server: string;
  token: string;
  mode: WsMode;
  emitter: Emitter;
  /** Sessions to subscribe; empty = discover over REST. */
  sessions?: string[];
  port?: number;
  /** The opt-in control gate (honored in primary mode only). */
  control?: KimiControlGate;
  /** The health server's header and request timeouts (default: impl/http/healthz.ts's HEALTHZ_LIMITS). */
  limits?: EdgeLimits;
  log(line: string): void;
}

export interface RunningKimiWeb {
  url?: string;
  sourceOpen(): boolean;
  runOf(session: string): string | undefined;
  close(): Promise<void>;
}

const obj = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The session ids of a `{code, msg, data}` sessions listing, or an error string. */
export function sessionIds(body: unknown): string[] | string {
  const env = obj(body);
  if (env.code !== 0) return `kap-server answered code ${String(env.code)}: ${String(env.msg ?? 'no message')}`;
  const list = Array.isArray(env.data) ? env.data : Array.isArray(obj(env.data).sessions) ? (obj(env.data).sessions as unknown[]) : undefined;
  if (!list) return 'kap-server sessions listing has no data array';
  return list.map((s) => str(obj(s).id) ?? str(obj(s).session_id)).filter((s): s is string => s !== undefined);
}

/** The per-connection state and the one-envelope step, exported for tests. */
export class KimiWebReceiver {
  private readonly seen = new Set<string>();
  private readonly tools = new Map<string, string>();
  private readonly runs = new Map<string, string>();
  /** Vendor ask id (approval / question) → the attention.requested event id. */
  private readonly asks = new Map<string, string>();
  private runCount = 0;
  private readonly control: KimiControlGate | undefined;
  /** The gate is honored (primary mode with a gate). */
  get gated(): boolean {
    return this.control !== undefined;
  }
  constructor(private readonly mode: WsMode, private readonly emitter: Emitter, control?: KimiControlGate) {
    this.control = mode === 'primary' ? control : undefined;
  }

  runOf(session: string): string | undefined {
    return this.runs.get(session);
  }

  handle(envelope: Record<string, unknown>): void {
    const session = str(envelope.session_id) ?? str(obj(envelope.payload).sessionId);
    if (!session) return;
    if (typeof envelope.seq === 'number') {
      const key = `${session}\u0000${String(envelope.epoch ?? '')}\u0000${envelope.seq}`;
      if (this.seen.has(key)) return;
      this.seen.add(key);
    }
    let mapped = applyMode(envelope, this.mode);
    const p = obj(envelope.payload);
    const type = str(envelope.type) ?? str(p.type);
    if (this.mode === 'primary' && type === 'tool.call.started' && str(p.toolCallId)) this.tools.set(p.toolCallId as string, str(p.name) ?? 'unknown');
    if (this.mode === 'primary' && type === 'tool.result') mapped = this.reattach(p);
    if (mapped === null) return;
    if (mapped.type === 'run.started') {
      if (this.runs.has(session)) return;
      this.runs.set(session, `run:${this.emitter.epoch}:${this.runCount++}`);
    }
    const run = this.runs.get(session);
    if (mapped.type === 'run.finished' || mapped.type === 'run.cancelled' || mapped.type === 'run.failed') {
      if (!run) return;
      this.runs.delete(session);
      const note = this.control?.pendingCancel.get(session);
      this.control?.pendingCancel.delete(session);
      if (note && note.run === run && mapped.type === 'run.cancelled') {
        this.emitter.emit(session, { type: 'run.cancelled', data: { by: 'control' } }, { run, cause: note.command });
        return;
      }
    }
    const extra = run ? { run } : {};
    if (mapped.type.startsWith('attention.')) return this.attention(session, type, p, mapped, extra);
    this.emitter.emit(session, mapped, extra);
  }

  /**
   * The attention loop on the wire: a resolution names the request EVENT in `subject`; a vendor
   * decision (`attention.answered`) is followed by `attention.resolved` answered, both
   * cause-linked to the command when the gate's write settled it (`via: control`).
   */
  private attention(session: string, type: string | undefined, p: Record<string, unknown>, mapped: Mapped, extra: { run?: string }): void {
    if (mapped.type === 'attention.requested') {
      const isApproval = type === 'event.approval.requested';
      const event = this.emitter.emit(session, this.control && isApproval ? this.control.decorate(mapped) : mapped, extra);
      if (mapped.subject) this.asks.set(mapped.subject, event.id);
      if (this.control && isApproval && str(p.approval_id)) this.control.asked(event.id, session, p.approval_id as string);
      return;
    }
    const vendorId = mapped.subject;
    const request = vendorId ? this.asks.get(vendorId) : undefined;
    const command = this.control && type === 'event.approval.resolved' && vendorId ? this.control.resolved(vendorId) : undefined;
    if (!request) return void this.emitter.emit(session, mapped, extra);
    this.asks.delete(vendorId!);
    if (mapped.type === 'attention.answered') {
      const data = command ? { ...mapped.data, via: 'control' } : mapped.data;
      const answered = this.emitter.emit(session, { ...mapped, data, subject: request }, { ...extra, cause: command ?? request });
      this.emitter.emit(session, { type: 'attention.resolved', data: { resolution: 'answered' }, subject: request }, { ...extra, cause: command ?? answered.id });
      return;
    }
    this.emitter.emit(session, { ...mapped, subject: request }, { ...extra, cause: command ?? request });
  }

  /** `tool.result` names no tool: re-attach the name recorded at `tool.call.started`. */
  private reattach(p: Record<string, unknown>): Mapped {
    const callId = str(p.toolCallId);
    const name = callId ? this.tools.get(callId) : undefined;
    if (!callId || !name) return { type: webType('tool.result'), data: {} };
    this.tools.delete(callId);
    const tool = { name, call_id: callId };
    if (p.isError === true) return { type: 'tool.failed', data: { tool, error: { type: 'tool_error' } }, subject: name };
    const data: Record<string, unknown> = { tool };
    if (p.output !== undefined) data.result_digest = digest(p.output);
    return { type: 'tool.completed', data, subject: name };
  }
}

export async function startKimiWeb(opts: KimiWebOptions): Promise<RunningKimiWeb> {
  const receiver = new KimiWebReceiver(opts.mode, opts.emitter, opts.control);
  const base = new URL(opts.server);

  async function discover(): Promise<string[]> {
    if (opts.sessions && opts.sessions.length > 0) return opts.sessions;
    const res = await fetch(new URL('/api/v1/sessions', base), { headers: { authorization: `Bearer ${opts.token}` } });
    if (res.status === 401 || res.status === 403) throw new Error(`GET /api/v1/sessions refused the token (HTTP ${res.status}); check <KIMI_CODE_HOME>/server.token`);
    const ids = sessionIds(await res.json().catch(() => null));
    if (typeof ids === 'string') throw new Error(ids);
    return ids;
  }

  /** One connection: resolves with why it ended. */
  function connect(ids: string[], signal: AbortSignal, opened: () => void): Promise<string> {
    return new Promise((resolve) => {
      const wsUrl = new URL('/api/v1/ws', base);
      wsUrl.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
      const ws = new WebSocket(wsUrl, [SUBPROTOCOL_PREFIX + opts.token]);
      const stop = (): void => ws.terminate();
      signal.addEventListener('abort', stop, { once: true });
      const end = (why: string): void => {
        signal.removeEventListener('abort', stop);
        resolve(why);
      };
      ws.on('open', () => {
        opened();
        ws.send(JSON.stringify({ type: 'subscribe', session_ids: ids }));
      });
      ws.on('message', (data, isBinary) => {
        if (isBinary) return;
        try {
          const value = JSON.parse(data.toString()) as unknown;
          if (isPlainObject(value)) receiver.handle(value);
        } catch {
          opts.log('WS frame is not JSON; skipped');
        }
      });
      ws.on('unexpected-response', (_req, res) => {
        ws.terminate();
        end(`WS upgrade answered HTTP ${res.statusCode}`);
      });
      ws.on('error', (err) => end(err.message));
      ws.on('close', (code) => end(`socket closed (${code})`));
    });
  }

  const loop = reconnectLoop({
    attempt: async ({ signal, opened }) => connect(await discover(), signal, opened),
    onRetry: (why, ms) => opts.log(`kap-server stream closed (${why}); reconnecting in ${ms} ms`),
  });

  // The health check: the shared loopback server (impl/http/healthz.ts), with the edge timeouts.
  const health = opts.port !== undefined ? await startHealthz(opts.port, () => ({ ok: true, relay: opts.emitter.relayReady(), source: loop.isOpen(), control: receiver.gated }), opts.log, opts.limits) : undefined;
  const url = health?.url;
  return {
    ...(url ? { url } : {}),
    sourceOpen: () => loop.isOpen(),
    runOf: (s) => receiver.runOf(s),
    async close() {
      await loop.stop();
      await health?.close();
    },
  };
}
