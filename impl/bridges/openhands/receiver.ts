/**
 * The OpenHands bridge daemon (healthz port: its descriptor's): a late-joining observer of an agent server.
 * - Discovery: `GET /api/conversations/search` every `pollMs` (AEP_OPENHANDS_POLL seconds,
 *   default 15); a socket per discovered conversation; `session.started` (client
 *   `openhands-agent-server`) on first sight. Bounded: at most `maxSessions` conversations are
 *   ever observed (AEP_OPENHANDS_MAX_SESSIONS, default 100; later ones are logged and skipped),
 *   at most CONNECT_CONCURRENCY (8) socket handshakes are in flight at once, and a discovery
 *   answer over 8 MiB is refused unread.
 * - Socket: `GET /sockets/events/{id}`, first attach `resend_mode=all`, reconnect
 *   `resend_mode=since&after_timestamp=<last vendor timestamp>`; the auth frame
 *   `{"type":"auth","session_api_key":...}` is the ONLY frame ever written (when a key is set);
 *   the vendor event id dedupes the replay overlap; each conversation's socket reconnects through
 *   bridge-kit/reconnect.ts (250 ms doubling to 10 s, reset once the socket was open).
 * - Mapping: `mapEvent` per event, `statusMoments` on every execution-status change (runs
 *   `run:<conversation>:<n>`; an attention resolution names its request event); the envelope
 *   `ts` is receive time, the vendor time rides at `data.vendor_ts`.
 * Read-only by default: no REST write, `control.accepts: []`. The opt-in gate (control.ts,
 * AEP_OPENHANDS_CONTROL=1) adds five REST writes; under it the waiting_for_confirmation request
 * is answerable, a settled respond's flip out of waiting emits `attention.answered` +
 * `attention.resolved` cause-linked to the command, and a status flip a pause / resume /
 * interrupt asked for has its `state.delta` cause-linked. The socket stays auth-frame-only.
 */
import { startHealthz } from '../../http/healthz.js';
import type { EdgeLimits } from '../../http/limits.js';
import { readResponseText } from '../../http/response.js';
import WebSocket from 'ws';
import { isPlainObject, type CaptureLevel } from '../../core/event.js';
import type { Mapped } from '../../adapter-kit/types.js';
import type { Emitter } from '../../bridge-kit/emitter.js';
import { reconnectLoop, type ReconnectLoop } from '../../bridge-kit/reconnect.js';
import { executionStatus, mapEvent, statusMoments, WAITING } from './map-events.js';
import type { OpenHandsControlGate } from './control.js';
import { descriptor } from './descriptor.js';

export const DEFAULT_PORT = descriptor.port;

/** Conversations observed at most, by default (AEP_OPENHANDS_MAX_SESSIONS). */
export const MAX_SESSIONS = 100;
/** Socket handshakes in flight at once: a long discovery answer opens its sockets a few at a time. */
export const CONNECT_CONCURRENCY = 8;
/** Largest discovery answer read, in bytes. */
export const MAX_DISCOVERY_BYTES = 8 * 1024 * 1024;

/** A counting gate: `take()` resolves once a slot is free; the returned release is idempotent. */
export function slots(n: number): { take(signal: AbortSignal): Promise<(() => void) | null>; busy(): number } {
  let busy = 0;
  const waiting: Array<() => void> = [];
  return {
    busy: () => busy,
    take(signal) {
      return new Promise((resolve) => {
        const grant = (): void => {
          signal.removeEventListener('abort', cancel);
          if (signal.aborted) return resolve(null);
          busy++;
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            busy--;
            waiting.shift()?.();
          });
        };
        const cancel = (): void => {
          const i = waiting.indexOf(grant);
          if (i >= 0) waiting.splice(i, 1);
          resolve(null);
        };
        if (busy < n) return grant();
        waiting.push(grant);
        signal.addEventListener('abort', cancel, { once: true });
      });
    },
  };
}

export interface OpenHandsOptions {
  server: string;
  apiKey?: string;
  emitter: Emitter;
  pollMs?: number;
  deltas?: boolean;
  ceiling?: CaptureLevel;
  port?: number;
  /** The opt-in control gate. */
  control?: OpenHandsControlGate;
  /** Most conversations ever observed (default {@link MAX_SESSIONS}). */
  maxSessions?: number;
  /** The health server's header and request timeouts (default: impl/http/healthz.ts's HEALTHZ_LIMITS). */
  limits?: EdgeLimits;
  log(line: string): void;
}

