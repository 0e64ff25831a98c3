/**
 * A minimal in-process AEP relay for the checker's self-tests: just enough of AEP-0003/0004
 * to pass every live check, plus switches that break one promise each, so the tests can
 * prove each check catches its failure. Not a product: `impl/relay` is the real relay.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

export interface StubBreakage {
  /** Resume delivers from one past the position (`gap`) or includes the position (`duplicate`). */
  resume?: 'gap' | 'duplicate';
  /** POST accepts envelopes that fail validation. */
  acceptInvalid?: boolean;
  /** Fan-out ignores the subscription's capture ceiling. */
  ignoreCeiling?: boolean;
  /** A refused subscribe terminates the socket instead of answering in-band. */
  dropOnBadSubscribe?: boolean;
  /** Commands are routed on unauthenticated connections. */
  controlWithoutAuth?: boolean;
  /** The discovery document lacks `aep`. */
  badDiscovery?: boolean;
  /** Any AEP-Version is accepted. */
  noVersionGate?: boolean;
  /** SSE ignores the subscription filter. */
  leakFilter?: boolean;
  /** A first frame other than hello is silently accepted. */
  noHelloRequired?: boolean;
  /** Unknown frame types get an error frame instead of being ignored. */
  answerUnknown?: boolean;
  /** A no-route refusal is also published into the session as an Event. */
  behalfEvent?: boolean;
  /** Resume never emits the replay-exhausted marker. */
  noExhaustedMarker?: boolean;
  /** Replayed events get an altered `data` member. */
  rewriteOnReplay?: boolean;
  /** The roster merges the claims of one session into a single entry. */
  mergedRoster?: boolean;
  /** `from: "all"` replays, but announces replay-exhausted anyway. */
  replayAllMarker?: boolean;
  /** SSE delivers every event with its `time` rewritten (same id, altered in flight). */
  alterInFlight?: boolean;
  /** SSE spreads each event's JSON over several `data:` lines (pretty-printed). */
  multiLineData?: boolean;
  /** SSE names every message `event: message` instead of the AEP type. */
  wrongEventField?: boolean;
  /** SSE writes `id: {session}:{seq}`, without the epoch. */
  wrongSseId?: boolean;
}

export interface StubOptions {
  /** When set, HTTP needs the bearer token and control is allowed on authenticated sockets. */
  token?: string;
  /** TCP port on 127.0.0.1. Default 0 (ephemeral). */
  port?: number;
  /** Per-session replay buffer. Default 100. */
  buffer?: number;
  /** Advertise and answer the roster frame (AEP-0003 §4.1). Default false. */
  roster?: boolean;
  /** Advertise and implement `from: "all"` (AEP-0003 §5). Default false: refused with invalid-filter. */
  replayAll?: boolean;
  broken?: StubBreakage;
}

type Json = Record<string, unknown>;
interface Stored { event: Json; raw: string }
interface Filter { session?: unknown; type?: unknown }
interface Sub { filter: Filter; ceiling?: string; send(raw: string, e: Json): void }
interface Conn { ws: WebSocket; authed: boolean; greeted: boolean; subs: Map<string, Sub>; hello?: Json }

const LEVELS = ['none', 'metadata', 'redacted', 'full'];
const GATES: Record<string, string> = { label: 'redacted', prompt: 'redacted', args: 'full', args_redacted: 'redacted', reason: 'redacted', detail: 'redacted', cwd: 'redacted' };
const FILTER_KEYS = ['id', 'type', 'subject', 'source', 'agent', 'session', 'run', 'step', 'epoch', 'cause', 'severity', 'capture'];
const isCommand = (t: string): boolean => /^control\.(attention\.respond|cancel|pause|resume)$/.test(t);
const pos = (e: Json): [number, number] => [typeof e.epoch === 'number' ? e.epoch : 0, e.seq as number];
const after = (a: [number, number], b: [number, number]): boolean => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);

function envelopeOk(e: unknown): e is Json {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return false;
  const o = e as Json;
  for (const k of ['id', 'type', 'time', 'source', 'agent']) if (typeof o[k] !== 'string' || o[k] === '') return false;
  if (o.aep !== '0.1' || !/^[a-z]+(\.[a-z0-9_]+)+$/.test(o.type as string)) return false;
  if ((o.type as string).startsWith('agent.')) return o.session === undefined;
  if (typeof o.session !== 'string') return false;
  return isCommand(o.type as string) ? o.seq === undefined : Number.isInteger(o.seq) && (o.seq as number) >= 0;
}

