/**
 * `peer-fanout`: the `fanout` workload (50 subscribers, a third unfiltered, the rest on one of
 * five sessions; the same ~600 B event bytes; batches of 100) through our relay against a peer
 * broker: Debian's `nats-server`, core pub/sub, started by the benchmark on a free loopback port
 * (`-p -1`), with the `nats` npm client (`@nats-io/transport-node`) on both ends (`../nats-load.ts`).
 * Ours is `fanout`'s ours side exactly (POST /events, SSE subscribers, 10% with a `metadata`
 * ceiling, every delivery checked by `../fanout-load.ts`). NATS does less: no validation, no
 * buffer, no down-leveling; its side is checked for exact counts and bytes per subscriber.
 * `AEP_NATS_SERVER` names another binary (default `/usr/sbin/nats-server`, else `nats-server` on PATH).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { startRelay, type RunningRelay } from '../../impl/relay/server.js';
import type { Benchmark } from '../harness.js';
import { LoadProcess } from '../load-process.js';
import { FANOUT_SESSIONS } from '../fanout-events.js';
import { fanoutSubscribers } from './fanout.js';

const BATCHES_PER_RUN = 20;

export function natsBinary(): string {
  return process.env.AEP_NATS_SERVER ?? (existsSync('/usr/sbin/nats-server') ? '/usr/sbin/nats-server' : 'nats-server');
}

/** Start nats-server on a free loopback port; resolves with the process and its client URL. */
export function startNats(): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(natsBinary(), ['-a', '127.0.0.1', '-p', '-1', '--no_advertise'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`peer-fanout: nats-server did not say it listens within 5 s: ${log.slice(-300)}`));
    }, 5000);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`peer-fanout: cannot start ${natsBinary()} (${err.message}); install the Debian package nats-server or set AEP_NATS_SERVER`));
    });
    child.stderr!.setEncoding('utf8').on('data', (c: string) => {
      log += c;
      const m = /Listening for client connections on (127\.0\.0\.1:\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        child.stderr!.removeAllListeners('data');
        child.stderr!.resume();
        resolve({ child, url: `nats://${m[1]}` });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`peer-fanout: nats-server exited (${code}) before listening: ${log.slice(-300)}`));
    });
  });
}

export const peerFanoutBench: Benchmark = {
  name: 'peer-fanout',
  unit: 'deliveries',
  what: 'the fanout workload (50 subscribers, same event bytes) through startRelay vs nats-server core pub/sub with the nats client on both ends, each load in a separate process',
  budgetMs: 400,
  async prepare() {
    let relay: RunningRelay | undefined;
    let nats: ChildProcess | undefined;
    const loads: LoadProcess[] = [];
    const close = async (): Promise<void> => {
      for (const l of loads) l.stop();
      await relay?.close();
      if (nats && nats.exitCode === null) {
        const gone = new Promise<void>((r) => nats!.once('exit', () => r()));
        nats.kill();
        await gone;
      }
    };
    try {
      relay = await startRelay({ port: 0, drainMs: 1000 });
      const started = await startNats();
      nats = started.child;
      const toRelay = new LoadProcess('fanout-load.js', 'peer-fanout');
      const toNats = new LoadProcess('nats-load.js', 'peer-fanout');
      loads.push(toRelay, toNats);
      await toRelay.ask({ kind: 'connect', tag: 'ours', streamUrl: `${relay.url}/stream`, postUrl: `${relay.url}/events`, subscribers: fanoutSubscribers('ours'), checkCeilings: true });
      const natsSubs = fanoutSubscribers('nats').map((s) => ({ session: s.session }));
      if (!natsSubs.every((s) => s.session === null || FANOUT_SESSIONS.some((f) => s.session === `nats-${f}`))) throw new Error('peer-fanout: subscriber sessions do not match the workload');
      await toNats.ask({ kind: 'connect', tag: 'nats', servers: started.url, subscribers: natsSubs });
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
