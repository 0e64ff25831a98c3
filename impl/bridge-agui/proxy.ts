/**
 * The AG-UI tee proxy (port: its descriptor's): the UI points at the bridge instead of the agent. Every
 * request is forwarded verbatim to `AEP_AGUI_UPSTREAM` (same method, path, query, headers minus
 * hop-by-hop ones, body); the agent's response streams back untouched, chunk for chunk, while
 * each chunk is also parsed off-path (AG-UI's SSE encoding, `data: <event JSON>`) and every
 * event goes through the pure `mapEvent` toward the relay. Identity is the vendor's own:
 * `threadId` → session, `runId` → run (from RUN_STARTED, else the run input), `STEP_*` →
 * envelope step; the tool name of a TOOL_CALL_RESULT and the role (and, at redacted+, the text)
 * of a TEXT_MESSAGE_END are joined in from the stream's earlier events (joins.ts).
 * A client that disconnects aborts the upstream request, exactly as without the bridge.
 * An interrupted run's `attention.requested` are closed by the thread's next run input (its
 * `resume` entries: interrupts.ts). Read-only: no control claim. `GET /healthz` → `{ok, relay, source}` (source: the last
 * upstream attempt succeeded).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isPlainObject, type CaptureLevel } from '../core/event.js';
import type { Emitter } from '../bridge-kit/emitter.js';
import { SseParser } from '../bridge-ce/sse-client.js';
import { mapEvent } from './map-events.js';
import type { Mapped } from '../adapter-kit/types.js';
import { InterruptBook } from './interrupts.js';
import { StreamJoins } from './joins.js';
import { descriptor } from './descriptor.js';

export const DEFAULT_PORT = descriptor.port;
const HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'content-length']);

export interface AguiProxyOptions {
  upstream: string;
  emitter: Emitter;
  deltas?: boolean;
  ceiling?: CaptureLevel;
  port?: number;
  log(line: string): void;
}

export interface RunningAguiProxy {
  url: string;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** One tee stream's identity and tool names; feeds mapped events to the emitter. */
export class AguiStream {
  private thread: string | undefined;
  private run: string | undefined;
  private step: string | undefined;
  /** The joins the mapper needs (tool names, message roles and text): joins.ts. */
  private readonly joins: StreamJoins;
  /** Call id → the id of its `tool.requested` (the terminal's `cause`, AEP-0002 §2 rule 1). */
  private readonly requested = new Map<string, string>();
  /** The id of this stream's `run.started` (the run terminal's `cause`). */
  private runStarted: string | undefined;

  constructor(private readonly opts: Pick<AguiProxyOptions, 'emitter' | 'deltas' | 'ceiling'>, input: unknown, private readonly interrupts: InterruptBook = new InterruptBook()) {
    this.joins = new StreamJoins(opts.ceiling === 'redacted' || opts.ceiling === 'full');
    if (isPlainObject(input)) {
      if (typeof input.threadId === 'string') this.thread = input.threadId;
      if (typeof input.runId === 'string') this.run = input.runId;
    }
    // The run input answers the interrupts an earlier run of the thread stopped for (interrupts.ts).
    if (this.thread !== undefined) {
      for (const { interrupt, steps } of this.interrupts.resume(this.thread, input)) {
        let previous = interrupt.request;
        for (const step of steps) {
          const cause = step.cause === 'request' ? interrupt.request : previous;
          previous = this.opts.emitter.emit(this.thread, step.mapped, { ...(step.run ? { run: step.run } : {}), cause }).id;
        }
      }
    }
  }

