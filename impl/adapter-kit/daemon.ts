/**
 * The adapter daemon: one loopback HTTP server per adapter plus the relay link, around the engine
 * (engine.ts: emission, held loops, commands, steering).
 *
 * HTTP surface (127.0.0.1 only):
 * - `POST /hook/<HookEvent>`: the body is the vendor's hook JSON. Status and headers are sent at
 *   once (so a shim can tell a live daemon from a dead one within its connect bound); the body is
 *   the exact stdout the vendor must receive, sent when the hook is settled (immediately for
 *   observe-only hooks, up to the attention timeout for held ones). `POST /hook` takes the event
 *   from the body's `hook_event_name`. A body that is not a JSON object gets 400.
 *   Every reply names the adapter in `x-aep-adapter`, and a hook reply announces the hold window
 *   in `x-aep-hold-ms`. A request whose `x-aep-adapter` names another adapter gets 409 before
 *   anything is emitted (two installs on one port must not mix).
 *   The body is guarded first (hook-input.ts): nesting deeper than 64 levels is cut and lone
 *   surrogates repaired, with a log line; a cut body still emits its events, its held requests
 *   are dismissed at once and the vendor gets the neutral reply (a cut tool_input must never be
 *   echoed back as the vendor's input).
 * - `GET /healthz`: `{"ok":true,"adapter":"<agent>","relay":<bool>}`, `relay` true once the relay
 *   answered our hello.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { hostname as osHostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import { readBody } from '../http/body.js';
import { EDGE_DEFAULTS, type EdgeLimits } from '../http/limits.js';
import { edgeServerOptions } from '../http/server.js';
import { CAPTURE_ORDER, captureRank, isPlainObject, type AepEvent } from '../core/event.js';
import { DEFAULT_POSTURE } from './capture.js';
import { createEngine } from './engine.js';
import { DEFAULT_LINK_GRACE_MS } from './held-requests.js';
import { RelayLink } from './relay-link.js';
import { MAX_HOOK_DEPTH, guardHookInput, type GuardedInput } from './hook-input.js';
import { ADAPTER_HEADER, HOLD_HEADER } from './shim.cjs';
import { aepHome, nextEpoch } from './store.js';
import type { AdapterDef, HookContext, HookInput, Posture } from './types.js';
import { buildHello, type HelloFrame } from '../relay-client/hello.js';

export interface AdapterOptions {
  /** Listen port; default `def.defaultPort`; 0 picks a free port. Always bound to 127.0.0.1. */
  port?: number;
  /** Relay base URL (e.g. the relay's default URL); absent = no relay link (JSONL log only). */
  relay?: string;
  /** Relay bearer token. */
  token?: string;
  /** AEP home for the state file and logs; default `AEP_HOME` or `~/.aep`. */
  home?: string;
  /** Capture posture; default metadata, attention.* redacted. */
  posture?: Posture;
  /** How long a held hook waits for an answer; default 55 000 ms. */
  attentionTimeoutMs?: number;
  /**
   * How long a held request raised while the relay link is down waits for the link, in ms
   * (default 10 000, `AEP_LINK_GRACE_MS`; 0 answers it neutrally at once); never past the hold
   * window. See held-requests.ts `Audience`.
   */
  linkGraceMs?: number;
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
  /**
   * How long a hook request's head (default 10 000 ms) and its whole request, head and body
   * (default 30 000 ms), may take to arrive; past either Node answers 408 and closes the
   * connection. A held reply is not bound by them: they end once the request is read.
   */
  edge?: Pick<EdgeLimits, 'headersTimeoutMs' | 'bodyTimeoutMs'>;
}

