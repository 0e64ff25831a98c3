/**
 * `fleet-fanout`: deliveries/s of a three-node relay fleet (NATS JetStream, `aep relay --nats`)
 * against one in-memory relay, on the same machine. The workload is `fanout`'s: 100-event
 * batches POSTed by a load generator in a separate process to 50 SSE subscribers with mixed
 * filters and 10% metadata ceilings, every delivery checked. Ours: the batches go to node a,
 * the subscribers are spread over nodes a, b and c (every third on each), so each event crosses
 * JetStream (publish, ack, ordered consumer on three nodes) before it is delivered. Baseline: the
 * same subscribers on one `startRelay`. Every relay, the three nodes and the single one, runs in
 * a process of its own (`../relay-child.ts`). Needs `nats-server` (ci.sh installs it); the
 * case fails with that message when it is absent.
 */
import { randomBytes } from 'node:crypto';
import { NATS_MISSING, natsServerBinary, startNats, type NatsServer } from '../../impl/relay/fleet/local-nats.js';
import type { Benchmark } from '../harness.js';
import { LoadProcess } from '../load-process.js';
import { fanoutSubscribers } from './fanout.js';

export const BATCHES_PER_RUN = 10;

export const fleetFanoutBench: Benchmark = {
  name: 'fleet-fanout',
  unit: 'deliveries',
  what: '100-event batches POSTed to node a of a three-node fleet on one nats-server (JetStream) with 50 SSE subscribers spread over the three nodes (fanout\'s filters and ceilings), vs the same 50 subscribers on one in-memory relay',
  budgetMs: 400,
  async prepare() {
    if (!natsServerBinary()) throw new Error(NATS_MISSING);
    let nats: NatsServer | undefined;
    const children: LoadProcess[] = [];
    const loads: LoadProcess[] = [];
    const close = async (): Promise<void> => {
      for (const l of loads) l.stop();
      await Promise.all(children.map((c) => c.stopped()));
      await nats?.dispose();
    };
    try {
      nats = await startNats();
      const stream = `B${randomBytes(6).toString('hex')}`;
      // Every relay in a process of its own, as `aep relay` runs: the three nodes never share one
      // event loop (a fleet's nodes are separate processes, usually on separate machines), and the
      // single relay is started the same way, so neither side runs in the bench's process.
      const start = async (fleet?: { url: string; stream: string; node: string }): Promise<string> => {
        const child = new LoadProcess('relay-child.js', `fleet-fanout relay${fleet ? ` ${fleet.node}` : ''}`);
        children.push(child);
        return String((await child.ask({ kind: 'start', ...(fleet ? { fleet } : {}) })).url);
      };
      const nodes: string[] = [];
      for (const node of ['a', 'b', 'c']) nodes.push(await start({ url: nats.url, stream, node }));
      const single = await start();
      const toFleet = new LoadProcess('fanout-load.js', 'fleet-fanout');
      const toSingle = new LoadProcess('fanout-load.js', 'fleet-fanout');
      loads.push(toFleet, toSingle);
      // `streamUrl` + `query` is the subscriber's URL: an empty `streamUrl` lets each name its node.
      const spread = fanoutSubscribers('fleet').map((s, i) => ({ ...s, query: `${nodes[i % 3]!}/stream${s.query}` }));
      const one = fanoutSubscribers('one').map((s) => ({ ...s, query: `${single}/stream${s.query}` }));
      await toFleet.ask({ kind: 'connect', tag: 'fleet', streamUrl: '', postUrl: `${nodes[0]!}/events`, subscribers: spread, checkCeilings: true });
      await toSingle.ask({ kind: 'connect', tag: 'one', streamUrl: '', postUrl: `${single}/events`, subscribers: one, checkCeilings: true });
      const side = (load: LoadProcess) => ({
        async run() {
          return Number((await load.ask({ kind: 'run', batches: BATCHES_PER_RUN })).deliveries);
        },
      });
      return { ours: side(toFleet), baseline: side(toSingle), close };
    } catch (err) {
      await close();
      throw err;
    }
  },
};
