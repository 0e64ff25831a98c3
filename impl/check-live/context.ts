import { CheckFailure } from './verdicts.js';
import { CHECK_AGENT, type Json } from './events.js';
import { SseConn, describeError } from './sse-client.js';
import { WsConn } from './ws-client.js';

/** Everything `aep check-live` was asked; defaults are in `DEFAULT_OPTIONS`. */
export interface LiveOptions {
  /** The base URL of the endpoint under test, e.g. the relay's default URL. */
  target: string;
  /** Bearer token sent on every request and socket upgrade. Default: none (an unauthenticated run). */
  token?: string;
  /** A session whose owner is a connected control-capable target; enables the control checks. */
  controlSession?: string;
  /** A command type the target declared. Default `control.attention.respond`. */
  controlAccepts: string;
  /** A command type the target did not declare. Default `control.pause`. */
  controlUndeclared: string;
  /** A run of `controlSession` to actually cancel (destructive); enables `control-cancel`. */
  controlCancel?: string;
  /** The sender-side ack window in ms. Default 10000 (AEP-0004 §3). */
  ackWindowMs: number;
  /** Run the eviction checks (floods a fresh session). Default false. */
  evict: boolean;
  /** Refuse to flood past an advertised buffer larger than this. Default 512. */
  evictMax: number;
  /**
   * Caps every check's own time bound and the 5000 ms reachability probe, in ms. Default: none
   * (each check's bound applies). Read by the runner before each check; tests use it to bound hangs.
   */
  maxCheckMs?: number;
}

export const DEFAULT_OPTIONS = {
  controlAccepts: 'control.attention.respond',
  controlUndeclared: 'control.pause',
  ackWindowMs: 10_000,
  evict: false,
  evictMax: 512,
} as const;

/** What the discovery document told us, with endpoints resolved to absolute URLs. */
export interface Discovery {
  doc: Json;
  events: string;
  stream: string;
  /** Absent when no socket endpoint is advertised. */
  socket?: string;
}

/** State shared by every check of one run (the discovery fetch, shared probes). */
export class RunState {
  readonly memo = new Map<string, Promise<unknown>>();
}

/** Resolves an advertised endpoint (absolute URL or path) against the base URL. */
export function resolveEndpoint(base: string, value: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  const b = new URL(base);
  const prefix = b.pathname.replace(/\/+$/, '');
  const path = value.startsWith('/') ? value : `/${value}`;
  b.pathname = prefix && path.startsWith(`${prefix}/`) ? path : `${prefix}${path}`;
  b.search = '';
  b.hash = '';
  return b.toString();
}

export function toWsUrl(url: string): string {
  return url.replace(/^http(s?):/i, 'ws$1:');
}

/**
 * What a check may touch. Created per check by the runner; `signal` aborts at the check's
 * timeout, and everything registered with `defer` is released when the check settles.
 */
export class CheckContext {
  private readonly cleanups: Array<() => void> = [];
  private last: string | undefined;
  constructor(
    readonly opts: LiveOptions,
    private readonly state: RunState,
    readonly signal: AbortSignal,
  ) {}

  /** Registers a release step (closing a socket or stream); runs after the check. */
  defer(fn: () => void): void {
    this.cleanups.push(fn);
  }

  /** Runs every deferred release step; called by the runner. */
  release(): void {
    for (const fn of this.cleanups.splice(0).reverse()) {
      try {
        fn();
      } catch {
        // releasing is best effort
      }
    }
  }

  /** Computes `fn` once per run and shares the result between checks. */
  memo<T>(key: string, fn: () => Promise<T>): Promise<T> {
    let p = this.state.memo.get(key) as Promise<T> | undefined;
    if (!p) {
      p = fn();
      this.state.memo.set(key, p);
    }
    return p;
  }

  url(path: string): string {
    return resolveEndpoint(this.opts.target, path);
  }

  authHeaders(): Record<string, string> {
    return this.opts.token ? { authorization: `Bearer ${this.opts.token}` } : {};
  }

  /** The last request `http` started, as `METHOD url`; read by the runner to say what a timed-out check was waiting on. */
  get lastRequest(): string | undefined {
    return this.last;
  }

  /** On a tokenless run, a 401/403 to `what` fails with a detail that says to rerun with --token. */
  failIfAuthRequired(what: string, status: number): void {
    if ((status === 401 || status === 403) && !this.opts.token) {
      throw new CheckFailure(`${what} answered ${status}: the endpoint requires authentication; rerun with --token`);
    }
  }

  /** A fetch that carries the token and the check's abort signal; network errors become CheckFailure. */
  async http(url: string, init: RequestInit = {}): Promise<Response> {
    this.last = `${init.method ?? 'GET'} ${url}`;
    try {
      return await fetch(url, {
        ...init,
        headers: { ...this.authHeaders(), ...(init.headers as Record<string, string> | undefined) },
        signal: this.signal,
      });
    } catch (err) {
      throw new CheckFailure(`request to ${url} failed: ${describeError(err)}`);
    }
  }

