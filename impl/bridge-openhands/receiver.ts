/**
 * The OpenHands bridge daemon (healthz port: its descriptor's): a late-joining observer of an agent server.
 * - Discovery: `GET /api/conversations/search` every `pollMs` (AEP_OPENHANDS_POLL seconds,
 *   default 15); a socket per discovered conversation; `session.started` (client
 *   `openhands-agent-server`) on first sight.
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
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { isPlainObject, type CaptureLevel } from '../core/event.js';
import type { Mapped } from '../adapter-kit/types.js';
import type { Emitter } from '../bridge-kit/emitter.js';
import { reconnectLoop, type ReconnectLoop } from '../bridge-kit/reconnect.js';
import { executionStatus, mapEvent, statusMoments, WAITING } from './map-events.js';
import type { OpenHandsControlGate } from './control.js';
import { descriptor } from './descriptor.js';

export const DEFAULT_PORT = descriptor.port;

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

export async function startOpenHandsBridge(opts: OpenHandsOptions): Promise<RunningOpenHands> {
  const conversations = new Map<string, Conversation>();
  let closed = false;
  let reachable = false;
  const headers: Record<string, string> = opts.apiKey ? { 'x-session-api-key': opts.apiKey } : {};

  const control = opts.control;

  function emit(c: Conversation, mapped: Mapped, cause?: string): void {
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

  function onStatus(c: Conversation, next: string): void {
    if (c.status === WAITING && next !== WAITING && !c.pendingAsk) control?.takeSettling(c.id);
    for (const m of statusMoments(c.status, next)) {
      if (m.type === 'run.started') c.run = `run:${c.id}:${c.runs++}`;
      emit(c, m);
      if (m.type === 'run.finished' || m.type === 'run.failed' || m.type === 'run.cancelled') c.run = undefined;
    }
    c.status = next;
  }

  function onFrame(c: Conversation, raw: string): void {
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
    if (mapped) emit(c, mapped, cause);
    if (status) onStatus(c, status);
  }

  function socketUrl(c: Conversation): string {
    const url = new URL(`/sockets/events/${encodeURIComponent(c.id)}`, opts.server);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    if (c.lastTs) {
      url.searchParams.set('resend_mode', 'since');
      url.searchParams.set('after_timestamp', c.lastTs);
    } else url.searchParams.set('resend_mode', 'all');
    return url.toString();
  }

  /** One socket of a conversation: resolves with why it ended. */
  function connect(c: Conversation, signal: AbortSignal, opened: () => void): Promise<string> {
    return new Promise((resolve) => {
      const ws = new WebSocket(socketUrl(c));
      c.ws = ws;
      const stop = (): void => ws.terminate();
      signal.addEventListener('abort', stop, { once: true });
      let ended = false;
      const end = (why: string): void => {
        if (ended) return;
        ended = true;
        signal.removeEventListener('abort', stop);
        c.ws = null;
        resolve(why);
      };
      ws.on('open', () => {
        opened();
        if (opts.apiKey) ws.send(JSON.stringify({ type: 'auth', session_api_key: opts.apiKey }));
      });
      ws.on('message', (data, isBinary) => {
        if (!isBinary) onFrame(c, data.toString());
      });
      ws.on('error', (err) => end(err.message));
      ws.on('close', (code) => end(`closed ${code}`));
    });
  }

  function attach(c: Conversation): void {
    if (closed) return;
    c.loop = reconnectLoop({
      attempt: ({ signal, opened }) => connect(c, signal, opened),
      onRetry: (why, ms) => opts.log(`conversation ${c.id}: socket down (${why}); reconnecting in ${ms} ms`),
    });
  }

  async function discover(): Promise<void> {
    try {
      const res = await fetch(new URL('/api/conversations/search', opts.server), { headers, signal: AbortSignal.timeout(10_000) });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
      const body = (await res.json()) as unknown;
      reachable = true;
      const items = isPlainObject(body) && Array.isArray(body.items) ? body.items : [];
      for (const item of items) {
        if (!isPlainObject(item) || typeof item.id !== 'string' || conversations.has(item.id)) continue;
        const c: Conversation = { id: item.id, ws: null, seen: new Set(), status: null, runs: 0 };
        conversations.set(c.id, c);
        opts.emitter.emit(c.id, { type: 'session.started', data: { client: { name: 'openhands-agent-server' } } });
        attach(c);
      }
    } catch (err) {
      reachable = false;
      opts.log(`discovery failed: ${(err as Error).message}`);
    }
  }

  await discover();
  const poll = setInterval(() => void discover(), opts.pollMs ?? 15_000);

  let server: Server | undefined;
  let url: string | undefined;
  if (opts.port !== undefined) {
    server = createServer((req, res) => {
      const ok = req.method === 'GET' && new URL(req.url ?? '/', 'http://x').pathname === '/healthz';
      res.writeHead(ok ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok ? { ok: true, relay: opts.emitter.relayReady(), source: reachable, control: control !== undefined } : { error: 'not-found', detail: 'GET /healthz' }));
    });
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(opts.port, '127.0.0.1', () => resolve());
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  return {
    ...(url ? { url } : {}),
    attached: () => [...conversations.values()].filter((c) => c.ws?.readyState === WebSocket.OPEN).map((c) => c.id),
    statusOf: (id) => conversations.get(id)?.status ?? null,
    async close() {
      closed = true;
      clearInterval(poll);
      await Promise.all([...conversations.values()].map((c) => c.loop?.stop()));
      if (server) {
        server.closeAllConnections();
        await new Promise<void>((r) => server!.close(() => r()));
      }
    },
  };
}
