/**
 * `fanout`: deliveries/s to 50 SSE subscribers with mixed filters (a third take every session,
 * the rest one of five sessions), 10% of them with a `metadata` capture ceiling below the events'
 * `full`. Batches of 100 ~600 B events are POSTed by a load generator in a separate process
 * (`../fanout-load.ts`), which also holds the subscribers and checks every delivery (exact
 * counts per filter; ceiling subscribers never see the planted content). Ours: an in-process
 * `startRelay`. Baseline: a bare `node:http` broadcaster that frames each line as the relay's SSE
 * message once per batch and writes the same bytes to the 50 sockets (no validation, no buffer,
 * no down-leveling: its ceiling subscribers get the full bytes, so only ours is content-checked).
 */
import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LoadProcess } from '../load-process.js';
import { startRelay, type RunningRelay } from '../../impl/relay/server.js';
import type { Benchmark } from '../harness.js';
import { FANOUT_BATCH, FANOUT_SESSIONS, type SubscriberSpec } from '../fanout-load.js';

export const FANOUT_SUBSCRIBERS = 50;
/** Batches per run of a side: 2000 events, 50k-ish deliveries. */
const BATCHES_PER_RUN = 20;

/** The 50 subscribers: mixed filters, every tenth with a metadata ceiling. */
export function fanoutSubscribers(tag: string): SubscriberSpec[] {
  const specs: SubscriberSpec[] = [];
  for (let i = 0; i < FANOUT_SUBSCRIBERS; i++) {
    const session = i % 3 === 0 ? null : `${tag}-${FANOUT_SESSIONS[i % FANOUT_SESSIONS.length]!}`;
    const ceiling = i % 10 === 1;
    const params = new URLSearchParams();
    if (session !== null) params.set('filter', JSON.stringify({ session }));
    if (ceiling) params.set('capture', 'metadata');
    const q = params.toString();
    specs.push({ query: q === '' ? '' : `?${q}`, session, ceiling });
  }
  return specs;
}

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

export const fanoutBench: Benchmark = {
  name: 'fanout',
  unit: 'deliveries',
  what: `${FANOUT_BATCH}-event batches POSTed to startRelay with ${FANOUT_SUBSCRIBERS} SSE subscribers (mixed filters, 10% metadata ceiling), load in a separate process, vs a bare node:http broadcaster writing the same bytes`,
  budgetMs: 400,
  async prepare() {
    let relay: RunningRelay | undefined;
    let broadcaster: Server | undefined;
    const loads: LoadProcess[] = [];
    const close = async (): Promise<void> => {
      for (const l of loads) l.stop();
      await relay?.close();
      if (broadcaster) {
        broadcaster.closeAllConnections();
        await new Promise<void>((r) => broadcaster!.close(() => r()));
      }
    };
    try {
      relay = await startRelay({ port: 0, drainMs: 1000 });
      broadcaster = await startBroadcaster();
      const baseUrl = `http://127.0.0.1:${(broadcaster.address() as AddressInfo).port}`;
      const toRelay = new LoadProcess('fanout-load.js', 'fanout');
      const toBase = new LoadProcess('fanout-load.js', 'fanout');
      loads.push(toRelay, toBase);
      await toRelay.ask({ kind: 'connect', tag: 'ours', streamUrl: `${relay.url}/stream`, postUrl: `${relay.url}/events`, subscribers: fanoutSubscribers('ours'), checkCeilings: true });
      await toBase.ask({ kind: 'connect', tag: 'base', streamUrl: `${baseUrl}/stream`, postUrl: `${baseUrl}/events`, subscribers: fanoutSubscribers('base'), checkCeilings: false });
      const side = (load: LoadProcess) => ({
        async run() {
          const reply = await load.ask({ kind: 'run', batches: BATCHES_PER_RUN });
          return Number(reply.deliveries);
        },
      });
      return { ours: side(toRelay), baseline: side(toBase), close };
    } catch (err) {
      await close();
      throw err;
    }
  },
};