function filterError(f: unknown): string | undefined {
  if (typeof f !== 'object' || f === null || Array.isArray(f)) return 'filter must be an object';
  for (const k of Object.keys(f)) if (!FILTER_KEYS.includes(k) && !/^[a-z0-9]{1,20}$/.test(k)) return `illegal filter key ${k}`;
  return undefined;
}

function matches(f: Filter, e: Json): boolean {
  for (const [k, v] of Object.entries(f)) {
    const want = Array.isArray(v) ? v : [v];
    if (!want.includes(e[k])) return false;
  }
  return true;
}

/** Down-levels to a ceiling (a `redacted` ceiling over `full` lands on `metadata`). */
function downlevel(raw: string, e: Json, ceiling: string | undefined): string {
  const have = LEVELS.indexOf(typeof e.capture === 'string' ? e.capture : 'metadata');
  if (!ceiling || have <= LEVELS.indexOf(ceiling)) return raw;
  const level = ceiling === 'redacted' && have === 3 ? 'metadata' : ceiling;
  const data = { ...((e.data as Json | undefined) ?? {}) };
  for (const k of Object.keys(data)) if (LEVELS.indexOf(GATES[k] ?? 'metadata') > LEVELS.indexOf(level)) delete data[k];
  return JSON.stringify({ ...e, capture: level, data });
}

function fromError(from: unknown, all: boolean): string | undefined {
  if (from === undefined || (all && from === 'all')) return undefined;
  if (!Array.isArray(from)) return 'from must be an array of positions or "all"';
  for (const p of from) {
    const o = p as Json;
    if (typeof o !== 'object' || o === null || typeof o.session !== 'string' || !Number.isInteger(o.seq)) return 'malformed position';
  }
  return undefined;
}

