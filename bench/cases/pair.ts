/**
 * What the relay-versus-broadcaster benchmarks (`fanout`, `latency`) set up alike: an in-process
 * relay and the bare broadcaster on ephemeral loopback ports, and one load generator process for
 * each, connected by the caller. `close()` stops all four, whatever was started. Also the bare
 * broadcaster itself, and `closeServer` for every benchmark's own `node:http` server.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startRelay } from '../../impl/relay/server.js';
import { LoadProcess } from '../load-process.js';

/** The bare broadcaster: `GET /stream[?filter={"session":S}]` subscribes, `POST /events` fans out. */
export function startBroadcaster(): Promise<Server> {
  const subs: Array<{ res: ServerResponse; session: string | null }> = [];
  const server = createServer((req, res) => {
    if (req.method === 'GET') {
      const filter = new URL(req.url ?? '/', 'http://x').searchParams.get('filter');
      const session = filter === null ? null : (JSON.parse(filter) as { session: string }).session;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.flushHeaders();
      req.socket.setNoDelay(true);
      const sub = { res, session };
      subs.push(sub);
      res.once('close', () => subs.splice(subs.indexOf(sub), 1));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const all: string[] = [];
      const per = new Map<string, string[]>();
      for (const line of Buffer.concat(chunks).toString('utf8').split('\n')) {
        if (line === '') continue;
        const e = JSON.parse(line) as { session: string; type: string; seq: number; epoch: number };
        const msg = `id: ${e.session}:${e.epoch}:${e.seq}\nevent: ${e.type}\ndata: ${line}\n\n`;
        all.push(msg);
        let list = per.get(e.session);
        if (!list) per.set(e.session, (list = []));
        list.push(msg);
      }
      const allBytes = Buffer.from(all.join(''), 'utf8');
      const perBytes = new Map([...per].map(([s, l]) => [s, Buffer.from(l.join(''), 'utf8')]));
      for (const sub of subs) {
        const bytes = sub.session === null ? allBytes : perBytes.get(sub.session);
        if (bytes) sub.res.write(bytes);
      }
      res.writeHead(202, { 'content-type': 'application/json' });
      res.end(`{"accepted":${all.length}}`);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** Closes a benchmark's own `node:http` server, cutting its keep-alive and streaming connections. */
export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

export interface RelayPair {
  readonly relayUrl: string;
  readonly baseUrl: string;
  /** The load generator pointed at the relay (ours). */
  readonly toRelay: LoadProcess;
  /** The load generator pointed at the broadcaster (the baseline). */
  readonly toBase: LoadProcess;
  close(): Promise<void>;
}

/** Starts both servers and both `script` load generators (named `name` in their errors). */
export async function startRelayPair(script: string, name: string): Promise<RelayPair> {
  const loads: LoadProcess[] = [];
  let relay: Awaited<ReturnType<typeof startRelay>> | undefined;
  let broadcaster: Server | undefined;
  const close = async (): Promise<void> => {
    for (const l of loads) l.stop();
    await relay?.close();
    if (broadcaster) await closeServer(broadcaster);
  };
  try {
    relay = await startRelay({ port: 0, drainMs: 1000 });
    broadcaster = await startBroadcaster();
    const toRelay = new LoadProcess(script, name);
    const toBase = new LoadProcess(script, name);
    loads.push(toRelay, toBase);
    return { relayUrl: relay.url, baseUrl: `http://127.0.0.1:${(broadcaster.address() as AddressInfo).port}`, toRelay, toBase, close };
  } catch (err) {
    await close();
    throw err;
  }
}