export interface RunningAdapter {
  url: string;
  port: number;
  /** The epoch this process emits under. */
  epoch: number;
  /** Whether the relay answered our hello. */
  relayReady(): boolean;
  /** Resolves once every event emitted so far is in its session log (the log is written off the reply path); absent for a daemon in another process. */
  flushLog?(): Promise<void>;
  /** Free every held hook (dismissed), stop the server and the relay link, flush and close the session logs. */
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;


/** Start a daemon; resolves once it listens. Use `close()` to stop it (tests, the live runner, the CLI). */
export async function startAdapter(def: AdapterDef, options: AdapterOptions = {}): Promise<RunningAdapter> {
  const posture = options.posture ?? DEFAULT_POSTURE;
  const timeoutMs = options.attentionTimeoutMs ?? def.holdMs ?? 55_000;
  const log = options.log ?? (() => {});
  const home = options.home ?? aepHome(process.env);
  const host = options.hostname ?? osHostname();
  const epoch = nextEpoch(home, def.agent, log);
  let link: RelayLink | null = null;
  // Bodies cut at the depth bound: their handler runs with holds dismissed at once (see the header).
  const cut = new WeakSet<HookInput>();
  const guardedDef: AdapterDef = { ...def, handle: (hookEvent, input, ctx) => def.handle(hookEvent, input, cut.has(input) ? dismissingContext(ctx) : ctx) };
  // With a relay configured, the link is the audience: a request raised while it is down is
  // held for the link grace (its events wait in the outbox, the link reconnects promptly) and
  // answered neutrally only if the link is still down when the grace ends.
  const audience = { visible: () => link?.connected ?? false, graceMs: options.linkGraceMs ?? DEFAULT_LINK_GRACE_MS, unseen: (graceMs: number) => link?.hurry(graceMs) };
  const engine = createEngine(guardedDef, {
    posture,
    timeoutMs,
    ...(options.relay ? { audience } : {}),
    // Observe-only adapters declare no control at all, so steering is never on for them.
    instruct: def.observeOnly ? false : (options.instruct ?? false),
    home,
    host,
    epoch,
    send: (line) => link?.send(line),
    log,
    ...(options.onEmit ? { onEmit: options.onEmit } : {}),
  });

  const edge = { ...EDGE_DEFAULTS, ...options.edge };
  const server: Server = createServer(edgeServerOptions(edge), hookServer({ def, engine, cut, timeoutMs, log, relayUp: () => link?.connected ?? false }));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? def.defaultPort, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  if (options.relay) {
    link = new RelayLink({
      url: options.relay,
      ...(options.token ? { token: options.token } : {}),
      hello: adapterHello(def, posture, `${host}/${process.pid}`, engine.accepts, options.ackWindowMs ?? 10_000),
      onCommand: engine.onCommand,
      log,
      // After a reconnect the relay no longer knows which sessions we own: redeliver each pending
      // request byte-identically (legal at-least-once redelivery, consumers dedupe on (source, id)),
      // which re-claims its session so answers can be routed again.
      onReady: (reconnect) => {
        if (reconnect) for (const line of engine.pendingLines()) link?.send(line);
      },
    }).start();
  }

  const attachment = def.attach?.(engine.context, log);

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    epoch,
    relayReady: () => link?.connected ?? false,
    flushLog: () => engine.flushLog(),
    async close() {
      await attachment?.close();
      engine.dismissAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await link?.close();
      await engine.closeLog();
    },
  };
}

/** What the hook endpoint needs of its daemon. */
interface HookServerParts {
  def: AdapterDef;
  engine: ReturnType<typeof createEngine>;
  /** Bodies cut at the depth bound (their holds are dismissed at once). */
  cut: WeakSet<HookInput>;
  timeoutMs: number;
  log: (line: string) => void;
  relayUp: () => boolean;
}