  handle(event: Record<string, unknown>): void {
    const type = event.type;
    if (type === 'RUN_STARTED') {
      if (typeof event.threadId === 'string') this.thread = event.threadId;
      if (typeof event.runId === 'string') this.run = event.runId;
    }
    const callId = typeof event.toolCallId === 'string' ? event.toolCallId : undefined;
    const mapped = mapEvent(this.joins.enrich(event), { ...(this.opts.deltas ? { deltas: true } : {}), ...(this.opts.ceiling ? { ceiling: this.opts.ceiling } : {}) });
    if (type === 'STEP_STARTED' && typeof event.stepName === 'string') this.step = event.stepName;
    if (!mapped || !this.thread) return;
    for (const one of Array.isArray(mapped) ? mapped : [mapped]) this.emitOne(one, callId);
    if (type === 'STEP_FINISHED') this.step = undefined;
  }

  private emitOne(mapped: Mapped, callId: string | undefined): void {
    const thread = this.thread as string;
    const step = mapped.step ?? this.step;
    let cause: string | undefined;
    if (TOOL_TERMINALS.has(mapped.type) && callId !== undefined) {
      cause = this.requested.get(callId);
      this.requested.delete(callId);
    } else if (RUN_TERMINALS.has(mapped.type)) {
      cause = this.runStarted;
      this.runStarted = undefined;
    }
    const extra = { ...(this.run ? { run: this.run } : {}), ...(cause ? { cause } : {}) };
    const sent = this.opts.emitter.emit(thread, step ? { ...mapped, step } : mapped, extra);
    if (mapped.type === 'tool.requested' && callId !== undefined) this.requested.set(callId, sent.id);
    if (mapped.type === 'run.started') this.runStarted = sent.id;
    if (mapped.type === 'attention.requested' && mapped.subject !== undefined) this.interrupts.remember(thread, mapped.subject, { request: sent.id, ...(this.run ? { run: this.run } : {}) });
  }
}

const TOOL_TERMINALS: ReadonlySet<string> = new Set(['tool.completed', 'tool.failed', 'tool.denied', 'tool.cancelled']);
const RUN_TERMINALS: ReadonlySet<string> = new Set(['run.finished', 'run.failed', 'run.cancelled']);

export async function startAguiProxy(opts: AguiProxyOptions): Promise<RunningAguiProxy> {
  let sourceOk = false;
  /** Interrupts left open by a run, answered by a later run input of the thread (one book per proxy). */
  const interrupts = new InterruptBook();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (req.method === 'GET' && path === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, relay: opts.emitter.relayReady(), source: sourceOk }));
      return;
    }
    void (async () => {
      const abort = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) abort.abort();
      });
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readBody(req);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k) && typeof v === 'string') headers[k] = v;
      let upstream: Response;
      try {
        upstream = await fetch(new URL(path, opts.upstream), { method: req.method ?? 'POST', headers, ...(body && body.length > 0 ? { body } : {}), signal: abort.signal });
        sourceOk = true;
      } catch (err) {
        sourceOk = false;
        if (!res.headersSent) {
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: 'bad-gateway', detail: `the AG-UI upstream ${opts.upstream} is unreachable: ${(err as Error).message}` }));
        }
        return;
      }
      const out: Record<string, string> = {};
      upstream.headers.forEach((v, k) => {
        if (!HOP.has(k) && k !== 'content-encoding') out[k] = v;
      });
      res.writeHead(upstream.status, out);
      let input: unknown;
      try {
        input = body ? JSON.parse(body.toString('utf8')) : undefined;
      } catch {
        input = undefined;
      }
      const stream = new AguiStream(opts, input, interrupts);
      const parser = new SseParser();
      const decoder = new TextDecoder();
      const tee = (chunk: Uint8Array): void => {
        try {
          parser.feed(decoder.decode(chunk, { stream: true }), (m) => {
            const value = JSON.parse(m.data) as unknown;
            if (isPlainObject(value)) stream.handle(value);
          });
        } catch {
          // observation never touches the UI's stream
        }
      };
      try {
        if (upstream.body) {
          const reader = upstream.body.getReader();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            res.write(value);
            tee(value);
          }
        }
        res.end();
      } catch {
        res.destroy();
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? DEFAULT_PORT, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
