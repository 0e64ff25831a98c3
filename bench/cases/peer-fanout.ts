/**
 * `peer-fanout`: the `fanout` workload (50 subscribers, a third unfiltered, the rest on one of
 * five sessions; the same ~600 B event bytes; batches of 100) through our relay against a peer
 * broker: Debian's `nats-server`, core pub/sub, started by the benchmark on a free loopback port
 * (`startNats` of impl/relay/fleet/local-nats.ts, the fleet tests' launcher), with the `nats` npm client (`@nats-io/transport-node`) on both ends (`../nats-load.ts`).
 * Ours is `fanout`'s ours side exactly (POST /events, SSE subscribers, 10% with a `metadata`
 * ceiling, every delivery checked by `../fanout-load.ts`). NATS does less: no validation, no
 * buffer, no down-leveling; its side is checked for exact counts and bytes per subscriber.
 * `AEP_NATS_SERVER` names another binary (default: `nats-server` on PATH, else `/usr/sbin/nats-server`).
 */
import { startNats, type NatsServer } from '../../impl/relay/fleet/local-nats.js';
import { startRelay, type RunningRelay } from '../../impl/relay/server.js';
import type { Benchmark } from '../harness.js';
import { LoadProcess } from '../load-process.js';
import { FANOUT_SESSIONS } from '../fanout-events.js';
import { fanoutSubscribers } from './fanout.js';

const BATCHES_PER_RUN = 20;

export const peerFanoutBench: Benchmark = {
  name: 'peer-fanout',
  unit: 'deliveries',
  what: 'the fanout workload (50 subscribers, same event bytes) through startRelay vs nats-server core pub/sub with the nats client on both ends, each load in a separate process',
  budgetMs: 400,
  async prepare() {
    let relay: RunningRelay | undefined;
    let nats: NatsServer | undefined;
    const loads: LoadProcess[] = [];
    const close = async (): Promise<void> => {
      for (const l of loads) l.stop();
      await relay?.close();
      await nats?.dispose();
    };
    try {
      relay = await startRelay({ port: 0, drainMs: 1000 });
      nats = await startNats();
      const toRelay = new LoadProcess('fanout-load.js', 'peer-fanout');
      const toNats = new LoadProcess('nats-load.js', 'peer-fanout');
      loads.push(toRelay, toNats);
      await toRelay.ask({ kind: 'connect', tag: 'ours', streamUrl: `${relay.url}/stream`, postUrl: `${relay.url}/events`, subscribers: fanoutSubscribers('ours'), checkCeilings: true });
      const natsSubs = fanoutSubscribers('nats').map((s) => ({ session: s.session }));
      if (!natsSubs.every((s) => s.session === null || FANOUT_SESSIONS.some((f) => s.session === `nats-${f}`))) throw new Error('peer-fanout: subscriber sessions do not match the workload');
      await toNats.ask({ kind: 'connect', tag: 'nats', servers: nats.url, subscribers: natsSubs });
      const side = (load: LoadProcess) => ({
        async run() {
          const reply = await load.ask({ kind: 'run', batches: BATCHES_PER_RUN });
          return Number(reply.deliveries);
        },
      });
      return { ours: side(toRelay), baseline: side(toNats), close };
    } catch (err) {
      await close();
      throw err;
    }
  },
};
