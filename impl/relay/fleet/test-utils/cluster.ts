/**
 * Test-only: a real three-server NATS cluster (Debian's `nats-server`, JetStream on, three
 * configured routes, loopback free ports, a temporary store each) for the cluster tests. Each
 * server runs in its own process group and is stopped by that group (SIGKILL on `kill9`), so a
 * test never leaves one behind; `dispose` stops every one and removes the stores.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { freePort, NATS_MISSING, natsServerBinary } from '../local-nats.js';

export interface ClusterServer {
  readonly name: string;
  readonly port: number;
  readonly url: string;
  /** Is the process running? */
  alive(): boolean;
  /** SIGKILL its process group; resolves once it is gone. */
  kill9(): Promise<void>;
  /** Start it again on the same ports and store (it rejoins the cluster). */
  restart(): Promise<void>;
  /** The last few kilobytes it wrote to stderr. */
  log(): string;
}

export interface NatsCluster {
  readonly servers: readonly ClusterServer[];
  /** Every client URL, comma-separated (what AEP_NATS_URL takes). */
  readonly urls: string;
  /** Stop every server and remove the stores. */
  dispose(): Promise<void>;
}

function listening(port: number, child: ChildProcess, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const attempt = (): void => {
      if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`nats-server exited (${child.exitCode ?? child.signalCode}) before listening on ${port}`));
      const sock = tcpConnect(port, '127.0.0.1');
      sock.once('connect', () => (sock.destroy(), resolve()));
      sock.once('error', () => {
        sock.destroy();
        if (Date.now() > deadline) reject(new Error(`nats-server did not listen on ${port} within ${ms} ms`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

function killGroup(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  const gone = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
  return gone;
}

/**
 * Start three servers named `n1`..`n3`; resolves once each accepts client connections, which is
 * before the cluster has elected a JetStream meta leader: a fleet started right after is started
 * "together with" the cluster, as an orchestrator starts it. `launch` starts only the first few
 * (the others with `restart()`): a cluster still forming, with no quorum yet.
 */
export async function startCluster(opts: { launch?: number } = {}): Promise<NatsCluster> {
  const binary = natsServerBinary();
  if (!binary) throw new Error(NATS_MISSING);
  const root = mkdtempSync(join(tmpdir(), 'aep-cluster-'));
  const ports: Array<{ client: number; route: number }> = [];
  for (let i = 0; i < 3; i++) ports.push({ client: await freePort(), route: await freePort() });
  const routes = ports.map((p) => `nats-route://127.0.0.1:${p.route}`);
  const servers = ports.map((p, i): ClusterServer => {
    const name = `n${i + 1}`;
    const conf = join(root, `${name}.conf`);
    writeFileSync(
      conf,
      [
        `server_name: ${name}`,
        `listen: 127.0.0.1:${p.client}`,
        `jetstream { store_dir: ${JSON.stringify(join(root, name))} }`,
        // no_advertise: clients keep to the URLs they were given (a node behind test proxies must not learn the servers' own addresses).
        `cluster { name: aep-test, listen: 127.0.0.1:${p.route}, no_advertise: true, routes: [${routes.join(', ')}] }`,
        '',
      ].join('\n'),
    );
    let child: ChildProcess | undefined;
    let log = '';
    const launch = async (): Promise<void> => {
      child = spawn(binary, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
      child.stderr?.setEncoding('utf8').on('data', (c: string) => (log = (log + c).slice(-8000)));
      try {
        await listening(p.client, child, 10_000);
      } catch (err) {
        await killGroup(child);
        throw new Error(`${(err as Error).message}\n${log}`);
      }
    };
    return {
      name,
      port: p.client,
      url: `nats://127.0.0.1:${p.client}`,
      alive: () => child !== undefined && child.exitCode === null && child.signalCode === null,
      kill9: () => killGroup(child),
      restart: async () => {
        await killGroup(child);
        await launch();
      },
      log: () => log,
      launch,
    } as ClusterServer & { launch(): Promise<void> };
  });
  const all = servers as Array<ClusterServer & { launch(): Promise<void> }>;
  try {
    await Promise.all(all.slice(0, opts.launch ?? 3).map((s) => s.launch()));
  } catch (err) {
    await Promise.all(servers.map((s) => s.kill9()));
    rmSync(root, { recursive: true, force: true });
    throw err;
  }
  return {
    servers,
    urls: servers.map((s) => s.url).join(','),
    dispose: async () => {
      await Promise.all(servers.map((s) => s.kill9()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * The server hosting the most of `stream`'s consumers (each relay node's reader is a one-replica
 * consumer on one server), ties broken by the stream's leader: the kill that hurts most. Asked
 * right after a killed server rejoined, the cluster may still be electing its leaders and let a
 * request time out: it asks again until `ms` have passed.
 */
export async function busiestServer(cluster: NatsCluster, stream: string, ms = 30_000, pick: 'consumers' | 'leader' = 'consumers'): Promise<ClusterServer> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await busiestOnce(cluster, stream, pick);
    } catch (err) {
      if (Date.now() >= deadline) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/** The server leading `stream` now: its death leaves the stream without a leader until the others elect one (publishes fail meanwhile). */
export function streamLeader(cluster: NatsCluster, stream: string, ms = 30_000): Promise<ClusterServer> {
  return busiestServer(cluster, stream, ms, 'leader');
}

async function busiestOnce(cluster: NatsCluster, stream: string, pick: 'consumers' | 'leader'): Promise<ClusterServer> {
  const nc = await connect({ servers: cluster.servers.filter((s) => s.alive()).map((s) => s.url), timeout: 5_000 });
  try {
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info(stream);
    const count = new Map<string, number>();
    for await (const c of jsm.consumers.list(stream)) {
      const leader = c.cluster?.leader;
      if (leader) count.set(leader, (count.get(leader) ?? 0) + 1);
    }
    if (pick === 'leader') {
      const leader = cluster.servers.find((s) => s.alive() && s.name === info.cluster?.leader);
      if (!leader) throw new Error(`stream ${stream} has no leader among the live servers yet`);
      return leader;
    }
    const score = (s: ClusterServer): number => (count.get(s.name) ?? 0) * 2 + (info.cluster?.leader === s.name ? 1 : 0);
    return [...cluster.servers].filter((s) => s.alive()).sort((x, y) => score(y) - score(x))[0]!;
  } finally {
    await nc.close();
  }
}

/**
 * The broker's own recovery, measured without a relay in the path: from `since`, publish `payload`
 * (message id `msgID`) to `subject` of the stream through a fresh connection to the live servers
 * until JetStream acknowledges it; resolves with the ms from `since` (-1 after `ms`). What a
 * relay node can do after a server's death is bounded below by this (the stream's leader election).
 */
export async function brokerBack(cluster: NatsCluster, subject: string, payload: string, msgID: string, since: number, ms = 30_000): Promise<number> {
  const deadline = since + ms;
  const nc = await connect({ servers: cluster.servers.filter((s) => s.alive()).map((s) => s.url), timeout: 5_000, reconnectTimeWait: 100 });
  try {
    const js = jetstream(nc);
    while (Date.now() < deadline) {
      try {
        await js.publish(subject, payload, { msgID, timeout: 300 });
        return Date.now() - since;
      } catch {
        await new Promise((r) => setTimeout(r, 25));
      }
    }
    return -1;
  } finally {
    await nc.close();
  }
}

/** Resolves once every replica of `stream` is current and online under a leader (a restarted server caught up), or after `ms`. */
export async function untilCurrent(cluster: NatsCluster, stream: string, ms = 20_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      const nc = await connect({ servers: cluster.servers.filter((s) => s.alive()).map((s) => s.url), timeout: 2_000 });
      try {
        const info = await (await jetstreamManager(nc)).streams.info(stream);
        const replicas = info.cluster?.replicas ?? [];
        if (info.cluster?.leader && replicas.length === cluster.servers.length - 1 && replicas.every((r) => r.current && !r.offline)) return true;
      } finally {
        await nc.close();
      }
    } catch {
      // the cluster is still electing: ask again
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}
