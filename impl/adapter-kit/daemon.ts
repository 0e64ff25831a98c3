/**
 * The adapter daemon: one loopback HTTP server per adapter, the relay link, the held loops.
 *
 * HTTP surface (127.0.0.1 only):
 * - `POST /hook/<HookEvent>`: the body is the vendor's hook JSON. Status and headers are sent at
 *   once (so a shim can tell a live daemon from a dead one within its connect bound); the body is
 *   the exact stdout the vendor must receive, sent when the hook is settled (immediately for
 *   observe-only hooks, up to the attention timeout for held ones). `POST /hook` takes the event
 *   from the body's `hook_event_name`. A body that is not a JSON object gets 400.
 * - `GET /healthz`: `{"ok":true,"relay":<bool>}`, `relay` true once the relay answered our hello.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { hostname as osHostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import { CAPTURE_ORDER, captureRank, isPlainObject, type AepEvent } from '../core/event.js';
import { ulid } from '../core/ulid.js';
import { gateFormValues } from '../core/forms.js';
import { redactText } from '../core/redact.js';
import { DEFAULT_POSTURE, levelFor, red } from './capture.js';
import { Sequencer, type EnvelopeExtra } from './envelope.js';
import { HeldLoop, parseAnswer, type PendingRequest } from './held-loop.js';
import { CommandLedger } from './ledger.js';
import { RelayLink } from './relay-link.js';
import { SteeringQueue, joinInstructions } from './steering.js';
import { aepHome, appendLog, nextEpoch } from './store.js';
import type { AdapterDef, Answer, HookContext, HoldSpec, Mapped, Posture, Settlement } from './types.js';

export interface AdapterOptions {
  /** Listen port; default `def.defaultPort`; 0 picks a free port. Always bound to 127.0.0.1. */
  port?: number;
  /** Relay base URL (e.g. `http://127.0.0.1:8787`); absent = no relay link (JSONL log only). */
  relay?: string;
  /** Relay bearer token. */
  token?: string;
  /** AEP home for the state file and logs; default `AEP_HOME` or `~/.aep`. */
  home?: string;
  /** Capture posture; default metadata, attention.* redacted. */
  posture?: Posture;
  /** How long a held hook waits for an answer; default 55 000 ms. */
  attentionTimeoutMs?: number;
  /** Accept `x.{agent}.control.instruct` steering (default false; `AEP_INSTRUCT=1`). */
  instruct?: boolean;
  /** Declared ack window in hello; default 10 000 ms (AEP-0004 §3). */
  ackWindowMs?: number;
  /** Host name used in `source` and the hello instance; default the OS host name. */
  hostname?: string;
  /** Human diagnostics; default silent. */
  log?: (line: string) => void;
  /** Observer for every emitted event line (tests, the live runner). */
  onEmit?: (event: AepEvent, line: string) => void;
}

export interface RunningAdapter {
  url: string;
  port: number;
  /** The epoch this process emits under. */
  epoch: number;
  /** Whether the relay answered our hello. */
  relayReady(): boolean;
  /** Free every held hook (dismissed), stop the server and the relay link. */
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_BODY ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(null));
  });
}

function isCommand(type: string): boolean {
  return type.startsWith('control.') || /^x\.[a-z0-9-]+\.control\./.test(type);
}