export interface RunningOpenHands {
  url?: string;
  /** Conversations with an open socket. */
  attached(): string[];
  /** The last-observed execution_status of a conversation (the gate's guards read it). */
  statusOf(conversation: string): string | null;
  close(): Promise<void>;
}

interface Conversation {
  id: string;
  ws: WebSocket | null;
  seen: Set<string>;
  lastTs?: string;
  status: string | null;
  run?: string;
  runs: number;
  pendingAsk?: string;
  loop?: ReconnectLoop;
}

/** The conversation's event socket URL (pure): everything on the first connect, what came after the last timestamp on a reconnect. */
export function socketUrlOf(server: string, id: string, lastTs: string | undefined): string {
  const url = new URL(`/sockets/events/${encodeURIComponent(id)}`, server);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (lastTs) {
    url.searchParams.set('resend_mode', 'since');
    url.searchParams.set('after_timestamp', lastTs);
  } else url.searchParams.set('resend_mode', 'all');
  return url.toString();
}

/** What a discovery answer adds (pure): the ids of conversations not yet observed, within the cap, and how many were over it. */
export function discovered(body: unknown, known: ReadonlySet<string> | ReadonlyMap<string, unknown>, room: number): { ids: string[]; over: number } {
  const items = isPlainObject(body) && Array.isArray(body.items) ? body.items : [];
  const ids: string[] = [];
  let over = 0;
  for (const item of items) {
    if (!isPlainObject(item) || typeof item.id !== 'string' || known.has(item.id) || ids.includes(item.id)) continue;
    if (ids.length >= room) {
      over++;
      continue;
    }
    ids.push(item.id);
  }
  return { ids, over };
}

/** The bridge's conversations and what it does with their frames; `startOpenHandsBridge` wires it to the poll and the health check. */
class OpenHandsBridge {
  readonly conversations = new Map<string, Conversation>();
  closed = false;
  reachable = false;
  private readonly headers: Record<string, string>;
  readonly control: OpenHandsControlGate | undefined;
  private readonly maxSessions: number;
  private readonly handshakes = slots(CONNECT_CONCURRENCY);
  private skipped = 0;

  constructor(private readonly opts: OpenHandsOptions) {
    this.headers = opts.apiKey ? { 'x-session-api-key': opts.apiKey } : {};
    this.control = opts.control;
    this.maxSessions = opts.maxSessions ?? MAX_SESSIONS;
  }

  private emit(c: Conversation, mapped: Mapped, cause?: string): void {
    const { opts, control } = this;
    const extra = { ...(c.run ? { run: c.run } : {}), ...(cause ? { cause } : {}) };
    if (mapped.type === 'attention.resolved' && c.pendingAsk) {
      const request = c.pendingAsk;
      // A respond of ours settled it: the echoed answer first, both cause-linked to the command.
      const settling = control?.takeSettling(c.id);
      if (settling) {
        opts.emitter.emit(c.id, { type: 'attention.answered', data: control!.answerData(settling), subject: request }, { ...extra, cause: settling.command });
      }
      opts.emitter.emit(c.id, { ...mapped, subject: request }, { ...extra, cause: settling?.command ?? request });
      c.pendingAsk = undefined;
      control?.asked(c.id, undefined);
      return;
    }
    const event = opts.emitter.emit(c.id, control ? control.decorate(mapped) : mapped, extra);
    if (mapped.type === 'attention.requested') {
      c.pendingAsk = event.id;
      control?.asked(c.id, event.id);
    }
  }

  private onStatus(c: Conversation, next: string): void {
    if (c.status === WAITING && next !== WAITING && !c.pendingAsk) this.control?.takeSettling(c.id);
    for (const m of statusMoments(c.status, next)) {
      if (m.type === 'run.started') c.run = `run:${c.id}:${c.runs++}`;
      this.emit(c, m);
      if (m.type === 'run.finished' || m.type === 'run.failed' || m.type === 'run.cancelled') c.run = undefined;
    }
    c.status = next;
  }

  onFrame(c: Conversation, raw: string): void {
    const { opts, control } = this;
    let event: unknown;
    try {
      event = JSON.parse(raw);
    } catch {
      return;
    }
    if (!isPlainObject(event) || typeof event.kind !== 'string') return;
    if (typeof event.id === 'string') {
      if (c.seen.has(event.id)) return; // replay overlap
      c.seen.add(event.id);
    }
    if (typeof event.timestamp === 'string' && (!c.lastTs || event.timestamp > c.lastTs)) c.lastTs = event.timestamp;
    const mapped = mapEvent(event, { ...(opts.deltas ? { deltas: true } : {}), ...(opts.ceiling ? { ceiling: opts.ceiling } : {}) });
    const status = executionStatus(event);
    // A flip a pause / resume / interrupt asked for: its state event is that command's outcome.
    const cause = control && status && status !== c.status ? control.statusChanged(c.id, status) : undefined;
    if (mapped) this.emit(c, mapped, cause);
    if (status) this.onStatus(c, status);
  }