export async function startStubRelay(opts: StubOptions = {}): Promise<{ url: string; close(): Promise<void> }> {
  const depth = opts.buffer ?? 100;
  const broken = opts.broken ?? {};
  const sessions = new Map<string, { events: Stored[]; ids: Set<string>; evicted?: [number, number] }>();
  const subs = new Set<Sub>();
  const claims = new Map<string, Set<Conn>>();
  const sseResponses = new Set<ServerResponse>();

  const fanOut = (raw: string, e: Json): void => {
    for (const s of subs) if (matches(s.filter, e)) s.send(broken.ignoreCeiling ? raw : downlevel(raw, e, s.ceiling), e);
  };

  const ingest = (raw: string, e: Json): void => {
    const s = sessions.get(e.session as string) ?? { events: [], ids: new Set<string>() };
    sessions.set(e.session as string, s);
    const key = `${String(e.source)} ${String(e.id)}`;
    if (!s.ids.has(key)) {
      s.ids.add(key);
      s.events.push({ event: e, raw });
      s.events.sort((a, b) => (after(pos(a.event), pos(b.event)) ? 1 : -1));
      while (s.events.length > depth) s.evicted = pos(s.events.shift()!.event);
    }
    fanOut(raw, e);
  };

  /** The positions a `from` stands for: `all` is every held session from before its start. */
  const positions = (from: unknown): Json[] =>
    from === 'all' ? [...sessions.keys()].map((session) => ({ session, epoch: -1, seq: -1, all: true })) : Array.isArray(from) ? (from as Json[]) : [];

  /** The replay for one position: [marker earliest or undefined, events]. */
  const replay = (session: string, from: [number, number]): [Stored[], [number, number] | undefined] => {
    const s = sessions.get(session);
    if (!s) return [[], undefined];
    const exhausted = s.evicted && !after(from, s.evicted) && s.events[0] && !broken.noExhaustedMarker ? pos(s.events[0].event) : undefined;
    const out = s.events.map((x) => (broken.rewriteOnReplay ? { event: x.event, raw: JSON.stringify({ ...x.event, data: { rewritten: true } }) } : x)).filter((x) => {
      const p = pos(x.event);
      if (broken.resume === 'duplicate') return !after(from, p);
      if (broken.resume === 'gap') return after(p, [from[0], from[1] + 1]);
      return after(p, from);
    });
    return [out, exhausted];
  };

  const authed = (req: IncomingMessage): boolean => !opts.token || req.headers.authorization === `Bearer ${opts.token}`;
  const discovery = (): Json => ({
    ...(broken.badDiscovery ? {} : { aep: ['0.1'] }),
    role: 'collector',
    endpoints: { events: '/events', stream: '/stream', socket: '/socket' },
    capabilities: {
      filters: ['attr-match'],
      replay: opts.replayAll ? { buffer: depth, all: true } : { buffer: depth },
      capture: LEVELS.slice(0, 3),
      control: { accepts: [] },
      ...(opts.roster ? { roster: {} } : {}),
      experimental: {},
    },
  });
  const json = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    if (req.method === 'GET' && (url.pathname === '/events' || url.pathname === '/.well-known/aep')) return json(res, 200, discovery());
    if (!authed(req)) return json(res, 401, { error: 'unauthorized' });
    if (req.method === 'POST' && url.pathname === '/events') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const version = String(req.headers['aep-version'] ?? '0.1');
        if (!version.startsWith('0.') && !broken.noVersionGate) return json(res, 426, { versions: ['0.1'] });
        const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim();
        if (type !== 'application/json' && type !== 'application/x-ndjson') return json(res, 415, { error: 'unsupported-media-type' });
        const lines = Buffer.concat(chunks).toString('utf8').split('\n').filter((l) => l.trim() !== '');
        const parsed: Array<[string, unknown]> = [];
        for (const [i, line] of lines.entries()) {
          let e: unknown;
          try {
            e = JSON.parse(line);
          } catch {
            return json(res, 400, { error: 'invalid-event', detail: { line: i + 1, message: 'not JSON' } });
          }
          if (!envelopeOk(e) && !broken.acceptInvalid) return json(res, 400, { error: 'invalid-event', detail: { line: i + 1 } });
          parsed.push([line, e]);
        }
        for (const [line, e] of parsed) if (typeof e === 'object' && e !== null) ingest(line, e as Json);
        res.writeHead(202).end();
      });
      return;
    }
    if (req.method === 'GET' && url.pathname === '/stream') {
      let filter: Filter = {};
      let from: unknown;
      try {
        filter = JSON.parse(url.searchParams.get('filter') ?? '{}') as Filter;
        const f = url.searchParams.get('from');
        from = f === null ? undefined : f === 'all' ? 'all' : JSON.parse(f);
      } catch {
        return json(res, 400, { error: 'invalid-filter' });
      }
      if (filterError(filter) || fromError(from, Boolean(opts.replayAll))) return json(res, 400, { error: 'invalid-filter' });
      const lastId = req.headers['last-event-id'];
      if (from === undefined && typeof lastId === 'string') {
        const m = /^(.*):(\d+):(\d+)$/.exec(lastId);
        if (m) from = [{ session: m[1], epoch: Number(m[2]), seq: Number(m[3]) }];
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(': ok\n\n');
      const ceiling = url.searchParams.get('capture') ?? undefined;
      const frame = (raw: string, e: Json): string => {
        const body = broken.alterInFlight ? JSON.stringify({ ...(JSON.parse(raw) as Json), time: '2000-01-01T00:00:00Z' }) : raw;
        const data = broken.multiLineData ? JSON.stringify(JSON.parse(body), null, 1).split('\n').map((l) => `data: ${l}`).join('\n') : `data: ${body}`;
        const id = broken.wrongSseId ? `${String(e.session)}:${String(e.seq)}` : `${String(e.session)}:${pos(e)[0]}:${String(e.seq)}`;
        return `event: ${broken.wrongEventField ? 'message' : String(e.type)}\n${typeof e.seq === 'number' ? `id: ${id}\n` : ''}${data}\n\n`;
      };
      for (const p of positions(from)) {
        const [events, found] = replay(p.session as string, [Number(p.epoch ?? 0), p.seq as number]);
        const exhausted = found ?? (p.all && broken.replayAllMarker ? [0, 0] : undefined);
        if (exhausted) res.write(`: replay-exhausted ${String(p.session)} ${exhausted[0]}:${exhausted[1]}\n\n`);
        for (const x of events) if (matches(filter, x.event)) res.write(frame(broken.ignoreCeiling ? x.raw : downlevel(x.raw, x.event, ceiling), x.event));
      }
      const sub: Sub = { filter: broken.leakFilter ? {} : filter, send: (raw, e) => res.write(frame(raw, e)) };
      if (ceiling) sub.ceiling = ceiling;
      subs.add(sub);
      sseResponses.add(res);
      res.on('close', () => {
        subs.delete(sub);
        sseResponses.delete(res);
      });
      return;
    }
    json(res, 404, { error: 'not-found' });
  });

  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://stub').pathname !== '/socket') return socket.destroy();
    if (opts.token && req.headers.authorization !== undefined && req.headers.authorization !== `Bearer ${opts.token}`) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => onSocket(ws, Boolean(opts.token) && req.headers.authorization === `Bearer ${opts.token}`));
  });

  function onSocket(ws: WebSocket, isAuthed: boolean): void {
    const conn: Conn = { ws, authed: isAuthed, greeted: false, subs: new Map() };
    const send = (o: unknown): void => void (ws.readyState === WebSocket.OPEN && ws.send(typeof o === 'string' ? o : JSON.stringify(o)));
    ws.on('message', (data, isBinary) => {
      const raw = data.toString();
      let m: Json;
      try {
        m = JSON.parse(raw) as Json;
      } catch {
        return send({ type: 'error', code: 'invalid-frame' });
      }
      if (isBinary) return send({ type: 'error', code: 'binary-unsupported' });
      if (!conn.greeted) {
        if (m.type !== 'hello') return broken.noHelloRequired ? undefined : (send({ type: 'error', code: 'hello-required' }), ws.close(1002));
        conn.hello = m;
        if (!Array.isArray(m.versions) || !m.versions.includes('0.1')) return send({ type: 'error', code: 'version-unsupported', versions: ['0.1'] }), ws.close(1002);
        conn.greeted = true;
        return send({ type: 'hello', versions: ['0.1'], role: 'collector', capabilities: discovery().capabilities });
      }
      const type = String(m.type);
      if (type === 'ping') return send({ type: 'pong', t: m.t });
      if (type === 'subscribe') {
        const err = filterError(m.filter ?? {}) ? 'invalid-filter' : fromError(m.from, Boolean(opts.replayAll)) ? 'invalid-filter' : Array.isArray(m.from) && m.from.length > 1000 ? 'limit-exceeded' : undefined;
        if (err) {
          if (broken.dropOnBadSubscribe) return ws.terminate();
          return send({ type: 'error', id: m.id, code: err, detail: err === 'limit-exceeded' ? 'at most 1000 from positions' : 'malformed subscribe' });
        }
        const filter = (m.filter ?? {}) as Filter;
        const ceiling = typeof m.capture === 'string' ? m.capture : undefined;
        send({ type: 'subscribed', id: m.id });
        for (const p of positions(m.from)) {
          const [events, found] = replay(p.session as string, [Number(p.epoch ?? 0), p.seq as number]);
          const exhausted = found ?? (p.all && broken.replayAllMarker ? [0, 0] : undefined);
          if (exhausted) send({ type: 'replay-exhausted', sub: m.id, session: p.session, earliest: { epoch: exhausted[0], seq: exhausted[1] } });
          for (const x of events) if (matches(filter, x.event)) send(downlevel(x.raw, x.event, ceiling));
        }
        const sub: Sub = { filter, send: (r) => send(r) };
        if (ceiling) sub.ceiling = ceiling;
        conn.subs.set(String(m.id), sub);
        subs.add(sub);
        return;
      }
      if (type === 'roster' && opts.roster) {
        if ((conn.hello?.role ?? 'emitter') === 'emitter') return send({ type: 'error', id: m.id, code: 'unauthorized' });
        const entries: Json[] = [];
        for (const [session, owners] of claims) {
          for (const o of broken.mergedRoster ? [...owners].slice(0, 1) : owners) {
            const identity = (o.hello?.identity ?? {}) as Json;
            const caps = (o.hello?.capabilities ?? {}) as Json;
            entries.push({ session, agent: identity.agent, instance: identity.instance, control: caps.control, emits: caps.emits });
          }
        }
        return send({ type: 'roster', id: m.id, entries });
      }
      if (!type.includes('.')) return broken.answerUnknown ? send({ type: 'error', id: m.id, code: 'unknown-frame' }) : undefined; // unknown frames are ignored
      if (!envelopeOk(m)) return send({ type: 'error', code: 'invalid-event' });
      if (isCommand(type)) return route(conn, raw, m);
      const owners = claims.get(m.session as string) ?? new Set<Conn>();
      owners.add(conn);
      claims.set(m.session as string, owners);
      ingest(raw, m);
    });
    ws.on('close', () => {
      for (const s of conn.subs.values()) subs.delete(s);
      for (const owners of claims.values()) owners.delete(conn);
    });
    function route(from: Conn, raw: string, cmd: Json): void {
      const refuse = (code: string): void => send({ type: 'error', cause: cmd.id, code });
      if (!from.authed && !broken.controlWithoutAuth) return refuse('unauthorized');
      const owners = [...(claims.get(cmd.session as string) ?? [])];
      if (owners.length === 0) {
        if (broken.behalfEvent) {
          const note = { aep: '0.1', id: `refusal-${String(cmd.id)}`, type: 'x.stub.control.refused', time: new Date().toISOString(), source: 'aep://stub/relay', agent: 'stub-relay', session: cmd.session, seq: 999, cause: cmd.id };
          ingest(JSON.stringify(note), note);
        }
        return refuse('no-route');
      }
      if (owners.length > 1) return refuse('ambiguous');
      owners[0]!.ws.send(raw);
      fanOut(raw, cmd);
    }
  }

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      for (const r of sseResponses) r.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