/** The daemon's HTTP surface (see the header): health, and each hook decided (`decideHook`), then handled. */
function hookServer({ def, engine, cut, timeoutMs, log, relayUp }: HookServerParts): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const json = (status: number, body: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json', [ADAPTER_HEADER]: def.agent });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'GET' && url.pathname === '/healthz') return json(200, { ok: true, adapter: def.agent, relay: relayUp() });
      const match = /^\/hook(?:\/([A-Za-z0-9_.-]+))?\/?$/.exec(url.pathname);
      if (!match) return json(404, { error: 'not-found', detail: 'POST /hook/<HookEvent> or GET /healthz' });
      if (req.method !== 'POST') return json(405, { error: 'method-not-allowed', detail: 'hooks are POSTed' });
      const expected = req.headers[ADAPTER_HEADER];
      if (typeof expected === 'string' && expected !== def.agent) {
        return json(409, { error: 'wrong-adapter', adapter: def.agent, detail: `this daemon serves ${def.agent}, not ${expected}` });
      }
      void readBody(req, MAX_BODY).then(async (read) => {
        if (!read.ok) {
          if (read.reason === 'aborted') return; // the vendor went away: nobody to answer
          if (read.reason === 'encoding') return json(400, { error: 'invalid-encoding', detail: `the hook body is not valid UTF-8 (first bad byte at offset ${read.offset}); vendor hook JSON is UTF-8` });
          req.resume();
          return json(413, { error: 'payload-too-large', detail: `hook bodies are limited to ${MAX_BODY} bytes` });
        }
        const decided = decideHook(read.text, match[1]);
        if (!decided.ok) return json(400, decided.error);
        const { hookEvent, input, guarded } = decided;
        if (guarded.repaired > 0) log(`hook ${hookEvent}: ${guarded.repaired} string(s) held a lone UTF-16 surrogate, replaced by U+FFFD`);
        if (guarded.truncated > 0) {
          cut.add(input);
          log(`hook ${hookEvent}: ${guarded.truncated} value(s) nested deeper than ${MAX_HOOK_DEPTH} levels were cut; emitting what remains, answering neutrally`);
        }
        res.writeHead(200, { 'content-type': 'application/json', [ADAPTER_HEADER]: def.agent, [HOLD_HEADER]: String(timeoutMs) });
        res.flushHeaders();
        let reply: string;
        try {
          reply = await engine.handleGuarded(hookEvent, input); // guarded above: walked once
        } catch (err) {
          log(`hook ${hookEvent} failed, answering neutrally: ${(err as Error).message}`);
          reply = def.neutralReply(hookEvent);
        }
        res.end(guarded.truncated > 0 ? def.neutralReply(hookEvent) : reply);
      });
  };
}

/** A hook body, decided before anything is emitted (pure): the hook's name and its guarded input, or the 400 reply. */
export type HookDecision =
  | { ok: true; hookEvent: string; input: HookInput; guarded: GuardedInput }
  | { ok: false; error: { error: string; detail: string } };

export function decideHook(text: string, pathEvent: string | undefined): HookDecision {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, error: { error: 'invalid-json', detail: 'the hook body must be the vendor hook JSON object' } };
  }
  if (!isPlainObject(parsed)) return { ok: false, error: { error: 'invalid-json', detail: 'the hook body must be a JSON object' } };
  const guarded = guardHookInput(parsed);
  const input = guarded.value as HookInput;
  const hookEvent = pathEvent ?? (typeof input.hook_event_name === 'string' ? input.hook_event_name : '');
  if (!hookEvent) return { ok: false, error: { error: 'missing-hook-event', detail: 'use POST /hook/<HookEvent> or set hook_event_name' } };
  return { ok: true, hookEvent, input, guarded };
}

/** The adapter's hello (pure): what it emits, the capture levels up to its posture's top, and its control block unless observe-only. */
export function adapterHello(def: AdapterDef, posture: Posture, instance: string, accepts: string[], ackWindowMs: number): HelloFrame {
  const top = captureRank(posture.ceiling) >= captureRank(posture.attention) ? posture.ceiling : posture.attention;
  return buildHello({
    role: 'emitter',
    identity: { agent: def.agent, instance },
    capabilities: {
      emits: def.emits,
      capture: CAPTURE_ORDER.slice(0, captureRank(top) + 1),
      ...(def.observeOnly ? {} : { control: { accepts, ack_window_ms: ackWindowMs } }),
    },
  });
}

/** A hook context whose holds are dismissed as soon as they open: the request is emitted and closed, the hook answered neutrally. */
function dismissingContext(ctx: HookContext): HookContext {
  const wrapped = Object.create(ctx) as HookContext;
  wrapped.hold = (spec) => {
    const held = ctx.hold(spec);
    ctx.settle(held.requestId, { kind: 'dismissed' });
    return held;
  };
  return wrapped;
}