  /** One socket of a conversation: resolves with why it ended. */
  private async connect(c: Conversation, signal: AbortSignal, opened: () => void): Promise<string> {
    const release = await this.handshakes.take(signal);
    if (!release) return 'aborted';
    const apiKey = this.opts.apiKey;
    return new Promise((resolve) => {
      let ws: WebSocket;
      try {
        ws = new WebSocket(socketUrlOf(this.opts.server, c.id, c.lastTs), { maxPayload: 32 * 1024 * 1024 });
      } catch (err) {
        release();
        return resolve((err as Error).message);
      }
      c.ws = ws;
      const stop = (): void => ws.terminate();
      signal.addEventListener('abort', stop, { once: true });
      let ended = false;
      const end = (why: string): void => {
        release();
        if (ended) return;
        ended = true;
        signal.removeEventListener('abort', stop);
        c.ws = null;
        resolve(why);
      };
      ws.on('open', () => {
        release();
        opened();
        if (apiKey) ws.send(JSON.stringify({ type: 'auth', session_api_key: apiKey }));
      });
      ws.on('message', (data, isBinary) => {
        if (!isBinary) this.onFrame(c, data.toString());
      });
      ws.on('error', (err) => end(err.message));
      ws.on('close', (code) => end(`closed ${code}`));
    });
  }

  private attach(c: Conversation): void {
    if (this.closed) return;
    c.loop = reconnectLoop({
      attempt: ({ signal, opened }) => this.connect(c, signal, opened),
      onRetry: (why, ms) => this.opts.log(`conversation ${c.id}: socket down (${why}); reconnecting in ${ms} ms`),
    });
  }

  async discover(): Promise<void> {
    const { opts, conversations, maxSessions } = this;
    try {
      const res = await fetch(new URL('/api/conversations/search', opts.server), { headers: this.headers, signal: AbortSignal.timeout(10_000) });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
      const text = await readResponseText(res, MAX_DISCOVERY_BYTES);
      if (text === null) throw new Error(`the discovery answer is over ${MAX_DISCOVERY_BYTES} bytes; not read`);
      const body = JSON.parse(text) as unknown;
      this.reachable = true;
      const { ids, over } = discovered(body, conversations, Math.max(0, maxSessions - conversations.size));
      for (const id of ids) {
        const c: Conversation = { id, ws: null, seen: new Set(), status: null, runs: 0 };
        conversations.set(c.id, c);
        opts.emitter.emit(c.id, { type: 'session.started', data: { client: { name: 'openhands-agent-server' } } });
        this.attach(c);
      }
      if (over > 0 && this.skipped++ % 20 === 0) opts.log(`discovery listed ${over} more conversation(s) than this bridge observes (AEP_OPENHANDS_MAX_SESSIONS=${maxSessions}); they are not observed`);
    } catch (err) {
      this.reachable = false;
      opts.log(`discovery failed: ${(err as Error).message}`);
    }
  }
}

export async function startOpenHandsBridge(opts: OpenHandsOptions): Promise<RunningOpenHands> {
  const bridge = new OpenHandsBridge(opts);
  const { conversations, control } = bridge;
  await bridge.discover();
  const poll = setInterval(() => void bridge.discover(), opts.pollMs ?? 15_000);

  // The health check: the shared loopback server (impl/http/healthz.ts), with the edge timeouts.
  const health = opts.port !== undefined ? await startHealthz(opts.port, () => ({ ok: true, relay: opts.emitter.relayReady(), source: bridge.reachable, control: control !== undefined }), opts.log, opts.limits) : undefined;
  const url = health?.url;
  return {
    ...(url ? { url } : {}),
    attached: () => [...conversations.values()].filter((c) => c.ws?.readyState === WebSocket.OPEN).map((c) => c.id),
    statusOf: (id) => conversations.get(id)?.status ?? null,
    async close() {
      bridge.closed = true;
      clearInterval(poll);
      await Promise.all([...conversations.values()].map((c) => c.loop?.stop()));
      await health?.close();
    },
  };
}