export async function startAdapter(def: AdapterDef, options: AdapterOptions = {}): Promise<RunningAdapter> {
  const posture = options.posture ?? DEFAULT_POSTURE;
  const timeoutMs = options.attentionTimeoutMs ?? 55_000;
  const log = options.log ?? (() => {});
  const home = options.home ?? aepHome(process.env);
  const host = options.hostname ?? osHostname();
  const instructType = `x.${def.agent}.control.instruct`;
  const accepts = [...def.accepts, ...(options.instruct ? [instructType] : [])];
  const epoch = nextEpoch(home, def.agent);
  const seq = new Sequencer(def.agent, host, epoch, posture, () => ulid(), () => Date.now());
  const loop = new HeldLoop();
  const ledger = new CommandLedger();
  const steering = new SteeringQueue();
  const runs = new Map<string, string>();
  const waiters = new Map<string, { resolve(s: Settlement): void; timer: NodeJS.Timeout; line: string }>();
  const redact = (s: string): string => redactText(s, { pii: true });
  let link: RelayLink | null = null;

  function emitLine(session: string, mapped: Mapped, extra: EnvelopeExtra = {}): { event: AepEvent; line: string } {
    const event = seq.build(session, mapped, extra);
    const line = JSON.stringify(event);
    try {
      appendLog(home, def.agent, session, line);
    } catch (err) {
      log(`cannot append to the session log: ${(err as Error).message}`);
    }
    link?.send(line);
    options.onEmit?.(event, line);
    return { event, line };
  }
  const emit = (session: string, mapped: Mapped, extra?: EnvelopeExtra): AepEvent => emitLine(session, mapped, extra).event;

  /** Deliver a settlement to the hook waiting on request `id`. */
  function release(id: string, settlement: Settlement): void {
    const waiter = waiters.get(id);
    if (!waiter) return;
    clearTimeout(waiter.timer);
    waiters.delete(id);
    waiter.resolve(settlement);
  }

  /** attention.answered (+ attention.resolved cause-linked to it) for a settled request. */
  function recordAnswer(request: PendingRequest, settlement: Extract<Settlement, { kind: 'option' | 'values' }>, cause: string): void {
    const level = levelFor('attention.answered', posture);
    const answer: Record<string, unknown> = {};
    if (settlement.kind === 'option') {
      answer.option = settlement.option;
      const text = settlement.text === undefined ? undefined : red(settlement.text, level);
      if (text !== undefined) answer.text = text;
    } else {
      answer.values = gateFormValues(request.fields ?? [], settlement.values, level, redact);
    }
    const answered = emit(request.session, { type: 'attention.answered', data: { answer, via: settlement.via }, subject: request.id }, { run: request.run, cause });
    emit(request.session, { type: 'attention.resolved', data: { resolution: 'answered', latency_ms: Math.max(0, Date.now() - request.openedAt) }, subject: request.id }, { run: request.run, cause: answered.id });
  }

  function ack(cmd: Record<string, unknown>, nack?: { reason: string; detail: string }): void {
    const session = cmd.session as string;
    const data: Record<string, unknown> = {};
    if (nack) {
      data.reason = nack.reason;
      const detail = red(nack.detail, levelFor('control.rejected', posture));
      if (detail !== undefined) data.detail = detail;
    }
    const type = nack ? 'control.rejected' : 'control.accepted';
    const run = typeof cmd.run === 'string' ? cmd.run : undefined;
    const { line } = emitLine(session, { type, data }, { cause: cmd.id as string, ...(run ? { run } : {}) });
    ledger.record(cmd.source as string, cmd.id as string, line);
  }

  function onCommand(_raw: string, cmd: Record<string, unknown>): void {
    const { id, source, type, session } = cmd;
    if (typeof id !== 'string' || typeof source !== 'string' || typeof type !== 'string' || !isCommand(type)) return;
    const recorded = ledger.recorded(source, id);
    if (recorded !== undefined) {
      link?.send(recorded);
      return;
    }
    if (typeof session !== 'string') {
      log(`ignored command ${id}: no target session`);
      return;
    }
    if (!accepts.includes(type)) {
      ack(cmd, { reason: 'unsupported', detail: `${type} is not in this adapter's control.accepts (${accepts.join(', ') || 'none'})` });
      return;
    }
    if (type === 'control.attention.respond') {
      const answer = parseAnswer(cmd.data);
      if (!answer) {
        ack(cmd, { reason: 'invalid', detail: 'data.answer must be an object with option/text strings or a values object' });
        return;
      }
      const target = typeof cmd.subject === 'string' ? cmd.subject : typeof cmd.cause === 'string' ? cmd.cause : undefined;
      const pending = target === undefined ? undefined : loop.get(target);
      const outcome = pending && pending.session !== session
        ? ({ ok: false, reason: 'invalid', detail: `attention request '${target}' belongs to another session` } as const)
        : loop.respond(target, answer);
      if (!outcome.ok) {
        ack(cmd, { reason: outcome.reason, detail: outcome.detail });
        return;
      }
      ack(cmd);
      recordAnswer(outcome.request, outcome.settlement, id);
      release(outcome.request.id, outcome.settlement);
      return;
    }
    if (type === instructType) {
      const text = isPlainObject(cmd.data) && typeof cmd.data.text === 'string' ? cmd.data.text : '';
      const cap = def.steeringCap ?? Infinity;
      const problem = text.trim() === '' ? 'data.text must be a non-empty string'
        : text.length > cap ? `data.text is ${text.length} characters; this vendor accepts at most ${cap}`
        : steering.push(session, { commandId: id, text, queuedAt: Date.now() });
      if (problem) ack(cmd, { reason: 'invalid', detail: problem });
      else ack(cmd);
      return;
    }
    ack(cmd, { reason: 'unsupported', detail: `${type} has no handler in this adapter` });
  }

  const ctx: HookContext = {
    posture,
    run: (session) => runs.get(session),
    setRun(session, id) {
      if (id === null) {
        runs.delete(session);
        return undefined;
      }
      const run = id ?? ulid();
      runs.set(session, run);
      return run;
    },
    emit,
    hold(spec: HoldSpec) {
      const run = spec.run ?? runs.get(spec.session);
      const { event: request, line } = emitLine(spec.session, spec.mapped, run ? { run } : {});
      loop.open({
        id: request.id,
        session: spec.session,
        ...(run ? { run } : {}),
        ...(spec.key ? { key: spec.key } : {}),
        ...(spec.options ? { options: spec.options } : {}),
        ...(spec.fields ? { fields: spec.fields } : {}),
        refusing: spec.refusing ?? 'deny',
        ...(spec.legacyAnswer ? { legacyAnswer: spec.legacyAnswer } : {}),
        openedAt: Date.now(),
      });
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          const expired = loop.close(request.id);
          if (!expired) return;
          emit(expired.session, { type: 'attention.timeout', data: { after_ms: timeoutMs }, subject: expired.id }, { ...(run ? { run } : {}), cause: expired.id });
          release(expired.id, { kind: 'timeout' });
        }, timeoutMs);
        waiters.set(request.id, { timer, line, resolve: (settlement) => resolve({ request, settlement }) });
      });
    },
    pending: (session, key) => loop.list(session, key).map((r) => ({ id: r.id, session: r.session, ...(r.key ? { key: r.key } : {}) })),
    settle(id, how) {
      const request = loop.close(id);
      if (!request) return false;
      if (how.kind === 'dismissed') {
        emit(request.session, { type: 'attention.resolved', data: { resolution: 'dismissed', latency_ms: Math.max(0, Date.now() - request.openedAt) }, subject: id }, { ...(request.run ? { run: request.run } : {}), cause: id });
        release(id, { kind: 'dismissed' });
        return true;
      }
      const settlement: Extract<Settlement, { kind: 'option' | 'values' }> = how.answer.values !== undefined
        ? { kind: 'values', values: how.answer.values, via: 'oob' }
        : { kind: 'option', option: how.answer.option ?? request.refusing, ...(how.answer.text ? { text: how.answer.text } : {}), via: 'oob' };
      recordAnswer(request, settlement, id);
      release(id, settlement);
      return true;
    },
    takeSteering(session) {
      const taken = steering.take(session, def.steeringCap);
      if (taken.length === 0) return null;
      const level = levelFor(`x.${def.agent}.instruction.delivered`, posture);
      for (const item of taken) {
        const data: Record<string, unknown> = { queued_ms: Math.max(0, Date.now() - item.queuedAt) };
        const text = red(item.text, level);
        if (text !== undefined) data.text = text;
        emit(session, { type: `x.${def.agent}.instruction.delivered`, data }, { cause: item.commandId });
      }
      return joinInstructions(taken);
    },
    dropSteering(session) {
      const level = levelFor(`x.${def.agent}.instruction.dropped`, posture);
      for (const item of steering.drop(session)) {
        const data: Record<string, unknown> = { reason: 'session-ended' };
        const text = red(item.text, level);
        if (text !== undefined) data.text = text;
        emit(session, { type: `x.${def.agent}.instruction.dropped`, data }, { cause: item.commandId });
      }
    },
  };

  async function handleHook(hookEvent: string, input: Record<string, unknown>): Promise<string> {
    const reply = await def.handle(hookEvent, input, ctx);
    const session = typeof input.session_id === 'string' ? input.session_id : undefined;
    if (options.instruct && session && reply === def.neutralReply(hookEvent) && def.steerable(hookEvent)) {
      const text = ctx.takeSteering(session);
      if (text !== null) return def.steeringReply(hookEvent, text);
    }
    return reply;
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && url.pathname === '/healthz') return json(200, { ok: true, relay: link?.connected ?? false });
    const match = /^\/hook(?:\/([A-Za-z0-9_.-]+))?\/?$/.exec(url.pathname);
    if (!match) return json(404, { error: 'not-found', detail: 'POST /hook/<HookEvent> or GET /healthz' });
    if (req.method !== 'POST') return json(405, { error: 'method-not-allowed', detail: 'hooks are POSTed' });
    void readBody(req).then(async (body) => {
      if (body === null) return json(413, { error: 'payload-too-large', detail: `hook bodies are limited to ${MAX_BODY} bytes` });
      let input: unknown;
      try {
        input = JSON.parse(body);
      } catch {
        return json(400, { error: 'invalid-json', detail: 'the hook body must be the vendor hook JSON object' });
      }
      if (!isPlainObject(input)) return json(400, { error: 'invalid-json', detail: 'the hook body must be a JSON object' });
      const hookEvent = match[1] ?? (typeof input.hook_event_name === 'string' ? input.hook_event_name : '');
      if (!hookEvent) return json(400, { error: 'missing-hook-event', detail: 'use POST /hook/<HookEvent> or set hook_event_name' });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.flushHeaders();
      let reply: string;
      try {
        reply = await handleHook(hookEvent, input);
      } catch (err) {
        log(`hook ${hookEvent} failed, answering neutrally: ${(err as Error).message}`);
        reply = def.neutralReply(hookEvent);
      }
      res.end(reply);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? def.defaultPort, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  if (options.relay) {
    const top = captureRank(posture.ceiling) >= captureRank(posture.attention) ? posture.ceiling : posture.attention;
    link = new RelayLink({
      url: options.relay,
      ...(options.token ? { token: options.token } : {}),
      hello: {
        type: 'hello',
        versions: ['0.1'],
        role: 'emitter',
        identity: { agent: def.agent, instance: `${host}/${process.pid}` },
        capabilities: {
          emits: def.emits,
          capture: CAPTURE_ORDER.slice(0, captureRank(top) + 1),
          control: { accepts, ack_window_ms: options.ackWindowMs ?? 10_000 },
        },
      },
      onCommand,
      log,
      // After a reconnect the relay no longer knows which sessions we own: redeliver each pending
      // request byte-identically (legal at-least-once redelivery, consumers dedupe on (source, id)),
      // which re-claims its session so answers can be routed again.
      onReady: (reconnect) => {
        if (reconnect) for (const waiter of waiters.values()) link?.send(waiter.line);
      },
    });
  }

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    epoch,
    relayReady: () => link?.connected ?? false,
    async close() {
      for (const request of [...waiters.keys()]) ctx.settle(request, { kind: 'dismissed' });
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await link?.close();
    },
  };
}

export type { Answer };