  /** The discovery document (AEP-0003 §3.4), fetched once per run; lenient: missing endpoints get defaults. */
  discovery(): Promise<Discovery> {
    return this.memo('discovery', async () => {
      const url = this.url('/events');
      const res = await this.http(url, { headers: { accept: 'application/json' } });
      const text = await res.text();
      let doc: Json = {};
      try {
        const v: unknown = JSON.parse(text);
        if (typeof v === 'object' && v !== null && !Array.isArray(v)) doc = v as Json;
      } catch {
        doc = {};
      }
      const endpoints = (typeof doc.endpoints === 'object' && doc.endpoints !== null ? doc.endpoints : {}) as Json;
      const pick = (k: string, dflt: string | undefined): string | undefined =>
        typeof endpoints[k] === 'string' && endpoints[k] !== '' ? resolveEndpoint(this.opts.target, endpoints[k] as string) : dflt;
      const socket = pick('socket', undefined);
      const d: Discovery = { doc, events: pick('events', url)!, stream: pick('stream', this.url('/stream'))! };
      if (socket) d.socket = toWsUrl(socket);
      return d;
    });
  }

  /** The advertised `capabilities.replay.buffer`, when it is a positive integer. */
  async bufferDepth(): Promise<number | undefined> {
    const caps = (await this.discovery()).doc.capabilities as Json | undefined;
    const replay = caps?.replay as Json | undefined;
    const b = replay?.buffer;
    return typeof b === 'number' && Number.isInteger(b) && b > 0 ? b : undefined;
  }

  /** POSTs a raw body to the events endpoint; returns status and text. */
  async post(body: string, contentType: string, headers: Record<string, string> = { 'aep-version': '0.1' }) {
    const res = await this.http((await this.discovery()).events, {
      method: 'POST',
      headers: { 'content-type': contentType, ...headers },
      body,
    });
    this.failIfAuthRequired('POST /events', res.status);
    return { status: res.status, text: await res.text(), contentType: res.headers.get('content-type') ?? '' };
  }

  /** POSTs events as one NDJSON batch and demands 202; returns the exact lines posted. */
  async postEvents(events: Json[]): Promise<string[]> {
    const lines = events.map((e) => JSON.stringify(e));
    const res = await this.post(`${lines.join('\n')}\n`, 'application/x-ndjson');
    if (res.status !== 202) {
      throw new CheckFailure(`POST of a valid ${events.length}-event NDJSON batch answered ${res.status}, not 202 (${res.text.slice(0, 200)})`);
    }
    return lines;
  }

  /** Opens an SSE subscription with the given query (`filter`/`from` are JSON-encoded when not strings). */
  async sse(query: { filter?: Json; from?: unknown; capture?: string; live?: string }, headers: Record<string, string> = {}): Promise<SseConn> {
    const u = new URL((await this.discovery()).stream);
    if (query.filter) u.searchParams.set('filter', JSON.stringify(query.filter));
    if (query.from !== undefined) u.searchParams.set('from', typeof query.from === 'string' ? query.from : JSON.stringify(query.from));
    if (query.capture) u.searchParams.set('capture', query.capture);
    if (query.live) u.searchParams.set('live', query.live);
    const conn = new SseConn(u.toString(), { ...this.authHeaders(), ...headers });
    this.defer(() => conn.close());
    return conn;
  }

  /** Opens a socket to the advertised endpoint (with the token when given). Throws WsOpenError. */
  async ws(opts: { withToken?: boolean } = {}): Promise<WsConn> {
    const { socket } = await this.discovery();
    if (!socket) throw new CheckFailure('no socket endpoint is advertised');
    const token = opts.withToken === false ? undefined : this.opts.token;
    const conn = await WsConn.open(socket, token ? { token, timeoutMs: 5000 } : { timeoutMs: 5000 });
    this.defer(() => conn.close());
    return conn;
  }

  /** Opens a socket and completes the hello exchange (AEP-0003 §4) as `role`. */
  async helloWs(role: 'emitter' | 'consumer' | 'both', capabilities: Json = {}, opts: { withToken?: boolean } = {}): Promise<WsConn> {
    const conn = await this.ws(opts);
    conn.send(helloFrame(role, capabilities));
    const reply = await conn.log.waitFor((f) => f.json !== undefined, 5000, 'the hello reply');
    if (reply.item.json?.type !== 'hello') {
      throw new CheckFailure(`the first frame from the endpoint was not hello: ${reply.item.raw.slice(0, 200)}`);
    }
    return conn;
  }
}

export function helloFrame(role: string, capabilities: Json = {}, versions: string[] = ['0.1']): Json {
  return {
    type: 'hello',
    versions,
    role,
    identity: { agent: CHECK_AGENT, instance: `aep-check-live/${process.pid}` },
    capabilities,
  };
}
