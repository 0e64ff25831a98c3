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
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isPlainObject, type CaptureLevel } from '../../core/event.js';
import type { Emitter } from '../../bridge-kit/emitter.js';
import { SseParser } from '../../relay-client/sse-parser.js';
import { readBody } from '../../http/body.js';
import { parseJsonWithin, refuse, tooLarge } from '../../http/json-body.js';
import type { EdgeLimits } from '../../http/limits.js';
import { replyJson } from '../../http/reply.js';
import { closeServer, createEdgeServer, listenLoopback } from '../../http/server.js';
import { joinUpstream } from '../../http/target.js';
import { mapEvent } from './map-events.js';
import type { Mapped } from '../../adapter-kit/types.js';
import { InterruptBook } from './interrupts.js';
import { StreamJoins } from './joins.js';
import { descriptor, EDGE } from './descriptor.js';

export const DEFAULT_PORT = descriptor.port;
const HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'content-length']);

export interface AguiProxyOptions {
  upstream: string;
  emitter: Emitter;
  deltas?: boolean;
  ceiling?: CaptureLevel;
  port?: number;
  /** Body, depth and timeout limits (default: the descriptor's, AEP_AGUI_MAX_BODY and friends). */
  limits?: EdgeLimits;
  log(line: string): void;
}

export interface RunningAguiProxy {
  url: string;
  close(): Promise<void>;
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

/** The media types whose body the proxy reads as the run input (and bounds in depth). */
const isJson = (req: IncomingMessage): boolean => /^application\/([a-z0-9.+-]*\+)?json$/.test(String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase());

/** Write to the UI, waiting while its socket is full (a slow UI slows the upstream read, never memory). */
function writeOut(res: ServerResponse, chunk: Uint8Array): Promise<void> {
  if (res.write(chunk)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

/** What the proxy forwards of a request: its body bytes, and the run input when the body is JSON. */
interface RequestBody {
  body?: Buffer;
  input?: unknown;
}

/** The upstream response's headers, minus hop-by-hop ones and its content encoding (fetch has decoded the body). */
function responseHeaders(upstream: Response): Record<string, string> {
  const out: Record<string, string> = {};
  upstream.headers.forEach((v, k) => {
    if (!HOP.has(k) && k !== 'content-encoding') out[k] = v;
  });
  return out;
}

/** One running proxy's state (the source's health, the thread's open interrupts, the oversize count) and its request path. */
class TeeProxy {
  private sourceOk = false;
  /** Interrupts left open by a run, answered by a later run input of the thread (one book per proxy). */
  private readonly interrupts = new InterruptBook();
  private oversized = 0;

  constructor(private readonly opts: AguiProxyOptions, private readonly limits: EdgeLimits) {}

  async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url ?? '/';
    if (req.method === 'GET' && path === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, relay: this.opts.emitter.relayReady(), source: this.sourceOk }));
      return;
    }
    // The path is joined to the upstream's: a target is never resolved as a URL of its own.
    const target = joinUpstream(this.opts.upstream, path);
    if (!target) {
      req.resume();
      return replyJson(res, 400, { error: 'bad-request', detail: `the request target must be a path under the upstream (${this.opts.upstream}), got ${JSON.stringify(path.slice(0, 200))}` });
    }
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const read = await this.readRequest(req, res);
    if (!read) return;
    const upstream = await this.forward(req, res, target, read.body, abort.signal);
    if (!upstream) return;
    res.writeHead(upstream.status, responseHeaders(upstream));
    await this.passThrough(upstream, res, new AguiStream(this.opts, read.input, this.interrupts));
  }

  /** The request's body and run input; null when the request was answered (bad encoding, too large, too deep) or the UI hung up. */
  private async readRequest(req: IncomingMessage, res: ServerResponse): Promise<RequestBody | null> {
    if (req.method === 'GET' || req.method === 'HEAD') return {};
    const { limits } = this;
    const read = await readBody(req, limits.maxBody);
    if (!read.ok) {
      if (read.reason === 'encoding') replyJson(res, 400, { error: 'invalid-encoding', detail: `the body is not valid UTF-8 (first bad byte at offset ${read.offset}); AG-UI run input is UTF-8 JSON; nothing was forwarded` });
      else if (read.reason !== 'aborted') refuse(req, res, tooLarge(limits, EDGE.prefix)); // aborted: the UI hung up, nothing to forward, nobody to answer
      return null;
    }
    const out: RequestBody = { body: Buffer.from(read.text, 'utf8') };
    if (isJson(req) || /^\s*[[{]/.test(read.text)) {
      const parsed = parseJsonWithin(read.text, limits, EDGE.prefix);
      if (parsed.ok) out.input = parsed.value;
      else if (parsed.refusal.body.error === 'too-deep') {
        refuse(req, res, parsed.refusal);
        return null;
      }
    }
    return out;
  }

  /** The request sent on to the upstream; null when it failed (answered 502) or the UI hung up. */
  private async forward(req: IncomingMessage, res: ServerResponse, target: URL, body: Buffer | undefined, signal: AbortSignal): Promise<Response | null> {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k) && typeof v === 'string') headers[k] = v;
    try {
      const upstream = await fetch(target, { method: req.method ?? 'POST', headers, ...(body && body.length > 0 ? { body } : {}), signal });
      this.sourceOk = true;
      return upstream;
    } catch (err) {
      if (signal.aborted) return null;
      this.sourceOk = false;
      replyJson(res, 502, { error: 'bad-gateway', detail: `the AG-UI upstream ${this.opts.upstream} is unreachable: ${(err as Error).message}` });
      return null;
    }
  }

  /** The upstream body to the UI chunk for chunk, each chunk also parsed off-path into `stream`. */
  private async passThrough(upstream: Response, res: ServerResponse, stream: AguiStream): Promise<void> {
    const tee = this.observer(stream);
    try {
      if (upstream.body) {
        const reader = upstream.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          await writeOut(res, value);
          tee(value);
        }
      }
      res.end();
    } catch {
      res.destroy();
    }
  }

  /** The off-path observer of one response: SSE `data:` events, parsed within the limits, into `stream`. */
  private observer(stream: AguiStream): (chunk: Uint8Array) => void {
    const { limits, opts } = this;
    // Linear and bounded: an event over the body limit passes to the UI untouched, unobserved.
    const parser = new SseParser({
      maxLine: limits.maxBody,
      onOverflow: () => {
        if (this.oversized++ % 100 === 0) opts.log(`an upstream event is over ${limits.maxBody} characters (${EDGE.prefix}_MAX_BODY): passed to the UI, not observed`);
      },
    });
    const decoder = new TextDecoder();
    return (chunk) => {
      try {
        parser.feed(decoder.decode(chunk, { stream: true }), (m) => {
          const parsed = parseJsonWithin(m.data, limits);
          if (parsed.ok && isPlainObject(parsed.value)) stream.handle(parsed.value);
        });
      } catch {
        // observation never touches the UI's stream
      }
    };
  }
}

export async function startAguiProxy(opts: AguiProxyOptions): Promise<RunningAguiProxy> {
  const limits = opts.limits ?? EDGE.defaults;
  const proxy = new TeeProxy(opts, limits);
  const server = createEdgeServer(limits, (req, res) => proxy.serve(req, res), opts.log);
  const port = await listenLoopback(server, opts.port ?? DEFAULT_PORT);
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => closeServer(server),
  };
}
